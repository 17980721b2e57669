import sys,statistics as st
rows={}; order=[]
for l in open(sys.argv[1]):
    k,v=l.split(":",1); v=v.split()
    if not v: continue
    if k not in rows: order.append(k)
    rows.setdefault(k,[]).append([float(x) for x in v])
o=rows["oshmem"]
for k in order:
    rat=[[a/b for a,b in zip(r,ro)] for r,ro in zip(rows[k],o)]
    print("%-30s med %s max %s abs %s"%(k,[round(st.median(c),2) for c in zip(*rat)],[round(max(c),2) for c in zip(*rat)],[round(st.median(c),2) for c in zip(*rows[k])]))
