"""Suite `two-hosts`: gshmem beside Open MPI's OpenSHMEM across two hosts made on this machine (two network
namespaces joined by a veth pair, UCX over TCP; tests/multihost/run_multihost.sh makes them and needs root).

The outer part (run_two_hosts) builds the programs, then for each part starts run_multihost.sh --keep-up with this
file as the command inside host h0 (`hosts.py --inner SPEC`). The inner part runs the osu-like programs across the
two hosts, gshmem and the peer alternating (the order flips every repetition), and the plain-TCP floor
(gshmem_tcpfloor) of the same hosts once per repetition, and writes its samples as JSON for the outer part.
Parts: 2 PEs (one per host: point-to-point rows and collectives), and in full runs 4 PEs (2 per host: the
collectives from 8 B to 1 MiB) and the host-memory put sweep gshmem_hsweep at 2 PEs.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

if __package__:
    from . import common, osu

LAT = "Latency (us)"
BW = "Bandwidth (MB/s)"
MULTIHOST = "tests/multihost/run_multihost.sh"
HSWEEP_MAX = 256 << 20


def _rows(np, quick):
    """(bench, program, args) of one part: the point-to-point rows at 2 PEs, the collectives at every part."""
    it = ["-i", "500", "-x", "50"] if quick else ["-i", "3000", "-x", "300"]
    coll = ["-m", "8:8", "-i", "200", "-x", "20"] if quick else ["-m", "8:1048576", "-i", "100", "-x", "10"]
    rows = []
    if np == 2:
        rows += [("put_lat", "osu_oshm_put_lat", ["-m", "8:8"] + it),
                 ("get_lat", "osu_oshm_get_lat", ["-m", "8:8"] + it),
                 ("atomics", "osu_oshm_atomics", ["-i", "500" if quick else "2000", "-x", "50"]),
                 ("put_bw", "osu_oshm_put_bw", ["-m", "4M:4M", "-i", "5" if quick else "10", "-x", "3"]),
                 ("put_signal_lat", "osu_oshm_put_signal_lat", ["-m", "8:8"] + it)]
    rows.append(("barrier", "osu_oshm_barrier", it))
    rows += [(k, "osu_oshm_" + k, coll) for k in ("broadcast", "reduce", "fcollect", "alltoall")]
    return rows


def precheck(ctx):
    if os.geteuid() != 0:
        raise common.Skip("needs root to make network namespaces (running as uid %d)" % os.geteuid())
    if not shutil.which("ip"):
        raise common.Skip("the 'ip' command (iproute2) is not installed")


def _heads():
    h = common.Head
    s = ("oshmem", "Open MPI OpenSHMEM")
    rows = [("put 8 B + quiet", "put_lat", 8, LAT), ("put-with-signal 8 B one way", "put_signal_lat", 8, LAT),
            ("put bandwidth 4 MiB", "put_bw", 4194304, BW), ("get 8 B", "get_lat", 8, LAT),
            ("64-bit fetch-add", "atomics", "long_fetch_add", LAT), ("barrier_all", "barrier", 2, LAT),
            ("broadcast 8 B", "broadcast", 8, LAT), ("sum-reduce 8 B", "reduce", 8, LAT),
            ("fcollect 8 B", "fcollect", 8, LAT), ("alltoall 8 B", "alltoall", 8, LAT)]
    return [h(op, b, 2, k, m, s[0], s[1]) for op, b, k, m in rows]


def _part(ctx, np, spec):
    """One run_multihost.sh session of `np` PEs; its samples go into ctx. Raises Skip when it skipped."""
    path = os.path.join(ctx.out, "two-hosts-np%d.json" % np)
    spec = dict(spec, np=np, rows=_rows(np, ctx.quick), result=path, logs=ctx.logs,
                floor=spec["floor"] if np == 2 else "", hsweep=spec["hsweep"] if np == 2 else "")
    with open(path + ".spec", "w") as f:
        json.dump(spec, f)
    inner = "%s %s --inner %s" % (shlex.quote(sys.executable), shlex.quote(os.path.abspath(__file__)),
                                  shlex.quote(path + ".spec"))
    common.log("two hosts, %d PEs (%d repetitions)" % (np, ctx.reps))
    # the inner part's progress lines (stderr) go to the terminal as they come
    try:
        p = subprocess.run([os.path.join(common.REPO, MULTIHOST), "--np", str(np), "--keep-up", inner],
                           stdout=subprocess.PIPE, text=True, errors="replace")
        rc, out, err = p.returncode, p.stdout, ""
    except OSError as e:
        rc, out, err = 127, "", str(e)
    with open(os.path.join(ctx.logs, "two-hosts-np%d.txt" % np), "w") as f:
        f.write(out + ("\n--- error\n" + err if err else ""))
    if rc == common.SKIP:
        raise common.Skip((out + err).strip().splitlines()[-1].replace("SKIP: multi-host test not run: ", ""))
    if not os.path.exists(path):
        ctx.error("two hosts, %d PEs: no results (rc %d): %s" % (np, rc, (err or out).strip()[-400:]))
        return
    with open(path) as f:
        res = json.load(f)
    for s in res["samples"]:
        ctx.add(*s)
    for e in res["errors"]:
        ctx.error(e)


def run_two_hosts(ctx):
    gbin = osu.build_gshmem(ctx)
    common.cmake_targets(ctx, ["gshmem_tcpfloor"])
    if not ctx.quick:
        common.cmake_targets(ctx, ["gshmem_hsweep"], optional=True)  # built only with UCX
    progs = {r[0] for r in _rows(2, False)}
    peers, pbin = osu.build_peers(ctx, ("oshmem",), progs)
    floor = os.path.join(ctx.build, "benchmarks", "multihost", "gshmem_tcpfloor")
    hsweep = os.path.join(ctx.build, "benchmarks", "multihost", "gshmem_hsweep")
    spec = {"bindirs": {"gshmem": gbin}, "reps": ctx.reps, "quick": ctx.quick,
            "floor": floor if os.path.exists(floor) else "",
            "hsweep": hsweep if os.path.exists(hsweep) and not ctx.quick else ""}
    if "oshmem" in peers:
        spec["bindirs"]["oshmem"] = pbin
    ucx = common.capture(["ucx_info", "-v"]).splitlines()
    ctx.note("two hosts on this machine: network namespaces joined by a veth pair, UCX over TCP (%s)" %
             (ucx[0].lstrip("# ") if ucx else "UCX version unknown"))
    for np in ((2,) if ctx.quick else (2, 4)):
        _part(ctx, np, spec)
    common.write_headline(ctx, "two-hosts", _heads(),
                          "Two hosts over UCX/TCP: gshmem vs Open MPI OpenSHMEM (2 PEs, one per host)")
    return common.finish(ctx, ["gshmem", "oshmem", "tcp"])


# ---------------------------------------------------------------- inside host h0

def _parse(text):
    """OSU-format rows -> [(key, column, value)] (columns from the last '# Size'-like header)."""
    cols, rows = [], []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            parts = [c.strip() for c in s[1:].split("  ") if c.strip()]
            if parts and parts[0] in ("Size", "Operation", "PEs"):
                cols = parts[1:]
            continue
        f = s.split()
        try:
            vals = [float(x) for x in f[1:]]
        except ValueError:
            continue
        rows += [(f[0], cols[i] if i < len(cols) else "v%d" % i, v) for i, v in enumerate(vals)]
    return rows


def _inner_run(spec, lib, prog, args, name):
    base = shlex.split(os.environ["MH_MPIRUN_ARGS"])
    exe = os.path.join(spec["bindirs"][lib], prog)
    if lib == "gshmem":
        cmd = ["mpirun"] + base + ["-np", str(spec["np"]), exe] + args
    else:
        skip = ["--skip", "int_compare_swap"] if prog == "osu_oshm_atomics" else []
        cmd = ["oshrun"] + base + ["--mca", "memory", "^patcher", "-np", str(spec["np"]), exe] + args + skip
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=180 if spec["quick"] else 600)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc, out = 124, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    with open(os.path.join(spec["logs"], name + ".txt"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out)
    sys.stderr.write("  %-40s %s\n" % (name, "ok" if rc == 0 else "FAILED rc=%d" % rc))
    return rc, out


def _hsweep(spec, errors):
    """gshmem_hsweep (full runs, 2 PEs): put + quiet from 8 B to HSWEEP_MAX with each UCX put path forced and
    the automatic choice, interleaved in one process; libraries gshmem-direct, gshmem-batch, gshmem-auto."""
    exe, mx = spec["hsweep"], HSWEEP_MAX
    env = dict(os.environ, GSHMEM_SYMMETRIC_SIZE="%dM" % (mx // 1048576 * 2 + 64))
    cmd = ["mpirun"] + shlex.split(os.environ["MH_MPIRUN_ARGS"]) + ["-x", "GSHMEM_SYMMETRIC_SIZE", "-np", "2", exe,
                                                                    str(mx)]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                           env=env, timeout=1200)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        rc, out = 124, ""
    with open(os.path.join(spec["logs"], "two-hosts.hsweep.txt"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out)
    rows = []
    for line in out.splitlines():
        f = line.strip().split(",")
        if len(f) == 4 and f[0] in ("direct", "batch", "auto"):
            rows.append(["hsweep", "gshmem-" + f[0], 2, f[1], LAT, 1, float(f[2])])
            if f[3] != "ok":
                errors.append("hsweep %s %s B: data not verified (%s)" % (f[0], f[1], f[3]))
    if rc != 0 or not rows:
        errors.append("hsweep failed (rc %d), log/two-hosts.hsweep.txt" % rc)
    return rows


def inner(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    np, samples, errors = spec["np"], [], []
    libs = list(spec["bindirs"])
    for rep in range(1, spec["reps"] + 1):
        if spec["floor"]:
            rc, out = _inner_run(dict(spec, bindirs={"gshmem": os.path.dirname(spec["floor"])}), "gshmem",
                                 os.path.basename(spec["floor"]), [], "tcp_floor.rep%d" % rep)
            samples += [["tcp_floor", "tcp", np, k, LAT, rep, v] for k, _, v in _parse(out) if rc == 0]
        order = libs if rep % 2 else libs[::-1]
        for bench, prog, args in spec["rows"]:
            for lib in order:
                name = "two-hosts.%s.np%d.%s.rep%d" % (bench, np, lib, rep)
                rc, out = _inner_run(spec, lib, prog, args, name)
                rows = _parse(out)
                if rc != 0 or not rows:
                    errors.append("%s failed (rc %d), log/%s.txt" % (name, rc, name))
                    continue
                samples += [[bench, lib, np, k, m, rep, v] for k, m, v in rows]
    if spec.get("hsweep"):
        samples += _hsweep(spec, errors)
    with open(spec["result"], "w") as f:
        json.dump({"samples": samples, "errors": errors}, f)
    return 0


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--inner":
    sys.exit(inner(sys.argv[2]))
