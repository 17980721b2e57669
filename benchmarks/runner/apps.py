"""Suites `apps` (the CPU apps hsg, stencil and bfs, beside the MPI twins hsg and stencil carry in the same binary),
`apps-gpu` (the GPU apps: their checks, their benchmark rows beside the MPI twins, and the memory floors) and
`apps-floor` (one GPU, one PE: each GPU app's benchmark row against its memory floor and its target).

Libraries in the tables: gshmem (the default variant), gshmem-<variant> (the other variants), mpi (the twin,
--mpi), floor (the memory floor the GPU app computes from its own device-to-device copy probe B: the bytes per spin
hsg_gpu prints for its layout, 8 B per point for the fp32 stencil). A check row has the value 1 when it passed (for
the corruption switches: when the check failed, as it must) and 0 otherwise; a 0 is also an error.
"""
import os
import re

from . import common, gpuenv
from .common import medians

OR_PS, HB_PS = "OR time per spin (ps)", "HB time per spin (ps)"
ITER_MS, RUNTIME = "Time per iteration (ms)", "Runtime (s)"
TEPS = "TEPS (harmonic mean)"
CHECK = "check passed (1 = yes)"
HSG_RE = re.compile(r"^(\d+), (\d+), ([a-z-]+), (\d+), ([\d.eE+-]+), ([\d.eE+-]+),")


def _app(ctx, name):
    return os.path.join(ctx.build, "apps", name)


