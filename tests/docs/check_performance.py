#!/usr/bin/env python3
"""Check the documentation against its own data (ctest docs_performance).

  python3 tests/docs/check_performance.py [--root DIR]

DIR is the repository root (default: two folders above this script). Fails (exit 1, one line per problem) when:
  - a row of docs/performance/<platform>.csv is not in the table of PERFORMANCE.md's section that links that CSV,
    or its ratio, gshmem value or peer value differ from the table's (as formatted);
  - a table row of such a section is missing from its CSV (the plot would not show it);
  - docs/performance/<platform>.png is missing for a CSV;
  - README.md has more than 800 words from the top through the end of its quick start section;
  - README.md, apps/README.md or a file under docs/ mentions a document that is not in the repository
    (STYLE.md, ANCHORS.md, APPS.md, DESIGN.md, *SURFACE.md) or an absolute path of a machine (/work/, /home/, ...);
  - a relative Markdown link in those files points to a file that does not exist;
  - docs/ holds 1 MB or more.
"""
import argparse
import csv
import os
import re
import sys

HEADER = ["platform", "operation", "peer", "unit", "gshmem", "peer_value", "ratio", "better"]
TABLE_HEAD = ["operation", "gshmem", "peer", "peer value", "ratio", "who is faster"]
README_MAX_WORDS = 800
DOCS_MAX_BYTES = 1000 * 1000
FORBIDDEN = [
    (re.compile(r"\b(STYLE|ANCHORS|APPS|DESIGN|[A-Z-]*SURFACE)\.md\b"), "a document that is not in the repository"),
    (re.compile(r"(?<![\w.~$}-])/(work|home|root|Users|mnt|scratch)/"), "an absolute path"),
    (re.compile(r"\bshared/(tools|ANCHORS|APPS|STYLE)"), "a folder that is not in the repository"),
]
TEXT_EXT = (".md", ".csv", ".gp", ".txt", ".sh", ".py")


def cells(line):
    """The cells of a Markdown table row, stripped of emphasis; None for a line that is not a row."""
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [c.replace("**", "").strip() for c in line[1:-1].split("|")]


def norm_op(text):
    """An operation cell without the footnote marks that follow it."""
    return re.sub(r"[\s†‡*]+$", "", text)


def sections(md):
    """[(heading, [lines])] for each '## ' section of a Markdown text."""
    out, head, body = [], "", []
    for line in md.splitlines():
        if line.startswith("## "):
            out.append((head, body))
            head, body = line[3:].strip(), []
        else:
            body.append(line)
    out.append((head, body))
    return out


def table_rows(lines):
    """The data rows of the headline tables among lines: lists of 6 cells."""
    rows, inside = [], False
    for line in lines:
        c = cells(line)
        if c is None:
            inside = False
            continue
        if [x.lower() for x in c] == TABLE_HEAD:
            inside = True
            continue
        if inside and not all(re.fullmatch(r":?-+:?", x) for x in c):
            rows.append(c)
    return rows


def value_matches(cell, value, unit):
    return value == "" or cell in (value, "%s %s" % (value, unit))


def op_matches(cell, op, unit):
    return norm_op(cell) in (op, "%s (%s)" % (op, unit))


