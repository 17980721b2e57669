import sys, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if f and f[0] == "COLL": t[(f[2], int(f[3]), f[1])].append((float(f[4]), float(f[5])))
libs = sorted({k[2] for k in t})
print("median us (bus GB/s) of 3 rounds; ratio of time to nccl in brackets")
print("%-15s %10s " % ("coll", "bytes") + " ".join("%26s" % l for l in libs))
for c, n in sorted({(k[0], k[1]) for k in t}):
    def med(l):
        v = sorted(t.get((c, n, l), []))
        return v[len(v) // 2] if v else (0, 0)
    nc = med("nccl")[0]
    print("%-15s %10d " % (c, n) + " ".join("%26s" % ("%8.1f (%5.1f) [%5.3f]" % (med(l)[0], med(l)[1], med(l)[0] / nc if nc else 0)) for l in libs))
