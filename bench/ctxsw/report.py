# SPDX-License-Identifier: MIT
"""The context-switch and signal section of the report (found by labreport.loader): the
newest ctxsw run with an rseq-n column, the median instructions per event of each column
(rseq-n, rseq-y without and with an rseq area registered) over its boots (each boot's mean
over its batches), then each column's mean difference from rseq-n with its interval over
boots, the unit and pairing the bench's meta declares (lab-ab), and Holm's verdict. Then the same for the newest run with a turner-2015 column:
what its series costs a task that never registers (against rseq-y-jl, the same kernel
without the series)."""

import statistics

import labdata

from labreport import stats
from labreport.model import Table
from labreport.rows import cell
from labreport.runs import latest_with

METRICS = (("switch", "context switch (pipe ping-pong, 1 CPU)"),
           ("signal", "signal delivered to self"),
           ("pipe_self", "pipe write+read, no switch"))


def tables(runs):
    """The hook labreport calls."""
    found = [run for run in runs if run.has("ctxsw.csv")]
    if not found:
        return []
    out = []
    for kernel, title in (
            ("rseq-n", "What CONFIG_RSEQ costs the scheduler: one switch, one signal"),
            ("turner-2015", "What turner-2015 costs a task that never registers")):
        with_it = [run for run in found
                   if any(r["kernel"] == kernel for r in run.csv("ctxsw.csv"))]
        if with_it:
            out.append(_table(with_it[-1], title))
    return out or [_table(found[-1], "Context switch and signal cost")]


def _table(run, title):
    """One run's medians and its columns' differences from the first column."""
    rows = run.csv("ctxsw.csv")
    cols = list(dict.fromkeys(r["variant"] for r in rows))
    unit = rows[0]["unit"] if rows else ""
    # A boot's figure is the mean of its batches; a run from before boots were the unit
    # (no round column) is one boot per column, its batches then the values.
    per_boot = {}
    for r in rows:
        boot = r.get("round") or r["batch"]
        per_boot.setdefault((r["variant"], r["metric"]), {}).setdefault(boot, []).append(
            cell(r, "value"))
    med = {k: statistics.median(statistics.mean(v) for v in boots.values())
           for k, boots in per_boot.items()}
    nboots = max((len(b) for b in per_boot.values()), default=0)
    what = ("median of %d boots' means" % nboots if rows and rows[0].get("round")
            else "median of batches, one boot")
    out = ["run: " + run.name,
            "%s per event, %s" % ("instructions" if unit == "insn" else unit, what),
            "%-14s" % "event" + "".join("%14s" % c[:14] for c in cols)]
    for metric, what in METRICS:
        base = med.get((cols[0], metric))
        line = "%-14s" % metric
        for c in cols:
            v = med.get((c, metric))
            line += "%14s" % ("-" if v is None else "%.1f" % v if c == cols[0]
                               else "%.1f %+.1f" % (v, v - base))
        out += [line, "  (%s)" % what]
    out += ["each column after the first: its median and its difference", "from " + cols[0]]
    ab = stats.compare(stats.lab_ab_path(), run.path / "ctxsw.csv", key="metric", bench="ctxsw")
    design = next((r.get("design") for r in ab if r.get("design")), "unpaired")
    if rows and rows[0].get("round"):
        design = design.replace(" units", " boots")
    out += ["", "vs %s, %s:" % (cols[0], design),
            "mean difference [95 % interval], verdict after Holm"]
    for r in ab:
        if r.get("variant") == cols[0] or r.get("key") not in ("switch", "signal"):
            continue
        out.append("  %-7s %-13s %+8.2f [%+.2f, %+.2f] %s" % (
            r["key"], r["variant"][:13], cell(r, "diff"), cell(r, "diff_lo"),
            cell(r, "diff_hi"), r.get("verdict", "")))
    return Table(title, rows=out, runs=[run])


def headline(runs, ab):
    """The README headline's rows (labreport.headline): what a registered rseq area costs one
    context switch (boots, paired by round)."""
    # The latest run with an RSEQ=n column: others (turner-2015 beside rseq-y) answer another question.
    run = latest_with([r for r in runs if "rseq-n" in
                         r.keyvalues("ctxsw.meta").first("columns").split()], "ctxsw.csv")
    if not run:
        return []
    out = []
    rows = stats.compare(ab, run.path / "ctxsw.csv", key="metric", bench="ctxsw")
    # A run from before boots were the unit compared the batches of one boot.
    rows_header = labdata.read_header(run.path / "ctxsw.csv")
    for r in rows:
        if r.get("key") == "switch" and r.get("variant") in ("rseq-y/reg", "rseq-y/unreg"):
            what = ("context switch, rseq area registered" if r["variant"] == "rseq-y/reg"
                    else "context switch, CONFIG_RSEQ=y alone")
            verdict = r.get("verdict", "")
            out.append((what + " vs RSEQ=n",
                        "icount, %s" % r.get("design", "unpaired").replace(
                            " units", " boots" if "round" in rows_header else " batches"),
                        "%+.1f insn [%+.1f, %+.1f], %s" % (float(r["diff"]), float(r["diff_lo"]),
                                                          float(r["diff_hi"]), verdict),
                        run.name))
    return out
