"""The GPU peers of `gpu-peers`: NVSHMEM and NCCL found on this machine, their programs (given with --peers DIR or
built here with nvcc from the same sources as gshmem's: benchmarks/gpu/peers/nvshmem_bench.cu, peers/halo.cu,
coll_bench.cu with -DCOLL_NVSHMEM or -DCOLL_NCCL), their jobs beside gshmem's and the headline rows.

Where a library is looked for: $NVSHMEM_HOME / $NCCL_HOME (include/ and lib/), else the Python wheels
nvidia.nvshmem / nvidia.nccl. A library not found, or whose programs cannot be built, is named on one line and
its rows are left out; gshmem's rows run all the same.
"""
import os
import subprocess
import sys

from . import common, gpu

PROGRAMS = {  # program name -> (library, source, extra nvcc flags)
    "nvshmem_bench": ("nvshmem", "benchmarks/gpu/peers/nvshmem_bench.cu", []),
    "nvshmem_halo": ("nvshmem", "benchmarks/gpu/peers/halo.cu", []),
    "nvshmem_coll_bench": ("nvshmem", "benchmarks/gpu/coll_bench.cu", ["-DCOLL_NVSHMEM"]),
    "nccl_coll_bench": ("nccl", "benchmarks/gpu/coll_bench.cu", ["-DCOLL_NCCL"]),
}
NAMES = {"nvshmem": "NVSHMEM", "nccl": "NCCL"}
HALO_HEAD = [(1024, 1024, 0), (4096, 4096, 0)]


def _wheel(module):
    code = ("import os, %s as m; f = getattr(m, '__file__', None); "
            "print(os.path.dirname(f) if f else list(m.__path__)[0])" % module)
    try:
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=60)
        return p.stdout.strip() if p.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def locate(lib):
    """The installation folder of `lib` (holding include/ and lib/), or ''."""
    home = os.environ.get(lib.upper() + "_HOME", "")
    for d in (home, _wheel("nvidia." + lib)):
        if d and os.path.isdir(os.path.join(d, "include")) and os.path.isdir(os.path.join(d, "lib")):
            return d
    return ""


def _link(lib, home):
    """nvcc link arguments of an installation (a wheel ships versioned names only)."""
    d = os.path.join(home, "lib")
    if lib == "nccl":
        return ["-L" + d, "-lnccl" if os.path.exists(os.path.join(d, "libnccl.so")) else "-l:libnccl.so.2"]
    host = "-lnvshmem_host" if os.path.exists(os.path.join(d, "libnvshmem_host.so")) else "-l:libnvshmem_host.so.3"
    return ["-L" + d, host, os.path.join(d, "libnvshmem_device.a"), "-lcuda"]


def _mpi_flags(which):
    return common.capture(["mpicc", "--showme:" + which]).split()


def _build(ctx, g, name, home):
    lib, src, flags = PROGRAMS[name]
    exe = os.path.join(ctx.out, "peer-build", name)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    srcp = os.path.join(common.REPO, src)
    if os.path.exists(exe) and os.path.getmtime(exe) > os.path.getmtime(srcp):
        return exe
    rdc = ["-rdc=true"] if lib == "nvshmem" else []
    cmd = (["nvcc"] + rdc + ["-O2", "-arch=" + g.arch(), "-std=c++17"] + flags + ["-I" + os.path.join(home, "include")]
           + _mpi_flags("compile") + [srcp, "-o", exe] + _link(lib, home) + _mpi_flags("link"))
    common.log("building peer %s" % name)
    rc, out, err = common.run_logged(ctx, "build_" + name, cmd, 900)
    if rc != 0:
        ctx.note("%s: build failed (log/build_%s.txt): its rows are left out" % (name, name))
        return ""
    return exe


def find(ctx, g):
    """{program name: (path, library folder)} of the peer programs this machine has."""
    homes = {lib: locate(lib) for lib in NAMES}
    for lib, home in homes.items():
        ctx.note("%s: %s" % (NAMES[lib], home or "not found ($%s_HOME or the nvidia.%s wheel): gshmem's rows only"
                             % (lib.upper(), lib)))
    found = {}
    if homes["nccl"] and g.shared:
        ctx.note("NCCL: one rank per GPU only; with %d PEs on one GPU its rows are left out" % g.np)
        homes["nccl"] = ""
    for name, (lib, _, _) in PROGRAMS.items():
        if not homes[lib] or (name == "nvshmem_bench" and g.ngpus < 2):  # nvshmem_bench: one PE per GPU
            continue
        given = os.path.join(ctx.args.peers, name) if ctx.args.peers else ""
        if given and os.access(given, os.X_OK):
            found[name] = (given, homes[lib])
        elif not gpu.have_nvcc():
            ctx.note("%s: nvcc not found and not in --peers: its rows are left out" % name)
        else:
            exe = _build(ctx, g, name, homes[lib])
            if exe:
                found[name] = (exe, homes[lib])
    return found


