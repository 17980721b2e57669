#!/usr/bin/env python3
# summarize.py OUTDIR: per case, the median (and 10th percentile) over every repetition of every round of
# ns per request (CPU time for the one-thread cases, wall time for the two-thread ones), before and after.
import collections, glob, json, os, statistics, sys
res = collections.defaultdict(list)
order = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    v = os.path.basename(f).split('-')[0]
    for x in json.load(open(f))['benchmarks']:
        if x.get('run_type') != 'iteration':
            continue
        name = x['run_name'] + ' (' + x.get('label', '') + ')'
        if name not in order:
            order.append(name)
        res[(name, v)].append(1e9 / x['items_per_second'])
print('| case | before: median (p10) | after: median (p10) | after / before |')
print('|---|---|---|---|')
for n in order:
    b, a = sorted(res[(n, 'before')]), sorted(res[(n, 'after')])
    mb, ma = statistics.median(b), statistics.median(a)
    print('| %s | %.2f (%.2f) | %.2f (%.2f) | %.2f |' % (n, mb, b[len(b) // 10], ma, a[len(a) // 10], ma / mb))
