"""Suites `gpu` (gshmem's GPU benchmarks on this machine's GPUs) and `gpu-peers` (the same beside NVSHMEM and
NCCL where they are installed).

2 PEs: one per GPU where there are two or more GPUs, else both on GPU 0 under MPS (started for the suite and
stopped before it exits, also on error or a signal). NVLink multicast stays off in every library
(NCCL_NVLS_ENABLE=0, NVSHMEM_DISABLE_NVLS=1).
"""
import os
import re
import shutil

from . import common, gpuenv, osu

RESULT_RE = re.compile(r"^RESULT\s+(\S+)\s+([-\d.eE+]+)\s+(\S+)")
HALO_SIZES_QUICK = [(1024, 1024, 1000)]
HALO_SIZES = [(1024, 1024, 5000), (4096, 4096, 2000), (8192, 8192, 1000)]


def precheck(ctx):
    gpuenv.detect()


def _metric(unit):
    return {"us": "Latency (us)", "ms": "Time (ms)"}.get(unit, "Bandwidth (%s)" % unit)


def parse_result(text):
    """RESULT <name> <value> <unit> lines -> [(key, metric, value)]; the key drops the library/mode prefix, so
    gshmem_gpu_bench's and nvshmem_bench's lines pair up."""
    out = []
    for line in text.splitlines():
        m = RESULT_RE.match(line.strip())
        if m:
            name = m.group(1)
            k = re.search(r"(device_|host_|pingpong_|put_bw_).*", name)
            out.append((k.group(0) if k else name, _metric(m.group(3)), float(m.group(2))))
    return out


def parse_coll(text):
    """COLL <lib> <collective> <bytes> <us> <bus GB/s> [WRONG] -> [(bench, key, metric, value)]."""
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0] == "COLL":
            out.append(("coll_" + f[2], f[3], "Latency (us)", float(f[4])))
            out.append(("coll_" + f[2], f[3], "Bus bandwidth (GB/s)", float(f[5])))
    return out


def parse_halo(text):
    """HALO <lib> <np> <nx> <ny> <iters> <ms per iteration> <norm> -> [(bench, key, metric, value)]."""
    return [("halo", "%sx%s" % (f[3], f[4]), "Time per iteration (ms)", float(f[6]))
            for f in (l.split() for l in text.splitlines()) if len(f) == 8 and f[0] == "HALO"]


def _record(ctx, g, lib, rep, name, rc, out, rows):
    """Samples of one run; a failed run or a WRONG line is an error."""
    if rc != 0 or not rows or "WRONG" in out:
        ctx.error("%s failed (rc %d%s), log/%s.txt" % (name, rc, ", WRONG results" if "WRONG" in out else "", name))
    for bench, key, metric, value in rows:
        ctx.add(bench, lib, g.np, key, metric, rep, value)


def _gbin(ctx, name):
    return os.path.join(ctx.build, "benchmarks", "gpu", name)


def gshmem_jobs(ctx, g):
    """[(name, lib, argv, env, parser)] of gshmem's GPU programs, one repetition's worth; env: the variables
    the run sets beside Gpus.env's (made when it starts), parser: stdout -> [(bench, key, metric, value)]."""
    quick = ctx.quick
    env = {}
    jobs = []
    osu_dir = osu.gshmem_bindir(ctx)
    for t in ("put_lat", "get_lat", "put_bw"):
        args = ["-d", "cuda", "-m", "8:4M"] + (["-i", "200", "-x", "20"] if quick else [])
        jobs.append(("osu_%s_cuda" % t, "gshmem", [os.path.join(osu_dir, "osu_oshm_" + t)] + args, env,
                     lambda o, t=t: [("osu_%s_cuda" % t, k, m, v) for k, m, v in _osu_rows(o)]))
    if g.ngpus >= 2:
        jobs.append(("gpu_bench", "gshmem", [_gbin(ctx, "gshmem_gpu_bench")] + (["--quick"] if quick else []),
                     {"GSHMEM_P2P": "1"}, lambda o: [("gpu_bench", k, m, v) for k, m, v in parse_result(o)]))
        jobs.append(("gpu_bench_proxy", "gshmem", [_gbin(ctx, "gshmem_gpu_bench"), "--quick"],
                     {"GSHMEM_P2P": "0"}, lambda o: [("gpu_bench_proxy", k, m, v) for k, m, v in parse_result(o)]))
    jobs.append(("signal_pingpong", "gshmem", [_gbin(ctx, "gshmem_signal_pingpong")], env,
                 lambda o: [("signal_pingpong", k, m, v) for k, m, v in parse_result(o)]))
    jobs.append(("coll", "gshmem", [_gbin(ctx, "gshmem_coll_bench")] + coll_args(quick, g), env, parse_coll))
    for nx, ny, it in (HALO_SIZES_QUICK if quick else HALO_SIZES):
        jobs.append(("halo_%dx%d" % (nx, ny), "gshmem", [_gbin(ctx, "gshmem_halo")] + halo_args(nx, ny, it),
                     env, parse_halo))
    return jobs