def _nv_env(home):
    return {"LD_PREPEND": os.path.join(home, "lib"), "NVSHMEM_REMOTE_TRANSPORT": "none",
            "NVSHMEM_SYMMETRIC_SIZE": "2G", "NVSHMEM_DISABLE_NCCL": "1",
            # NVSHMEM's device reducescatter past 64 KiB needs more scratch than its default (a device assert)
            "NVSHMEM_REDUCE_SCRATCH_SIZE": "536870912"}


def pair(ctx, g, gjobs, found):
    """Groups of jobs that alternate: each gshmem job with the peer jobs measuring the same thing."""
    groups = []
    for job in gjobs:
        name = job[0]
        group = [job]
        if name == "gpu_bench" and "nvshmem_bench" in found:
            exe, home = found["nvshmem_bench"]
            group.append(("gpu_bench", "nvshmem", [exe], _nv_env(home),
                          lambda o: [("gpu_bench", k, m, v) for k, m, v in gpu.parse_result(o)]))
        if name == "coll":
            for prog, lib in (("nvshmem_coll_bench", "nvshmem"), ("nccl_coll_bench", "nccl")):
                if prog in found:
                    exe, home = found[prog]
                    env = _nv_env(home) if lib == "nvshmem" else {"LD_PREPEND": os.path.join(home, "lib")}
                    group.append(("coll", lib, [exe] + gpu.coll_args(ctx.quick, g), env, gpu.parse_coll))
        if name.startswith("halo_") and "nvshmem_halo" in found:
            exe, home = found["nvshmem_halo"]
            nx, ny = name[5:].split("x")
            it = dict(((a, b), c) for a, b, c in (gpu.HALO_SIZES_QUICK if ctx.quick else gpu.HALO_SIZES))
            group.append((name, "nvshmem", [exe] + gpu.halo_args(nx, ny, it[(int(nx), int(ny))]) + ["--init", "uid"],
                          _nv_env(home), gpu.parse_halo))
        groups.append(group)
    return groups


def heads(g):
    """The gpu-<N> headline. Two GPUs: gshmem_gpu_bench beside nvshmem_bench, the stream collectives beside NCCL,
    the device collectives beside NVSHMEM. One GPU (PEs sharing it): the halo exchange and the collectives beside
    NVSHMEM. coll_bench's sizes are 8 B per PE times powers of 8 (at 2 PEs: 16 B, 128 B, 1 KiB ... 32 MiB, 256 MiB)."""
    h = common.Head
    lat, bw = "Latency (us)", "Bandwidth (GB/s)"
    nv, nc = ("nvshmem", "NVSHMEM"), ("nccl", "NCCL")
    small, n = 8 * g.np, g.np
    size = lambda b: "%d B" % b if b < 1024 else "%d KiB" % (b >> 10) if b < 1 << 20 else "%d MiB" % (b >> 20)
    coll = lambda form, name, b, peer: h("%s %s %s" % (form, name, size(b)) if name != "barrier" else "device barrier",
                                         "coll_" + ("dev_" if form == "device" else "") + name, n, b, lat, *peer)
    if g.ngpus >= 2:
        rows = [h(op, "gpu_bench", n, k, m, *nv) for op, k, m in (
            ("device put-with-signal 8 B one way", "device_put_signal_pingpong_8B_one_way", lat),
            ("device block put 256 MiB", "device_block_put_256MiB", bw),
            ("putmem_on_stream 8 B", "host_putmem_on_stream_8B", lat),
            ("putmem_on_stream 256 MiB", "host_putmem_on_stream_256MiB", bw),
            ("device fetch-add at the benchmark word", "device_fetch_add_u64_round_trip", lat))]
        big = 256 << 20
        rows += [coll("stream", c, b, nc) for c, b in (("all_reduce", small), ("all_reduce", big),
                                                       ("reduce_scatter", big), ("all_gather", big),
                                                       ("broadcast", small), ("broadcast", 32 << 20),
                                                       ("all_to_all", big))]
        rows += [coll("device", c, b, nv) for c, b in (("broadcast", small), ("broadcast", 1024),
                                                       ("all_gather", 128), ("all_reduce", 32 << 20), ("barrier", 0))]
        return rows
    rows = [h("halo exchange %d² per iteration" % nx, "halo", n, "%dx%d" % (nx, ny), "Time per iteration (ms)", *nv)
            for nx, ny, _ in HALO_HEAD]
    rows += [coll(form, c, b, nv) for form, c, b in (
        ("stream", "all_reduce", small), ("stream", "all_gather", small), ("stream", "broadcast", small),
        ("device", "all_gather", small), ("device", "broadcast", small), ("device", "all_to_all", small),
        ("stream", "all_reduce", 32 << 20), ("device", "all_gather", 32 << 20), ("device", "broadcast", 32 << 20))]
    return rows
