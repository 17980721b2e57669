"""What every suite shares: the run context, running a command, launchers, recorded samples, medians, the
output files (results.csv, table.md, headline.csv and its plot) and --publish.

Samples are (benchmark, library, pes, key, metric, rep, value). A metric whose name mentions latency, time, us,
ms, s or ps is a time (lower is better); every other metric (bandwidth, rate, TEPS) is a rate (higher is better).
Ratios are always gshmem / peer.
"""
import csv
import os
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77  # exit status of a suite this machine cannot run (no GPU, not root); the reason is printed on one line
HEADLINE_HEADER = ["platform", "operation", "peer", "unit", "gshmem", "peer_value", "ratio", "better"]
HEADLINE_GP = os.path.join(REPO, "docs", "performance", "headline.gp")


class Skip(Exception):
    """Raised by a suite that cannot run here; its message is the one line printed."""


class Usage(Exception):
    """Raised on options a suite cannot take; its message is the one line printed (exit status 2)."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Ctx:
    """One suite run: options, output folder, the samples and errors collected so far."""

    def __init__(self, suite, args):
        self.suite = suite
        self.args = args
        self.quick = args.quick
        self.reps = args.reps if args.reps is not None else (2 if args.quick else 5)
        self.build = os.path.abspath(args.build)
        self.out = os.path.abspath(args.out or os.path.join(REPO, "out", suite))
        self.logs = os.path.join(self.out, "log")
        self.samples = []
        self.errors = []
        self.notes = []  # lines for the top of table.md (peers not found, skipped parts)
        self.started = time.time()

    def prepare(self):
        os.makedirs(self.logs, exist_ok=True)
        with open(os.path.join(self.out, "machine.txt"), "w") as f:
            f.write("date: %s\n" % time.strftime("%Y-%m-%d %H:%M:%S %Z"))
            f.write("command: %s\n" % " ".join(sys.argv))
            f.write("git: %s\n" % capture(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]))
            f.write("cores: %s\n" % (os.cpu_count() or "?"))
            f.write(capture(["lscpu"]).split("Flags:")[0][:1500] + "\n")

    def note(self, line):
        """A one-line remark, printed now and kept at the top of table.md."""
        print(line, flush=True)
        self.notes.append(line)

    def add(self, bench, lib, pes, key, metric, rep, value):
        self.samples.append((bench, lib, pes, str(key), metric, rep, float(value)))

    def error(self, msg):
        self.errors.append(msg)
        log("error: " + msg.splitlines()[0])


def capture(cmd):
    """stdout of a short informational command, or '' when it cannot run."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def run_cmd(cmd, timeout=None, env=None, cwd=None):
    """Run a command; return (rc, stdout, stderr). rc 124 on timeout, 127 when the program is missing."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out, "timed out after %ss" % timeout
    except OSError as e:
        return 127, "", str(e)


def run_logged(ctx, name, cmd, timeout, env=None, prefix=""):
    """run_cmd, keeping the command and its output in log/<name>.txt; returns (rc, stdout, stderr)."""
    t0 = time.time()
    rc, out, err = run_cmd(cmd, timeout=timeout, env=env)
    dt = time.time() - t0
    with open(os.path.join(ctx.logs, name + ".txt"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out + ("\n--- stderr\n" + err if err else ""))
    log("%s %-44s %6.1fs %s" % (prefix, name, dt, "ok" if rc == 0 else "FAILED rc=%d" % rc))
    return rc, out, err


def root_flags():
    """Open MPI refuses to start as root without this flag."""
    return ["--allow-run-as-root"] if os.geteuid() == 0 else []


def mpirun(np, extra=(), cores=None):
    """The launcher every library's run uses on one node: past the core count oversubscribed and unbound."""
    cores = cores or os.cpu_count() or 1
    bind = ["--oversubscribe", "--bind-to", "none"] if cores < np else ["--bind-to", "core"]
    return ["mpirun"] + root_flags() + ["-np", str(np)] + bind + list(extra)


def is_time(metric):
    m = metric.lower()
    return any(w in m for w in ("latency", "time", "(us)", "(ms)", "(s)", "(ps", " us", " ms", "ps_per", "runtime",
                                "ms_per", "floor"))


