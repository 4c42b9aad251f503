# SPDX-License-Identifier: MIT
"""hackbench's own report section (found by scripts/report_bench): the RSEQ=y vs RSEQ=n A/B of
each architecture side by side, for the kernels they share (the newest icount run per
architecture and kernel release; x86_64's bench/hackbench/run, arm64's and arm's with ARCH=).
The figures are lab-ab's (report_stats): the rseq-n mean in G instructions (virtual time), and
each RSEQ=y column's % change with its 95 % interval. Shown only where two or more
architectures ran the same releases; each run's full section is report_text's."""

import os

import report_stats
from report_fmt import num
from report_rows import heading

ARCHES = ("x86_64", "arm64", "arm")
MODES = (("process,pipe", "proc/pipe"), ("process,socket", "proc/sock"),
         ("thread,pipe", "thr/pipe"), ("thread,socket", "thr/sock"))
COLUMNS = (("rseq-y/unreg", "RSEQ=y, glibc unreg"), ("rseq-y/reg", "RSEQ=y, glibc reg"))
LAB = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _key(run):
    """(arch, releases) of an icount hackbench run, or None for any other run."""
    m = run.keyvalues("hackbench.meta")
    if m.first("accel") != "icount":
        return None
    releases = sorted({v.split(" ")[0] for k, v in m.pairs
                       if k.startswith("kernel ") and ":" not in k})
    return (m.first("lab_arch") or "x86_64", " ".join(releases))


def _change(r):
    """A comparison row as "+0.8 [-3.1, +4.6]", "*" when significant after Holm."""
    if r is None or r.get("pct", "") in ("", "nan"):
        return "-"
    text = "%+.1f" % num(r["pct"])
    if r.get("pct_lo", "") not in ("", "nan") and r.get("pct_hi", "") not in ("", "nan"):
        text += " [%+.1f, %+.1f]" % (num(r["pct_lo"]), num(r["pct_hi"]))
    return text + ("*" if r.get("verdict") == "significant" else "")


def _table(release, found, ab):
    """The lines of one release's table; found: {arch: run}."""
    idle = [label for key, label in MODES
            if any(num(r.get("idle_ticks", "")) > 0 for a in found
                   for r in found[a].csv("hackbench.csv") if r["mode"] + "," + r["ipc"] == key)]
    out = ["kernels %s; %% change of the mean vs rseq-n [95 %% interval]," % release,
           "* significant after Holm; virtual time, not pure instructions",
           "(idle ticks in the runs): %s." % (", ".join(idle) or "none"),
           "%-9s %-6s %6s  %-21s %s" % ("mode/ipc", "arch", "rseq-n", COLUMNS[0][1],
                                         COLUMNS[1][1]),
           "%-9s %-6s %6s" % ("", "", "Ginsn")]
    comparisons = {a: report_stats.compare_hackbench(ab, found[a].path / "hackbench.csv")
                   for a in ARCHES if a in found}
    for key, label in MODES:
        first = True
        for a in ARCHES:
            if a not in comparisons:
                continue
            rows = {r["variant"]: r for r in comparisons[a] if r["key"] == key}
            base = rows.get("rseq-n")
            mean = "%.3f" % num(base["mean"]) if base else "-"
            cells = [_change(rows.get(v)) for v, _ in COLUMNS]
            out.append("%-9s %-6s %6s  %-21s %s" % (label if first else "", a, mean, *cells))
            first = False
    sides = {a: max((int(num(r["n"])) for r in comparisons[a]), default=0) for a in comparisons}
    out += ["%s: run %s, %d runs a side" % (a, found[a].name[:16], sides[a])
            for a in ARCHES if a in found]
    return out


def section(runs, md):
    """The hook scripts/report_bench calls."""
    newest = {}
    for run in runs:
        if run.has("hackbench.csv"):
            k = _key(run)
            if k:
                newest[k] = run
    releases = sorted({rel for (_, rel) in newest})
    shared = [rel for rel in releases if sum((a, rel) in newest for a in ARCHES) >= 2]
    if not shared:
        return []
    ab = report_stats.lab_ab_path(LAB)
    out = heading("hackbench RSEQ=y vs RSEQ=n per architecture (icount)", md)
    for i, rel in enumerate(shared):
        found = {a: newest[(a, rel)] for a in ARCHES if (a, rel) in newest}
        out += ([""] if i else []) + _table(rel, found, ab)
    return out + (["```"] if md else [])
