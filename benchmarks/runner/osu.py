"""The osu-like programs (benchmarks/osu-like): their comparisons, the peers' builds from the same C sources, the
output parser and the alternating runner.

Libraries: gshmem (CMake targets of the build folder), oshmem (the same sources compiled with Open MPI's `oshcc`,
run with `oshrun`), mpi (the MPI-RMA twins compiled with `mpicc`, Open MPI osc/ucx).
"""
import os
import shutil

from . import common

SRC = os.path.join(common.REPO, "benchmarks", "osu-like")
LIBS = ("gshmem", "oshmem", "mpi")
PEER_NAME = {"oshmem": "Open MPI OpenSHMEM", "mpi": "MPI RMA"}

# Open MPI 4.1.4's 32-bit compare-and-swap crashes: that row is left out for the peer only.
OSHMEM_ATOMIC_SKIP = ["--skip", "int_compare_swap"]
LAT_QUICK = ["-i", "1000", "-x", "100"]
BW_QUICK = ["-i", "10", "-x", "3", "-f", "4"]
COLL_QUICK = ["-i", "100", "-x", "10"]  # every power of two: the headline takes 256 KiB and 1 MiB
COLLECTIVES = ("barrier", "broadcast", "fcollect", "reduce", "alltoall")


class Bench:
    """One comparison: the gshmem program and arguments, and per peer library its program and arguments."""

    def __init__(self, key, prog, args, peers, quick_args):
        self.key, self.prog, self.args, self.peers, self.quick_args = key, prog, args, peers, quick_args


def _b(key, prog, extra=(), mpi=None, quick=LAT_QUICK, skip=()):
    peers = {"oshmem": ("osu_oshm_" + prog, list(extra) + list(skip))}
    if mpi:
        peers["mpi"] = ("osu_mpi_" + mpi, [])
    return Bench(key, "osu_oshm_" + prog, list(extra), peers, quick)


BENCHES = [
    _b("put_lat", "put_lat", mpi="put_lat"),
    _b("put_lat_nbi", "put_lat", ["--nbi"]),
    _b("put_lat_global", "put_lat", ["--global"]),
    _b("get_lat", "get_lat", mpi="get_lat"),
    _b("get_lat_nbi", "get_lat", ["--nbi"]),
    _b("put_bw", "put_bw", mpi="put_bw", quick=BW_QUICK),
    _b("get_bw", "get_bw", quick=BW_QUICK),
    _b("put_bibw", "put_bibw", quick=BW_QUICK),
    _b("put_mr", "put_mr", quick=["-i", "100", "-x", "10", "-f", "8"]),
    _b("atomics", "atomics", skip=OSHMEM_ATOMIC_SKIP),
    _b("put_signal_lat", "put_signal_lat"),
] + [_b(k, k, quick=COLL_QUICK if k != "barrier" else LAT_QUICK) for k in COLLECTIVES]
BY_KEY = {b.key: b for b in BENCHES}


def parse(text):
    """OSU-format output -> (columns, [(key, [values])]); the columns come from the last '# Size'-like header."""
    columns, rows = [], []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            parts = [c.strip() for c in s[1:].split("  ") if c.strip()]
            if parts and parts[0] in ("Size", "Operation", "PEs"):
                columns = parts[1:]
            continue
        f = s.split()
        try:
            rows.append((f[0], [float(x) for x in f[1:]]))
        except ValueError:
            continue  # launcher noise, not a result row
    return columns, rows


def gshmem_bindir(ctx, build=None):
    return os.path.join(build or ctx.build, "benchmarks", "osu-like")


def build_gshmem(ctx, progs=None, build=None):
    """Build gshmem's osu-like programs (all of them, or only the named executables) in ctx.build or `build`."""
    common.cmake_targets(ctx, ["osu_benchmarks"] if progs is None else list(progs), build=build)
    return gshmem_bindir(ctx, build)


