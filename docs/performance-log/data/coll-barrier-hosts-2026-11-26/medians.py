import sys,statistics,collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(sys.argv[1]):
    f=l.split()
    if not f or f[0]=='L': continue
    for kv in f[1:]:
        k,v=kv.split('='); d[f[0]][int(k)].append(float(v))
sizes=sorted(d['ompi'])
print('variant '+' '.join('%9d'%s for s in sizes))
for name,row in d.items():
    print('%-12s'%name+' '.join('%5.2f(%.2f)'%(statistics.median(row[s]), statistics.median(row[s])/statistics.median(d['ompi'][s])) if row[s] else '   -     ' for s in sizes))
