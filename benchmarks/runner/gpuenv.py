"""The GPUs of this machine as the GPU suites use them: detection (`nvidia-smi -L`), the PEs' placement, the
environment every GPU run gets, and MPS for PEs that share a GPU."""
import atexit
import os
import shutil
import signal
import subprocess
import tempfile

from . import common

NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "NVSHMEM_DISABLE_NVLS": "1"}


class Gpus:
    """ngpus GPUs named in `names`; np PEs (2), shared when there are fewer GPUs than PEs."""

    def __init__(self, names, np=2):
        self.names, self.ngpus, self.np = names, len(names), np
        self.shared = self.ngpus < np
        self.mps_dir = None  # CUDA_MPS_PIPE_DIRECTORY while MPS runs
        self.build = None  # the gshmem build folder (its src/ holds libgshmem.so)

    def title(self):
        return "%d PEs on %s" % (self.np, "one GPU" if self.ngpus == 1 else "%d GPUs" % min(self.ngpus, self.np))

    def describe(self):
        return "GPUs: %s; %s%s" % ("; ".join(self.names), self.title(), ", under MPS" if self.shared else "")

    def arch(self):
        """sm_XY of GPU 0 (nvidia-smi's compute capability), sm_90 when it cannot say."""
        cap = common.capture(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"]).splitlines()
        return "sm_" + cap[0].strip().replace(".", "") if cap and cap[0].strip() else "sm_90"

    def env(self, extra=None):
        """The environment of a GPU run, made when it starts: gshmem's library on the search path (after the
        folders of extra's LD_PREPEND), multicast off, heaps sized for the largest benchmark, MPS's pipe when it
        runs, then `extra`."""
        extra = dict(extra or {})
        ld = [p for p in extra.pop("LD_PREPEND", "").split(":") if p]
        e = dict(os.environ)
        e.update(NO_MULTICAST)
        e.setdefault("GSHMEM_SYMMETRIC_SIZE", "256M")
        e.setdefault("GSHMEM_SYMMETRIC_SIZE_DEVICE", "1G")
        paths = ld + ([os.path.join(self.build, "src")] if self.build else [])
        e["LD_LIBRARY_PATH"] = ":".join(paths + ["/usr/local/cuda/lib64", e.get("LD_LIBRARY_PATH", "")])
        if self.mps_dir:
            e["CUDA_MPS_PIPE_DIRECTORY"] = self.mps_dir
            e["CUDA_MPS_LOG_DIRECTORY"] = self.mps_dir + "-log"
            e["NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = "1"
        e.update(extra)
        return e

    def mpirun(self, env, np=None):
        """mpirun for np PEs (default self.np), unbound, passing those of the runs' variables that `env` sets."""
        names = ["LD_LIBRARY_PATH", "GSHMEM_P2P", "GSHMEM_SYMMETRIC_SIZE", "GSHMEM_SYMMETRIC_SIZE_DEVICE",
                 "CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY", "NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
                 "NVSHMEM_REMOTE_TRANSPORT", "NVSHMEM_SYMMETRIC_SIZE", "NVSHMEM_REDUCE_SCRATCH_SIZE",
                 "NVSHMEM_DISABLE_NCCL", "CUDA_VISIBLE_DEVICES"] + list(NO_MULTICAST)
        xs = [x for n in names if n in env for x in ("-x", n)]
        return ["mpirun"] + common.root_flags() + ["-np", str(np or self.np), "--oversubscribe", "--bind-to", "none"] + xs


def detect(np=2, build=None):
    """The GPUs `nvidia-smi -L` lists; raises common.Skip when there is none."""
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        names = [l.strip() for l in p.stdout.splitlines() if l.startswith("GPU ")] if p.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired):
        names = []
    if not names:
        raise common.Skip("no GPU on this machine (nvidia-smi -L lists none)")
    g = Gpus(names, np)
    g.build = build
    return g


class Mps:
    """`with Mps(ctx, gpus):` runs the block under an MPS daemon when PEs share a GPU, and stops the daemon
    (echo quit | nvidia-cuda-mps-control) when the block ends, on an error, at exit or on SIGTERM/SIGHUP."""

    def __init__(self, ctx, gpus):
        self.ctx, self.g, self.old = ctx, gpus, {}

    def __enter__(self):
        if not self.g.shared:
            return self
        d = tempfile.mkdtemp(prefix="gshmem-mps-")  # its pipes are sockets: not in the output folder
        os.makedirs(d + "-log", exist_ok=True)
        env = dict(os.environ, CUDA_MPS_PIPE_DIRECTORY=d, CUDA_MPS_LOG_DIRECTORY=d + "-log")
        rc, out, err = common.run_cmd(["nvidia-cuda-mps-control", "-d"], timeout=60, env=env)
        if rc != 0:
            self.ctx.note("MPS could not start (%s): PEs share the GPU without it" % (err or out).strip()[:200])
            return self
        self.g.mps_dir = d
        atexit.register(self.stop)
        for s in (signal.SIGTERM, signal.SIGHUP):
            self.old[s] = signal.signal(s, self._on_signal)
        self.ctx.note("MPS: on (%d PEs share a GPU)" % self.g.np)
        return self

    def _on_signal(self, signum, frame):
        raise SystemExit(128 + signum)

    def stop(self):
        d = self.g.mps_dir
        if not d:
            return
        self.g.mps_dir = None
        env = dict(os.environ, CUDA_MPS_PIPE_DIRECTORY=d, CUDA_MPS_LOG_DIRECTORY=d + "-log")
        try:
            subprocess.run(["nvidia-cuda-mps-control"], input="quit\n", text=True, env=env, timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(d + "-log", ignore_errors=True)
        common.log("MPS: off")

    def __exit__(self, *exc):
        self.stop()
        for s, h in self.old.items():
            signal.signal(s, h)
        return False