def check_csvs(root, errors):
    perf_dir = os.path.join(root, "docs", "performance")
    perf_md = os.path.join(root, "docs", "PERFORMANCE.md")
    if not os.path.isdir(perf_dir):
        return 0
    md = open(perf_md, encoding="utf-8").read() if os.path.exists(perf_md) else ""
    secs = sections(md)
    n_rows = 0
    for name in sorted(os.listdir(perf_dir)):
        if not name.endswith(".csv"):
            continue
        stem, rel = name[:-4], "docs/performance/" + name
        if not os.path.exists(os.path.join(perf_dir, stem + ".png")):
            errors.append("%s: no plot docs/performance/%s.png" % (rel, stem))
        with open(os.path.join(perf_dir, name), newline="", encoding="utf-8") as f:
            data = list(csv.reader(f))
        if not data or data[0] != HEADER:
            errors.append("%s: header is not %s" % (rel, ",".join(HEADER)))
            continue
        linked = [(h, body) for h, body in secs if "](performance/%s.csv)" % stem in "\n".join(body)]
        if len(linked) != 1:
            errors.append("%s: %d sections of docs/PERFORMANCE.md link it (want exactly 1)" % (rel, len(linked)))
            continue
        head, body = linked[0]
        table = table_rows(body)
        used = set()
        for i, row in enumerate(data[1:], start=2):
            if not row:
                continue
            if len(row) != len(HEADER):
                errors.append("%s:%d: %d fields, want %d" % (rel, i, len(row), len(HEADER)))
                continue
            n_rows += 1
            _, op, peer, unit, g, p, ratio, better = row
            if better not in ("lower", "higher"):
                errors.append("%s:%d: better is %r, want lower or higher" % (rel, i, better))
            try:
                float(ratio)
            except ValueError:
                errors.append("%s:%d: ratio %r is not a number" % (rel, i, ratio))
            where = "%s:%d (%s, %s)" % (rel, i, op, peer)
            cands = [k for k, c in enumerate(table) if op_matches(c[0], op, unit) and c[2] == peer]
            if not cands:
                errors.append("%s: not in the table of section '%s'" % (where, head))
                continue
            exact = [k for k in cands if table[k][4] == ratio and value_matches(table[k][1], g, unit)
                     and value_matches(table[k][3], p, unit)]
            if exact:
                used.add(exact[0])
                continue
            t = table[cands[0]]
            used.add(cands[0])
            errors.append("%s: CSV has gshmem %s, peer %s, ratio %s; the table has %s, %s, ratio %s"
                          % (where, g or "-", p or "-", ratio, t[1], t[3], t[4]))
        for k, c in enumerate(table):
            if k not in used:
                errors.append("docs/PERFORMANCE.md, section '%s': row '%s' (%s) is not in %s"
                              % (head, c[0], c[2], rel))
    return n_rows


def readme_words(root, errors):
    path = os.path.join(root, "README.md")
    if not os.path.exists(path):
        errors.append("README.md: missing")
        return 0
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next((i for i, l in enumerate(lines) if re.match(r"#+ .*quick start", l, re.I)), None)
    if start is None:
        errors.append("README.md: no quick start section")
        return 0
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = len(lines)
    for i in range(start + 1, len(lines)):
        m = re.match(r"(#+) ", lines[i])
        if m and len(m.group(1)) <= level:
            end = i
            break
    words = sum(1 for w in " ".join(lines[:end]).split() if re.search(r"\w", w))
    if words > README_MAX_WORDS:
        errors.append("README.md: %d words through the quick start section (at most %d)" % (words, README_MAX_WORDS))
    return words


def doc_files(root):
    files = [os.path.join(root, "README.md"), os.path.join(root, "apps", "README.md")]
    for d, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(d, n) for n in sorted(names)]
    return [f for f in files if os.path.exists(f)]


def check_text(root, errors):
    total = 0
    for path in doc_files(root):
        rel = os.path.relpath(path, root)
        if rel.startswith("docs" + os.sep):
            total += os.path.getsize(path)
        if not path.endswith(TEXT_EXT):
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        for n, line in enumerate(text.splitlines(), start=1):
            for rx, what in FORBIDDEN:
                m = rx.search(line)
                if m:
                    errors.append("%s:%d: mentions %s: %s" % (rel, n, what, m.group(0)))
        if path.endswith(".md"):
            for m in re.finditer(r"\]\(([^)\s]+)\)", text):
                target = m.group(1).split("#")[0]
                if not target or re.match(r"[a-z]+:", target):
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                    errors.append("%s: link to a missing file: %s" % (rel, m.group(1)))
    if total >= DOCS_MAX_BYTES:
        errors.append("docs/: %d bytes (under %d wanted)" % (total, DOCS_MAX_BYTES))
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                    "..", "..")))
    root = ap.parse_args().root
    errors = []
    rows = check_csvs(root, errors)
    words = readme_words(root, errors)
    size = check_text(root, errors)
    for e in errors:
        print("check_performance: " + e)
    summary = "%d CSV rows, README %d words through the quick start, docs/ %d bytes" % (rows, words, size)
    if errors:
        print("check_performance: FAILED, %d problem(s); %s" % (len(errors), summary))
        return 1
    print("check_performance: OK; " + summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
