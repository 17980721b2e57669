"""Suites `cpu` (gshmem's osu-like programs alone, 2 PEs on this node) and `cpu-peers` (gshmem beside Open MPI's
OpenSHMEM and MPI RMA on this node, alternating repetitions; the collectives also at 4 PEs)."""
import os
import shlex

from . import common, osu

LIST = os.path.join(osu.SRC, "lists", "host.list")
LAT = "Latency (us)"
BW = "Bandwidth (MB/s)"


def _list_benches(path, quick):
    """The lines of an osu-like list as Bench objects (gshmem only); --quick caps the iterations at 200."""
    benches = []
    for line in open(path):
        f = shlex.split(line.split("#", 1)[0]) if not line.lstrip().startswith("#") else []
        if not f:
            continue
        prog, args = f[0], f[1:]
        flags = [a.lstrip("-") for a in args if a in ("--nbi", "--global")]
        key = "_".join([prog.replace("osu_oshm_", "")] + flags)
        quick_args = []
        if quick and "-i" in args:
            quick_args = ["-i", str(min(int(args[args.index("-i") + 1]), 200))]
        benches.append(osu.Bench(key, prog, args, {}, quick_args))
    return benches


def run_cpu(ctx):
    """gshmem alone: every line of benchmarks/osu-like/lists/host.list, 2 PEs, ctx.reps repetitions; with
    --baseline, beside that build's programs (library `baseline`), alternating, so that table.md's gshmem/baseline
    column is the change's ratio on this machine."""
    bindirs = {"gshmem": osu.build_gshmem(ctx)}
    if ctx.args.baseline:
        bindirs["baseline"] = osu.build_gshmem(ctx, build=os.path.abspath(ctx.args.baseline))
        ctx.note("baseline: the osu-like programs of %s" % os.path.abspath(ctx.args.baseline))
    plan = [(b, 2, sorted(bindirs), []) for b in _list_benches(LIST, ctx.quick)]
    osu.run_alternating(ctx, plan, bindirs)
    return common.finish(ctx, ["gshmem", "baseline"])


def _heads():
    """The cpu headline: the rows of docs/performance/cpu.csv, picked by benchmark, PE count, size and column."""
    h = common.Head
    s, m = ("oshmem", osu.PEER_NAME["oshmem"]), ("mpi", osu.PEER_NAME["mpi"])
    rows = [("put 8 B + quiet", "put_lat", 8, LAT, [s, m]),
            ("get 8 B", "get_lat", 8, LAT, [s, m]),
            ("64-bit fetch-add", "atomics", "long_fetch_add", LAT, [s]),
            ("barrier_all", "barrier", 2, LAT, [s]),
            ("put 8 B + quiet to a global", "put_lat_global", 8, LAT, [s]),
            ("put 1 MiB + quiet", "put_lat", 1048576, LAT, [s, m]),
            ("put bandwidth 1 MiB", "put_bw", 1048576, BW, [s]),
            ("put bandwidth 256 KiB", "put_bw", 262144, BW, [s]),
            ("broadcast 8 B", "broadcast", 8, LAT, [s]),
            ("broadcast 1 MiB", "broadcast", 1048576, LAT, [s]),
            ("sum-reduce 8 B", "reduce", 8, LAT, [s]),
            ("sum-reduce 1 MiB", "reduce", 1048576, LAT, [s]),
            ("fcollect 8 B", "fcollect", 8, LAT, [s]),
            ("fcollect 256 KiB", "fcollect", 262144, LAT, [s]),
            ("alltoall 8 B", "alltoall", 8, LAT, [s]),
            ("alltoall 256 KiB", "alltoall", 262144, LAT, [s])]
    return [h(op, b, 2, k, met, lib, name) for op, b, k, met, peers in rows for lib, name in peers]


def run_cpu_peers(ctx):
    """Every osu-like comparison at 2 PEs with the peers that have it, then the collectives at 4 PEs beside Open
    MPI's OpenSHMEM; the headline from the 2-PE medians."""
    only = _only(ctx)
    benches = [b for b in osu.BENCHES if only is None or b.key in only]
    gbin = osu.build_gshmem(ctx, None if only is None else sorted({b.prog for b in benches}))
    peers, pbin = osu.build_peers(ctx, ("oshmem", "mpi"), only)
    bindirs = {"gshmem": gbin, "oshmem": pbin, "mpi": pbin}
    plan = []
    for b in benches:
        libs = ["gshmem"] + [p for p in osu.LIBS[1:] if p in b.peers and p in peers]
        plan.append((b, 2, libs, []))
    for k in osu.COLLECTIVES:
        if only is None:
            b = osu.BY_KEY[k]
            plan.append((b, 4, ["gshmem"] + (["oshmem"] if "oshmem" in peers else []), []))
    osu.run_alternating(ctx, plan, bindirs)
    if only is None:
        common.write_headline(ctx, "cpu", _heads(), "CPU, one node: gshmem vs Open MPI OpenSHMEM and MPI RMA (2 PEs)")
    return common.finish(ctx, list(osu.LIBS))


def _only(ctx):
    """The set of comparison keys --only names (None: all); an unknown key is a usage error."""
    if ctx.args.only is None:
        return None
    keys = {k for k in ctx.args.only.split(",") if k}
    unknown = sorted(keys - set(osu.BY_KEY))
    if unknown or not keys:
        raise common.Usage("--only: unknown keys %s; known: %s" % (", ".join(unknown) or "(none)",
                                                                  ", ".join(sorted(osu.BY_KEY))))
    return keys