def build_peers(ctx, libs, progs=None):
    """Compile the osu-like sources with oshcc and the MPI twins with mpicc into <out>/peer-build (rebuilt when a
    source is newer). Returns the libraries that could be built; the others get one line each."""
    scratch = os.path.join(ctx.out, "peer-build")
    os.makedirs(scratch, exist_ok=True)
    util = os.path.join(SRC, "osu_util.c")
    newest = max(os.path.getmtime(os.path.join(SRC, f)) for f in os.listdir(SRC) if f.endswith((".c", ".h")))
    ok = []
    for lib, cc, prefix in (("oshmem", "oshcc", "osu_oshm_"), ("mpi", "mpicc", "osu_mpi_")):
        if lib not in libs:
            continue
        if not shutil.which(cc):
            ctx.note("%s not found: the %s rows are left out" % (cc, PEER_NAME[lib]))
            continue
        names = sorted({b.peers[lib][0] for b in BENCHES if lib in b.peers and (progs is None or b.key in progs)})
        for name in names:
            exe = os.path.join(scratch, name)
            if os.path.exists(exe) and os.path.getmtime(exe) > newest:
                continue
            common.log("building peer %s with %s" % (name, cc))
            rc, out, err = common.run_cmd([cc, "-O2", "-o", exe, os.path.join(SRC, name + ".c"), util], timeout=300)
            if rc != 0:
                ctx.error("%s %s failed:\n%s" % (cc, name, (out + err)[-2000:]))
        ok.append(lib)
    return ok, scratch


def launcher(lib, np, extra_env=()):
    """The launcher of a library's run on this node; every library gets the same placement options."""
    xs = [x for k in extra_env for x in ("-x", k)]
    if lib in ("gshmem", "baseline"):  # baseline: another gshmem build (cpu --baseline)
        return common.mpirun(np, xs)
    if lib == "oshmem":
        return ["oshrun"] + common.mpirun(np)[1:] + ["--mca", "memory", "^patcher"]
    return common.mpirun(np, ["--mca", "pml", "ucx", "--mca", "osc", "ucx", "--mca", "pml_ucx_tls", "any",
                              "--mca", "pml_ucx_devices", "any"])


def run_alternating(ctx, plan, bindirs, timeout=None, env=None, extra_env=()):
    """Run `plan` ([(bench, np, libs, extra args)]) for ctx.reps repetitions; inside each repetition every entry
    runs once per library, the library order flipping every repetition. Every parsed value becomes a sample
    (benchmark key, library, np, row key, column name, rep, value). A library that failed twice on an entry is
    not retried there."""
    timeout = timeout or (120 if ctx.quick else 300)
    fails = {}
    total = ctx.reps * sum(len(libs) for _, _, libs, _ in plan)
    done = 0
    for rep in range(1, ctx.reps + 1):
        for b, np, libs, extra in plan:
            order = list(libs) if rep % 2 else list(reversed(libs))
            for lib in order:
                done += 1
                if fails.get((b.key, np, lib), 0) >= 2:
                    continue
                prog, args = (b.prog, b.args) if lib in ("gshmem", "baseline") else b.peers[lib]
                exe = os.path.join(bindirs[lib], prog)
                if not os.path.exists(exe):
                    ctx.error("%s: %s was not built" % (b.key, exe))
                    fails[(b.key, np, lib)] = 2
                    continue
                argv = list(args) + ["-p", "4"] + (b.quick_args if ctx.quick else []) + list(extra)
                cmd = launcher(lib, np, extra_env) + [exe] + argv
                name = "%s.np%d.%s.rep%d" % (b.key, np, lib, rep)
                rc, out, err = common.run_logged(ctx, name, cmd, timeout, env=env, prefix="[%d/%d]" % (done, total))
                cols, rows = parse(out)
                if rc != 0 or not rows:
                    fails[(b.key, np, lib)] = fails.get((b.key, np, lib), 0) + 1
                    ctx.error("%s %s np %d rep %d failed (rc %d): %s (log/%s.txt)" %
                              (b.key, lib, np, rep, rc, (err or out).strip()[-300:].replace("\n", " "), name))
                    continue
                for k, vals in rows:
                    for ci, v in enumerate(vals):
                        ctx.add(b.key, lib, np, k, cols[ci] if ci < len(cols) else "v%d" % ci, rep, v)
