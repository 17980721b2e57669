#!/usr/bin/python3
"""Inside host h0 of run_multihost.sh: run the osu-like programs across the two hosts for gshmem and Open MPI's
OpenSHMEM, alternately (the order flips every repetition), and print medians and ratios gshmem/peer.

Environment (set by run_multihost.sh --keep-up): MH_MPIRUN_ARGS (launcher arguments placing one rank per host),
UCX_TLS=tcp,self and UCX_NET_DEVICES=<veth>.

--np N runs N PEs (run_multihost.sh puts the first half on h0, the rest on h1; pass the same --np to it).
--coll-sweep A:B replaces the collective rows by one row per size from A to B bytes (one run per collective and
repetition, 100 iterations per size after 10 warm-up calls), for the collectives' size table.

--variant NAME:K=V[,K=V...] (repeatable) also runs gshmem with those GSHMEM_* settings, as implementation
"gshmem:NAME", in the same alternation (before/after comparisons of a knob in one run); each gets its own table.

--floor BIN (gshmem_tcpfloor) adds, in every repetition, the plain-TCP floor of the same two hosts: one way of a
ping-pong and a simultaneous exchange. The table then says, per row, the floor and the ratio the floor itself
would reach against the peer: a target below that ratio cannot be met by any runtime over TCP on this machine.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys

# key, program, extra args, row key, column index (0 = first value), higher is better, title
ROWS = [
    ("put_lat", "osu_oshm_put_lat", ["-m", "8:8", "-i", "3000", "-x", "300"], "8", 0, False, "put 8 B + quiet (us)"),
    ("get_lat", "osu_oshm_get_lat", ["-m", "8:8", "-i", "3000", "-x", "300"], "8", 0, False, "get 8 B (us)"),
    ("fadd", "osu_oshm_atomics", ["-i", "2000", "-x", "200"], "long_fetch_add", 0, False,
     "fetch-add 64-bit (us)"),
    ("barrier", "osu_oshm_barrier", ["-i", "3000", "-x", "300"], "2", 0, False, "barrier_all, 2 PEs (us)"),
    ("put_bw", "osu_oshm_put_bw", ["-m", "4M:4M", "-i", "10", "-x", "3"], "4194304", 0, True,
     "put 4 MiB bandwidth (MB/s)"),
    ("put_signal", "osu_oshm_put_signal_lat", ["-m", "8:8", "-i", "3000", "-x", "300"], "8", 0, False,
     "put-with-signal 8 B, one way (us)"),
] + [
    # Collectives (active-set forms, osu_coll.h), 8 B per PE, mean call time over the PEs; no issue target.
    (k, "osu_oshm_" + k, ["-m", "8:8", "-i", "1000", "-x", "100"], "8", 0, False, "%s 8 B (us)" % k)
    for k in ("broadcast", "reduce", "fcollect", "alltoall")
]
TARGET = {"put_lat": ("<=", 0.6), "get_lat": ("<=", 1.0), "fadd": ("<=", 1.0), "barrier": ("<=", 0.7),
          "put_bw": (">=", 1.2), "put_signal": ("<=", 1.0),  # put_signal, collectives: no issue target; 1.0 = not slower
          "broadcast": ("<=", 1.0), "reduce": ("<=", 1.0), "fcollect": ("<=", 1.0), "alltoall": ("<=", 1.0)}


def parse(text, rowkey, col):
    for line in text.splitlines():
        f = line.split()
        if len(f) > col + 1 and f[0] == rowkey:
            try:
                return float(f[col + 1])
            except ValueError:
                pass
    return None


def sweep_rows(rng):
    """One row per collective and size of `rng` ("A:B", powers of two): (key, prog, args, rowkey, ...)."""
    lo, hi = (int(x) for x in rng.split(":"))
    out = []
    for k in ("broadcast", "reduce", "fcollect", "alltoall"):
        size = max(lo, 8)
        while size <= hi:
            key = "%s_%d" % (k, size)
            TARGET[key] = ("<=", 1.0)
            out.append((key, "osu_oshm_" + k, ["-m", "%d:%d" % (max(lo, 8), hi), "-i", "100", "-x", "10"], str(size), 0,
                        False, "%s %d B (us)" % (k, size)))
            size *= 2
    return out


def run(impl, prog, args, bindirs, timeout, np=2, envs=()):
    base = shlex.split(os.environ["MH_MPIRUN_ARGS"])
    if impl.startswith("gshmem"):
        xs = [x for kv in envs for x in ("-x", kv)]
        cmd = ["mpirun"] + base + xs + ["-np", str(np), os.path.join(bindirs[impl], prog)] + args
    else:
        extra = ["--skip", "int_compare_swap"] if prog == "osu_oshm_atomics" else []
        cmd = ["oshrun"] + base + ["--mca", "memory", "^patcher", "-np", str(np),
                                   os.path.join(bindirs[impl], prog)] + args + extra
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")


def select_rows(a):
    """The rows of this run: --only, the barrier keyed by the PE count, the collectives swept with --coll-sweep."""
    rows = [r for r in ROWS if not a.only or r[0] in a.only.split(",")]
    if a.np != 2:  # the barrier row is keyed by the PE count; the TCP floor program is a 2-PE one
        rows = [(r[0], r[1], r[2], str(a.np), r[4], r[5], r[6].replace("2 PEs", "%d PEs" % a.np))
                if r[0] == "barrier" else r for r in rows]
        a.floor = ""
    if a.coll_sweep:
        colls = {"broadcast", "reduce", "fcollect", "alltoall"}
        rows = [r for r in rows if r[0] not in colls] + [r for r in sweep_rows(a.coll_sweep)
                                                         if not a.only or r[0].split("_")[0] in a.only.split(",")]
    return rows


def print_table(impl, rows, vals, fl, floor_of):
    """One markdown table: gshmem implementation `impl` (gshmem or gshmem:NAME) against the peer."""
    if impl != "gshmem":
        print("\n%s:\n" % impl)
    fhead = " TCP floor | floor/peer |" if fl else ""
    print("| operation | %s (median) | Open MPI SHMEM (median) | ratio gshmem/peer | target | met |%s" % (impl, fhead))
    print("|---|---|---|---|---|---|" + ("---|---|" if fl else ""))
    for key, prog, args, rowkey, col, hib, title in rows:
        g, o = vals[(key, impl)], vals[(key, "oshmem")]
        if not g or not o:
            print("| %s | %s | %s | - | %s %.1f | no data |" % (title, g, o, *TARGET[key]))
            continue
        mg, mo = statistics.median(g), statistics.median(o)
        ratio = mg / mo
        cmp, t = TARGET[key]
        met = ratio <= t if cmp == "<=" else ratio >= t
        fcol = ""
        if fl:
            f = floor_of.get(key)
            fcol = " %.2f | %.3f |" % (f, f / mo) if f else " - | - |"
        print("| %s | %.2f | %.2f | %.3f | %s %.1f | %s |%s" % (title, mg, mo, ratio, cmp, t, "yes" if met else "NO",
                                                              fcol))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gshmem-bin", required=True)
    ap.add_argument("--peer-bin", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--log", default="")
    ap.add_argument("--floor", default="", help="gshmem_tcpfloor binary (plain TCP floor, same run)")
    ap.add_argument("--np", type=int, default=2, help="PEs (as given to run_multihost.sh --np)")
    ap.add_argument("--coll-sweep", default="", help="A:B: the collectives at every power of two from A to B bytes")
    ap.add_argument("--variant", action="append", default=[], help="NAME:K=V[,K=V]: gshmem again with these settings")
    a = ap.parse_args()
    bindirs = {"gshmem": a.gshmem_bin, "oshmem": a.peer_bin}
    envs = {}
    for v in a.variant:
        name, kvs = v.split(":", 1)
        bindirs["gshmem:" + name] = a.gshmem_bin
        envs["gshmem:" + name] = kvs.split(",")
    rows = select_rows(a)
    vals = {(r[0], i): [] for r in rows for i in bindirs}
    logf = open(a.log, "w") if a.log else None
    errors = 0
    floor = {"pingpong_oneway": [], "exchange": []}
    for rep in range(a.reps):
        if a.floor:
            cmd = ["mpirun"] + shlex.split(os.environ["MH_MPIRUN_ARGS"]) + ["-np", "2", a.floor]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
            if logf:
                logf.write("==== rep %d floor rc=%d\n%s\n" % (rep, p.returncode, p.stdout))
            for k in floor:
                v = parse(p.stdout, k, 0)
                if p.returncode == 0 and v is not None:
                    floor[k].append(v)
        impls = list(bindirs)  # gshmem, oshmem, then the variants; the order rotates every repetition
        order = impls[rep % len(impls):] + impls[:rep % len(impls)]
        done = {}  # a sweep's rows share one run per program and implementation
        for key, prog, args, rowkey, col, _, _ in rows:
            for impl in order:
                if (impl, prog, tuple(args)) in done:
                    rc, out = done[(impl, prog, tuple(args))]
                else:
                    rc, out = run(impl, prog, args, bindirs, 600, a.np, envs.get(impl, ()))
                    done[(impl, prog, tuple(args))] = (rc, out)
                    if logf:
                        logf.write("==== rep %d %s %s rc=%d\n%s\n" % (rep, impl, key, rc, out))
                v = parse(out, rowkey, col)
                if rc != 0 or v is None:
                    errors += 1
                    sys.stderr.write("bench: %s %s rep %d failed (rc %d):\n%s\n" % (impl, key, rep, rc, out[-1500:]))
                    continue
                vals[(key, impl)].append(v)
        sys.stderr.write("bench: repetition %d/%d done\n" % (rep + 1, a.reps))
    # The plain-TCP floor of each latency row: one way (put + quiet is a round trip: batch + acknowledgement).
    fl = {k: statistics.median(v) for k, v in floor.items() if v}
    floor_of = {}
    if fl:
        ow, ex = fl.get("pingpong_oneway"), fl.get("exchange")
        floor_of = {"put_lat": 2 * ow if ow else None, "get_lat": 2 * ow if ow else None,
                    "fadd": 2 * ow if ow else None, "barrier": ex, "put_signal": ow}
    for impl in [i for i in bindirs if i.startswith("gshmem")]:
        print_table(impl, rows, vals, fl, floor_of)
    if fl:
        print("\nPlain TCP on the same hosts, same run (gshmem_tcpfloor, median of %d): one way %.2f us (a round trip "
              "is twice that), simultaneous exchange %.2f us (the floor of a 2-PE barrier)." %
              (len(floor["exchange"]), fl.get("pingpong_oneway", 0), fl.get("exchange", 0)))
    print("\n(%d repetitions, rotating order; per-run values: %s)" %
          (a.reps, "; ".join("%s %s %s" % (k, i, [round(x, 2) for x in v]) for (k, i), v in vals.items())))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