def parse_app(text):
    """[(metric, value)] of an app's output: hsg's result line, the stencil's -csv line, bfs's TEPS, and the
    copy probe B (GB/s) of the GPU versions as ('B', value)."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        m = HSG_RE.match(s)
        if m:
            out += [(OR_PS, float(m.group(5))), (HB_PS, float(m.group(6)))]
        f = [x.strip() for x in s.split(",")]
        if len(f) >= 9 and f[0] in ("jacobi", "jacobi_gpu"):
            out += [(RUNTIME, float(f[7])), (ITER_MS, float(f[7]) / int(f[3]) * 1e3),
                    ("_grid", (int(f[1]) - 2) * (int(f[2]) - 2))]
        w = s.split()
        if len(w) >= 3 and w[0] == "bfs" and w[1] == "harmonic_mean_TEPS:":
            out.append((TEPS, float(w[2])))
        m = re.search(r"copy probe B ([\d.]+)|copy B = ([\d.]+)", s)
        if m:
            out.append(("B", float(m.group(1) or m.group(2))))
        m = re.search(r"floor (\d+) B/spin", s)
        if m:
            out.append(("_spin_bytes", int(m.group(1))))
    return out


def _record(ctx, bench, lib, np, key, rep, values, gpu_floor=False):
    """The samples of one benchmark run; with gpu_floor also the floor rows derived from its copy probe."""
    vals = dict(values)
    for metric, v in values:
        if metric not in ("B", "_grid", "_spin_bytes"):
            ctx.add(bench, lib, np, key, metric, rep, v)
    b = vals.get("B")
    if gpu_floor and b:
        if OR_PS in vals and "_spin_bytes" in vals:
            for metric in (OR_PS, HB_PS):
                ctx.add(bench, "floor", np, key, metric, rep, vals["_spin_bytes"] / b * 1e3)
        if "_grid" in vals:
            bpp = 16 if "fp64" in bench else 8
            ctx.add(bench, "floor", np, key, ITER_MS, rep, bpp * vals["_grid"] / (b * 1e9) * 1e3)


def _bench(ctx, runs, np, gpus=None, timeout=300):
    """runs: [(bench, key, lib, argv, extra env)], alternating inside each repetition (the order flips every
    repetition); argv[0] is the program. With gpus, the GPU environment and launcher."""
    for rep in range(1, ctx.reps + 1):
        for bench, key, lib, argv, extra in (runs if rep % 2 else runs[::-1]):
            if not os.access(argv[0], os.X_OK):
                if rep == 1:
                    ctx.error("%s: %s was not built" % (bench, argv[0]))
                continue
            if gpus:
                env = gpus.env(extra)
                cmd = gpus.mpirun(env, np) + argv
            else:
                env = dict(os.environ, **extra)
                cmd = common.mpirun(np, [x for k in extra for x in ("-x", k)]) + argv
            tag = "%s.%s.%s.np%d.rep%d" % (bench, key, lib, np, rep)
            rc, out, err = common.run_logged(ctx, tag, cmd, timeout, env=env)
            vals = parse_app(out)
            if rc != 0 or not [m for m, _ in vals if m not in ("B", "_grid", "_spin_bytes")]:
                ctx.error("%s failed (rc %d), log/%s.txt" % (tag, rc, tag))
                continue
            _record(ctx, bench, lib, np, key, rep, vals, gpu_floor=gpus is not None)


def run_apps(ctx):
    common.cmake_targets(ctx, ["gshmem_app_hsg", "gshmem_app_stencil", "gshmem_app_bfs"])
    q = ctx.quick
    L, sweeps = ("32", "4") if q else ("64", "10")
    n, it = ("1024", "200") if q else ("4096", "200")
    scale = "14" if q else "20"
    hsg = [_app(ctx, "hsg"), "-L", L, "-s", sweeps]
    st = [_app(ctx, "stencil"), "-nx", n, "-ny", n, "-niter", it, "-csv"]
    runs = [("hsg", "L" + L, "gshmem", hsg, {}), ("hsg", "L" + L, "mpi", hsg + ["--mpi"], {}),
            ("stencil", "%sx%s" % (n, n), "gshmem", st, {}), ("stencil", "%sx%s" % (n, n), "mpi", st + ["--mpi"], {}),
            ("bfs", "scale" + scale, "gshmem", [_app(ctx, "bfs"), "--scale", scale],
             {"GSHMEM_SYMMETRIC_SIZE": "256M" if q else "1G"})]
    ctx.note("bfs has no MPI twin on the CPU: its row is gshmem's alone")
    _bench(ctx, runs, 2)
    return common.finish(ctx, ["gshmem", "mpi"])


def _checks(np, full):
    """(name, argv after the program's path, must fail) of the GPU apps' checks at np PEs."""
    hsg, st, bfs = "hsg_gpu", "stencil_gpu", "bfs_gpu"
    c = [("hsg_check", hsg, ["--check", "--size", "32", "--sweeps", "10"], False),
         ("hsg_check_mpi", hsg, ["--check", "--mpi", "--size", "32", "--sweeps", "10"], False),
         ("hsg_energy", hsg, ["--check-energy", "--size", "64", "--sweeps", "100"], False),
         ("hsg_high_t", hsg, ["--check-high-t", "--size", "32", "--sweeps", "200", "--beta", "0.05"], False),
         ("bfs_check", bfs, ["--check", "--scale", "11", "--roots", "8"], False),
         ("bfs_check_mpi", bfs, ["--check", "--mpi", "--scale", "11", "--roots", "8"], False)]
    if np < 4:
        c += [("hsg_check_" + v, hsg, ["--check", "--variant", v, "--size", "32", "--sweeps", "10"], False)
              for v in ("auto", "stream", "staged-tx", "staged")]
    c += [("stencil_check_" + v, st, ["--check", "--variant", v, "--nx", "256", "--ny", "256", "--niter", "50"], False)
          for v in ("device", "stream", "mpi") if not (np == 4 and v == "stream")]
    if np < 4:
        c += [("stencil_check_staged", st, ["--check", "--mpi", "--staged", "--nx", "256", "--ny", "256", "--niter", "50"], False),
              ("stencil_check_uneven", st, ["--check", "--nx", "300", "--ny", "259", "--niter", "40", "--nccheck", "7"], False),
              ("stencil_check_fp64", st, ["--check", "--fp64", "--nx", "256", "--ny", "130", "--niter", "30"], False)]
    if np == 1:
        c.append(("hsg_check_cpu", hsg, ["--check-cpu", "--size", "32", "--sweeps", "10"], False))
    if np == 2:
        c += [("hsg_corrupt_ghost", hsg, ["--check-energy", "--corrupt-ghost", "--size", "32", "--sweeps", "20"], True),
              ("stencil_corrupt_halo", st, ["--check", "--corrupt-halo", "--nx", "256", "--ny", "256", "--niter", "20"], True)]
        if full:
            c.append(("bfs_check16", bfs, ["--check", "--scale", "16", "--roots", "8"], False))
    return c


def _run_checks(ctx, g, np):
    for name, prog, args, must_fail in _checks(np, not ctx.quick):
        if not os.access(_app(ctx, prog), os.X_OK):
            ctx.error("%s: %s was not built" % (name, _app(ctx, prog)))
            continue
        env = g.env()
        cmd = g.mpirun(env, np) + [_app(ctx, prog)] + args
        tag = "%s.np%d" % (name, np)
        rc, out, err = common.run_logged(ctx, tag, cmd, 180, env=env)
        ok = (rc != 0 and "check: FAILED" in out) if must_fail else (rc == 0 and "check: OK" in out)
        ctx.add("checks", "gshmem", np, name, CHECK, 1, 1.0 if ok else 0.0)
        if not ok:
            said = [l.strip() for l in (out + err).splitlines() if "check" in l or "rror" in l][-2:]
            ctx.error("%s: the check %s (rc %d), log/%s.txt: %s" % (tag, "did not fail" if must_fail else "failed", rc,
                                                                   tag, " / ".join(said) or "no check line"))


def _gpu_bench_runs(ctx, np):
    """The benchmark rows at np PEs: hsg's variants and twin, the stencil's, bfs and its twin."""
    q = ctx.quick
    runs = []
    for L in (("64",) if q else ("64", "128", "256")):
        argv = [_app(ctx, "hsg_gpu"), "--bench", "--size", L, "--sweeps", "10" if q else "20"]
        heap = {"GSHMEM_SYMMETRIC_SIZE_DEVICE": "4G"}
        runs += [("hsg_gpu", "L" + L, "gshmem", argv + ["--variant", "direct"], heap)]
        runs += [("hsg_gpu", "L" + L, "gshmem-" + v, argv + ["--variant", v], heap)
                 for v in (("auto",) if q else ("auto", "staged-tx", "staged"))]
        runs += [("hsg_gpu", "L" + L, "mpi", argv + ["--mpi"], heap)]
    n, it = ("4096", "200") if q else ("16384", "500")
    st = [_app(ctx, "stencil_gpu"), "--bench", "--nx", n, "--ny", n, "--niter", it, "--nccheck", "100", "-csv"]
    heap = {"GSHMEM_SYMMETRIC_SIZE_DEVICE": "3G"}
    runs += [("stencil_gpu", "%sx%s" % (n, n), lib, st + ["--variant", v], heap)
             for lib, v in (("gshmem", "device"), ("gshmem-stream", "stream"), ("mpi", "mpi"))]
    scale = "16" if q else "20"
    bfs = [_app(ctx, "bfs_gpu"), "--scale", scale, "--roots", "16" if q else "64"]
    heap = {"GSHMEM_SYMMETRIC_SIZE": "1G" if q else "2G"}
    runs += [("bfs_gpu", "scale" + scale, "gshmem", bfs, heap), ("bfs_gpu", "scale" + scale, "mpi", bfs + ["--mpi"], heap)]
    return runs


def run_apps_gpu(ctx):
    """One PE alone on a GPU, then 2 PEs (and 4 in full runs), under MPS where they share a GPU."""
    common.cmake_targets(ctx, ["gshmem_app_hsg_gpu", "gshmem_app_stencil_gpu", "gshmem_app_bfs_gpu"])
    nps = (1, 2) if ctx.quick else (1, 2, 4)
    g = gpuenv.detect(np=max(nps), build=ctx.build)
    ctx.note(g.describe())
    g1 = gpuenv.Gpus(g.names, 1)
    g1.build = ctx.build
    _run_checks(ctx, g1, 1)
    _bench(ctx, _gpu_bench_runs(ctx, 1), 1, g1)
    with gpuenv.Mps(ctx, g):
        for np in nps[1:]:
            _run_checks(ctx, g, np)
            if np == 2:
                _bench(ctx, _gpu_bench_runs(ctx, 2), 2, g)
    return common.finish(ctx, ["gshmem", "mpi", "floor"])


# The rows of apps-floor: (bench, key, argv after the program, heap), and per (bench, key, metric) the target as
# gshmem / floor (at most, for times).
_FLOOR_TARGETS = {("hsg_gpu", "L256", OR_PS): 1.15, ("hsg_gpu", "L256", HB_PS): 1.15,
                  ("hsg_gpu", "L512", OR_PS): 1.15, ("hsg_gpu", "L512", HB_PS): 1.15,
                  ("stencil_gpu", "16384x16384.norm100", ITER_MS): 1 / 0.90,
                  ("stencil_gpu", "16384x16384.norm1", ITER_MS): 1 / 0.85}


def _floor_runs(ctx):
    q = ctx.quick
    runs = []
    for L, sweeps in (("256", "10" if q else "20"), ("512", "4" if q else "10")):
        runs.append(("hsg_gpu", "L" + L, "gshmem", [_app(ctx, "hsg_gpu"), "--bench", "--size", L, "--sweeps", sweeps],
                     {"GSHMEM_SYMMETRIC_SIZE_DEVICE": "4G"}))
    for every, it in (("100", "500"), ("1", "200")):
        runs.append(("stencil_gpu", "16384x16384.norm" + every, "gshmem",
                     [_app(ctx, "stencil_gpu"), "--bench", "--nx", "16384", "--ny", "16384", "--niter", it,
                      "--nccheck", every, "-csv"], {"GSHMEM_SYMMETRIC_SIZE_DEVICE": "3G"}))
    runs.append(("bfs_gpu", "scale22", "gshmem", [_app(ctx, "bfs_gpu"), "--scale", "22", "--roots", "16"],
                 {"GSHMEM_SYMMETRIC_SIZE": "4G"}))
    return runs


def _print_floor_table(ctx):
    """The suite's summary: every row's median, its floor, the ratio and whether it meets the target."""
    med = medians(ctx)
    print("\n| row | gshmem | floor | gshmem / floor | target | met |\n|---|---:|---:|---:|---:|---|")
    for (b, lib, pes, k, m), v in sorted(med.items()):
        if lib != "gshmem":
            continue
        fl = med.get((b, "floor", pes, k, m))
        tgt = _FLOOR_TARGETS.get((b, k, m))
        r = v / fl if fl else None
        print("| %s %s, %s | %s | %s | %s | %s | %s |" % (
            b, k, m, common.fmt(v), common.fmt(fl), "%.3f" % r if r else "-", "<= %.3f" % tgt if tgt else "-",
            "-" if not (tgt and r) else ("yes" if r <= tgt else "NO")))


def run_apps_floor(ctx):
    """One PE on one GPU: hsg_gpu at L = 256 and 512, the stencil at 16384^2 (norm every 100 iterations and every
    iteration) against the copy bandwidth measured in the same run, and bfs_gpu at scale 22."""
    common.cmake_targets(ctx, ["gshmem_app_hsg_gpu", "gshmem_app_stencil_gpu", "gshmem_app_bfs_gpu"])
    g = gpuenv.detect(np=1, build=ctx.build)
    ctx.note(g.describe())
    g1 = gpuenv.Gpus(g.names, 1)
    g1.build = ctx.build
    _bench(ctx, _floor_runs(ctx), 1, g1, timeout=600)
    rc = common.finish(ctx, ["gshmem", "floor"])
    _print_floor_table(ctx)
    return rc
