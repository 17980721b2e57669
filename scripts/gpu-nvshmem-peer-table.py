#!/usr/bin/env python3
"""Tables of scripts/gpu-nvshmem-peer.sh's logs: gshmem beside NVSHMEM, the median of each row over the rounds.

  gpu-nvshmem-peer-table.py OUT

Reads OUT/halo_<lib>_np<N>_<nx>x<ny>_r<round>.log (the HALO lines of benchmarks/gpu/peers/halo.cu) and
OUT/coll_<lib>_np<N>_r<round>.log (the COLL lines of benchmarks/gpu/coll_bench.cu). Ratio = gshmem / NVSHMEM time:
below 1, gshmem is faster. A row that a library lacks (its run failed) shows '-'.
"""
import collections
import glob
import os
import re
import sys


def median(values):
    s = sorted(values)
    return s[len(s) // 2] if s else None


def fmt(x, spec):
    return spec % x if x is not None else "-"


def ratio(g, n):
    return "%.3f" % (g / n) if g is not None and n else "-"


def halo_table(out):
    """HALO <lib> <np> <nx> <ny> <iters> <ms per iteration> <final norm>, grouped by (np, nx, ny, iters)."""
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in glob.glob(os.path.join(out, "halo_*_r*.log")):
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) == 8 and f[0] == "HALO":
                rows[(int(f[2]), int(f[3]), int(f[4]), int(f[5]))][f[1]].append((float(f[6]), f[7]))
    if not rows:
        return
    print("halo exchange (benchmarks/gpu/peers/halo.cu), ms per iteration, median of the rounds")
    print("%3s %6s %6s %6s %10s %10s %8s %6s  %s" % ("np", "nx", "ny", "iters", "gshmem", "nvshmem", "g/nv", "rounds",
                                                   "final norms (gshmem / nvshmem)"))
    for key in sorted(rows):
        g, n = rows[key].get("gshmem", []), rows[key].get("nvshmem", [])
        gm, nm = median([x[0] for x in g]), median([x[0] for x in n])
        norms = "%s / %s" % (",".join(sorted({x[1] for x in g})) or "-", ",".join(sorted({x[1] for x in n})) or "-")
        print("%3d %6d %6d %6d %10s %10s %8s %3d/%-2d  %s" % (key + (fmt(gm, "%.4f"), fmt(nm, "%.4f"), ratio(gm, nm),
                                                               len(g), len(n), norms)))
    print()


def coll_table(out):
    """COLL <lib> <collective> <bytes> <us per call> <bus GB/s> [WRONG], grouped by (np, collective, bytes)."""
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in glob.glob(os.path.join(out, "coll_*_np*_r*.log")):
        m = re.search(r"_np(\d+)_r\d+\.log$", path)
        if not m:
            continue
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) >= 6 and f[0] == "COLL":
                rows[(int(m.group(1)), f[2], int(f[3]))][f[1]].append((float(f[4]), "WRONG" in line))
    if not rows:
        return
    print("collectives (benchmarks/gpu/coll_bench.cu), us per call, median of the rounds; dev_*: block-scope device")
    print("%3s %-20s %10s %10s %10s %8s" % ("np", "collective", "bytes", "gshmem", "nvshmem", "g/nv"))
    for key in sorted(rows, key=lambda k: (k[0], k[1].startswith("dev_"), k[1], k[2])):
        g, n = rows[key].get("gshmem", []), rows[key].get("nvshmem", [])
        gm, nm = median([x[0] for x in g]), median([x[0] for x in n])
        bad = " WRONG" if any(x[1] for x in g + n) else ""
        print("%3d %-20s %10d %10s %10s %8s%s" % (key + (fmt(gm, "%.2f"), fmt(nm, "%.2f"), ratio(gm, nm), bad)))
    print()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gshmem-nvpeer"
    halo_table(out)
    coll_table(out)


if __name__ == "__main__":
    main()