def coll_args(quick, g):
    """coll_bench's sizes: to 1 MiB in --quick runs; else the stream collectives to 256 MiB with one PE per GPU
    (64 MiB where PEs share a GPU), the device ones to 64 MiB."""
    if quick:
        return ["--max", "1048576", "--dev-max", "1048576"]
    return ["--max", str((64 if g.shared else 256) << 20), "--dev-max", str(64 << 20)]


def halo_args(nx, ny, iters):
    return ["--nx", str(nx), "--ny", str(ny), "--iters", str(iters)]


def _osu_rows(text):
    cols, rows = osu.parse(text)
    return [(k, cols[i] if i < len(cols) else "v%d" % i, v) for k, vals in rows for i, v in enumerate(vals)]


def run_dsweep(ctx, g):
    """The device-initiated put sweep (full runs only): SM stores, copy engine and automatic choice with P2P,
    the staged pipeline without; libraries named gshmem-<mode>."""
    for p2p, mode in (("1", "all"), ("0", "staged")):
        name = "dsweep_%s" % mode
        e = g.env({"GSHMEM_P2P": p2p})
        rc, out, err = common.run_logged(ctx, name, g.mpirun(e) + [_gbin(ctx, "gshmem_dsweep"), mode], 400, env=e)
        n = 0
        for line in out.splitlines():
            f = line.strip().split(",")
            if len(f) == 6 and f[0] in ("store", "ce", "auto", "staged"):
                ctx.add("dsweep_" + f[1], "gshmem-" + f[0], g.np, f[2], "Latency (us)", 1, float(f[3]))
                n += 1
        if rc != 0 or not n:
            ctx.error("%s failed (rc %d), log/%s.txt" % (name, rc, name))


def run_jobs(ctx, g, groups):
    """groups: [[job, ...]] whose jobs alternate inside each repetition (the order flips every repetition)."""
    for rep in range(1, ctx.reps + 1):
        for jobs in groups:
            for name, lib, cmd, env, parser in (jobs if rep % 2 else jobs[::-1]):
                tag = "%s.%s.rep%d" % (name, lib, rep)
                if not os.access(cmd[0], os.X_OK):
                    if rep == 1:
                        ctx.error("%s: %s was not built" % (tag, cmd[0]))
                    continue
                e = g.env(env)
                rc, out, err = common.run_logged(ctx, tag, g.mpirun(e) + cmd, 300 if ctx.quick else 600, env=e)
                _record(ctx, g, lib, rep, tag, rc, out + err, parser(out))


def _build(ctx):
    common.cmake_targets(ctx, ["osu_oshm_put_lat", "osu_oshm_get_lat", "osu_oshm_put_bw", "gshmem_gpu_bench",
                               "gshmem_signal_pingpong", "gshmem_coll_bench", "gshmem_halo", "gshmem_dsweep"])


def run_gpu(ctx):
    g = gpuenv.detect(build=ctx.build)
    _build(ctx)
    ctx.note(g.describe())
    with gpuenv.Mps(ctx, g):
        run_jobs(ctx, g, [[j] for j in gshmem_jobs(ctx, g)])
        if not ctx.quick:
            run_dsweep(ctx, g)
    return common.finish(ctx, ["gshmem"])


def run_gpu_peers(ctx):
    from . import gpupeers
    g = gpuenv.detect(build=ctx.build)
    _build(ctx)
    ctx.note(g.describe())
    peers = gpupeers.find(ctx, g)
    groups = gpupeers.pair(ctx, g, gshmem_jobs(ctx, g), peers)
    with gpuenv.Mps(ctx, g):
        run_jobs(ctx, g, groups)
    platform = "gpu-%d" % min(g.ngpus, g.np)
    common.write_headline(ctx, platform, gpupeers.heads(g), "GPU: gshmem vs NVSHMEM and NCCL (%s)" % g.title())
    return common.finish(ctx, ["gshmem", "nvshmem", "nccl"])


def have_nvcc():
    return shutil.which("nvcc") is not None