def unit_of(metric):
    """'Latency (us)' -> 'us', 'MB/s' -> 'MB/s'."""
    u = metric[metric.rindex("(") + 1:-1] if "(" in metric and metric.endswith(")") else metric.split()[-1]
    return "µs" if u == "us" else u


def medians(ctx):
    """{(bench, lib, pes, key, metric): median over repetitions}."""
    per = {}
    for b, lib, pes, k, m, _, v in ctx.samples:
        per.setdefault((b, lib, pes, k, m), []).append(v)
    return {kk: statistics.median(v) for kk, v in per.items()}


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return "%.3e" % v
    if abs(v) >= 100:
        return "%.1f" % v
    return "%.4g" % v


def sig4(v):
    """4 significant digits, never an exponent: 0.01234, 12.34, 28410."""
    return "%.0f" % v if abs(v) >= 1000 else "%.4g" % v


def ratio3(g, p):
    """gshmem / peer to 3 significant digits, or None."""
    if g is None or p is None or p == 0:
        return None
    return float("%.3g" % (g / p))


def write_results(ctx):
    with open(os.path.join(ctx.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "library", "pes", "key", "metric", "rep", "value"])
        w.writerows(ctx.samples)


def _key_order(k):
    return (0, int(k), "") if k.isdigit() else (1, 0, k)


def write_table(ctx, libs):
    """table.md: per benchmark, PE count and metric one table of medians, one column per library in `libs` order
    (those that have rows there) and one gshmem/peer ratio column per peer."""
    med = medians(ctx)
    groups = {}
    for (b, lib, pes, k, m), v in med.items():
        groups.setdefault((b, pes, m), {}).setdefault(k, {})[lib] = v
    lines = ["# benchmarks/run %s: medians over %d repetitions" % (ctx.suite, ctx.reps), ""]
    lines += ["- " + n for n in ctx.notes] + ([""] if ctx.notes else [])
    lines += ["Ratios are gshmem / peer. Times: lower is better (ratio < 1: gshmem faster). Rates: higher is better "
              "(ratio > 1: gshmem faster).", ""]
    order = {}
    for i, s in enumerate(ctx.samples):
        order.setdefault((s[0], s[2], s[4]), i)
    for (b, pes, m) in sorted(groups, key=lambda g: order[g]):
        rows = groups[(b, pes, m)]
        every = {l for r in rows.values() for l in r}
        # the listed libraries in order, each followed by its variants (gshmem, gshmem-auto, ...), then the rest
        present = [v for l in libs for v in ([l] if l in every else []) + sorted(x for x in every if
                                                                                 x.startswith(l + "-"))]
        present += sorted(every - set(present))
        peers = [l for l in present if l != "gshmem"] if "gshmem" in present else []
        lines += ["## %s, %s PEs: %s (%s is better)" % (b, pes, m, "lower" if is_time(m) else "higher"), "",
                  "| key | " + " | ".join(present + ["gshmem/" + p for p in peers]) + " |",
                  "|---" + "|---:" * (len(present) + len(peers)) + "|"]
        for k in sorted(rows, key=_key_order):
            r = rows[k]
            cells = [fmt(r.get(l)) for l in present]
            cells += [("%.3g" % ratio3(r.get("gshmem"), r.get(p))) if ratio3(r.get("gshmem"), r.get(p)) else "-"
                      for p in peers]
            lines.append("| %s | %s |" % (k, " | ".join(cells)))
        lines.append("")
    if ctx.errors:
        lines += ["## Errors", ""] + ["- " + e.splitlines()[0] for e in ctx.errors] + [""]
    with open(os.path.join(ctx.out, "table.md"), "w") as f:
        f.write("\n".join(lines))


class Head:
    """One headline row request: label, (bench, pes, key, metric), the peer library and its display name."""

    def __init__(self, operation, bench, pes, key, metric, peer_lib, peer_name):
        self.operation, self.bench, self.pes, self.key, self.metric = operation, bench, pes, str(key), metric
        self.peer_lib, self.peer_name = peer_lib, peer_name


def headline_rows(ctx, platform, heads):
    """The headline.csv rows (lists in HEADLINE_HEADER order) of the requests whose both medians exist."""
    med = medians(ctx)
    rows = []
    for h in heads:
        g = med.get((h.bench, "gshmem", h.pes, h.key, h.metric))
        p = med.get((h.bench, h.peer_lib, h.pes, h.key, h.metric))
        r = ratio3(g, p)
        if r is None:
            continue
        rows.append([platform, h.operation, h.peer_name, unit_of(h.metric), sig4(g), sig4(p), "%.3g" % r,
                     "lower" if is_time(h.metric) else "higher"])
    return rows


