#!/usr/bin/env python3
# summarize.py OUTDIR|samples.csv [CSV]: per case, the median (and 10th percentile) over every repetition of
# every round of ns per request (CPU time for the one-thread cases, wall time for the two-thread ones), before and
# after. Reads measure.sh's JSON files in OUTDIR, or a samples CSV; with CSV, also writes every sample there.
import collections, csv, glob, json, os, statistics, sys
samples = []  # (variant, round, case, label, ns)
if sys.argv[1].endswith('.csv'):
    for r in csv.DictReader(open(sys.argv[1])):
        samples.append((r['variant'], int(r['round']), r['case'], r['label'], float(r['ns_per_request'])))
else:
    for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
        v, rnd = os.path.basename(f)[:-5].split('-')
        for x in json.load(open(f))['benchmarks']:
            if x.get('run_type') == 'iteration':
                samples.append((v, int(rnd), x['run_name'], x.get('label', ''), 1e9 / x['items_per_second']))
order = list(dict.fromkeys((s[2], s[3]) for s in samples))
if len(sys.argv) > 2:
    with open(sys.argv[2], 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(('variant', 'round', 'case', 'label', 'ns_per_request'))
        for s in sorted(samples, key=lambda s: (s[1], s[0], order.index((s[2], s[3])))):
            w.writerow(s[:4] + ('%.3f' % s[4],))
res = collections.defaultdict(list)
for v, _, case, label, ns in samples:
    res[(case, label, v)].append(ns)
print('| case | before: median (p10) | after: median (p10) | after / before |')
print('|---|---|---|---|')
for case, label in order:
    b, a = sorted(res[(case, label, 'before')]), sorted(res[(case, label, 'after')])
    mb, ma = statistics.median(b), statistics.median(a)
    print('| %s (%s) | %.2f (%.2f) | %.2f (%.2f) | %.2f |' % (case, label, mb, b[len(b) // 10], ma, a[len(a) // 10],
                                                             ma / mb))
