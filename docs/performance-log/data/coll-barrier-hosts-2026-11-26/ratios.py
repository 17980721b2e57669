import csv, sys, statistics, collections
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/raw.csv")))
vals = collections.defaultdict(list)
for r in rows:
    if "Max" in r["metric"]: continue
    vals[(r["benchmark"], r["key"], r["impl"])].append(float(r["value"]))
benches = ["barrier","broadcast","fcollect","reduce","alltoall"]
out = collections.defaultdict(dict)
keys = set()
for (b,k,i),v in vals.items():
    out[(b,k)][i] = statistics.median(v)
    keys.add(k)
def num(k):
    try: return int(k)
    except: return 0
sizes = sorted(keys, key=num)
print("| size | " + " | ".join(benches) + " |")
print("|---:|" + "---|"*len(benches))
for k in sizes:
    cells=[]
    for b in benches:
        o=out.get((b,k))
        if not o or "gshmem" not in o or "oshmem" not in o: cells.append(""); continue
        g,p=o["gshmem"],o["oshmem"]; r=g/p
        flag = "**" if r>1.0 or (num(k)<=64 and r>0.7) else ""
        cells.append(f"{flag}{g:.3g} / {p:.3g} = {r:.2f}{flag}")
    print(f"| {k} | " + " | ".join(cells) + " |")