def markdown_headline(rows):
    """The Markdown headline table for docs/PERFORMANCE.md."""
    out = ["| operation | gshmem | peer | peer value | ratio | who is faster |", "|---|---:|---|---:|---:|---|"]
    for _, op, peer, unit, g, p, r, better in rows:
        faster = (float(r) < 1) if better == "lower" else (float(r) > 1)
        who = "gshmem" if faster else ("even" if float(r) == 1 else peer)
        out.append("| %s | %s %s | %s | %s %s | %s | %s |" % (op, g, unit, peer, p, unit, r, who))
    return "\n".join(out)


def plot_headline(csv_path, png_path, title):
    """Draw a headline CSV with docs/performance/headline.gp; returns a one-line reason when it could not."""
    if not shutil.which("gnuplot"):
        return "gnuplot not found: no plot"
    if not os.path.exists(HEADLINE_GP):
        return "%s not found: no plot" % os.path.relpath(HEADLINE_GP, REPO)
    title = title.replace("'", "")
    rc, out, err = run_cmd(["gnuplot", "-e", "csv='%s'; out='%s'; title='%s'" % (csv_path, png_path, title),
                            HEADLINE_GP], timeout=120)
    return None if rc == 0 else "gnuplot failed: %s" % (err or out).strip()[:300]


def write_headline(ctx, platform, heads, title):
    """headline.csv and headline.png in the output folder; with --publish also docs/performance/<platform>.csv
    and .png, and the Markdown table printed. Returns the rows."""
    rows = headline_rows(ctx, platform, heads)
    path = os.path.join(ctx.out, "headline.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADLINE_HEADER)
        w.writerows(rows)
    print("\n== headline (%s, ratio = gshmem/peer)\n%s" % (platform, markdown_headline(rows)))
    if not rows:
        return rows
    why = plot_headline(path, os.path.join(ctx.out, "headline.png"), title)
    if why:
        ctx.note("headline plot: " + why)
    if ctx.args.publish:
        pub = os.path.join(REPO, "docs", "performance")
        os.makedirs(pub, exist_ok=True)
        shutil.copyfile(path, os.path.join(pub, platform + ".csv"))
        why = plot_headline(os.path.join(pub, platform + ".csv"), os.path.join(pub, platform + ".png"), title)
        print("\npublished docs/performance/%s.csv%s; the table for docs/PERFORMANCE.md:\n" %
              (platform, "" if why else " and .png") + markdown_headline(rows))
        if why:
            print("publish: " + why)
    return rows


def finish(ctx, libs):
    """Write results.csv and table.md, print where they are and the errors; return the exit status."""
    write_results(ctx)
    write_table(ctx, libs)
    print("\nresults: %s (results.csv, table.md%s, log/) in %.0f s" %
          (ctx.out, ", headline.csv" if os.path.exists(os.path.join(ctx.out, "headline.csv")) else "",
           time.time() - ctx.started))
    if ctx.errors:
        print("%d error(s):" % len(ctx.errors), file=sys.stderr)
        for e in ctx.errors:
            print(" - " + e, file=sys.stderr)
        return 1
    return 0


def cmake_targets(ctx, targets, optional=False, build=None):
    """Build the given CMake targets in the build folder (ctx.build, or `build`; configured already); a failure is
    an error, or with `optional` (a target this configuration may lack) a note."""
    build = build or ctx.build
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        raise Skip("%s is not a configured gshmem build (cmake -S . -B %s first, or --build DIR)" %
                   (build, os.path.relpath(build)))
    if ctx.args.no_build:
        return
    log("building %s in %s" % (", ".join(targets), build))
    rc, out, err = run_cmd(["cmake", "--build", build, "-j%d" % min(os.cpu_count() or 2, 8), "--target"] + targets)
    if rc != 0 and optional:
        ctx.note("%s could not be built here: its rows are left out" % " ".join(targets))
    elif rc != 0:
        ctx.error("build of %s failed:\n%s" % (" ".join(targets), (out + err)[-3000:]))
