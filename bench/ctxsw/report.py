# SPDX-License-Identifier: MIT
"""The context-switch and signal section of the report (found by labreport.loader): the
newest ctxsw run, the median instructions per event of each column (rseq-n, rseq-y without
and with an rseq area registered), then each column's mean difference from rseq-n with its
interval, paired by batch as the bench's meta declares (lab-ab), and Holm's verdict."""

import statistics

from labreport import stats
from labreport.model import Table
from labreport.rows import cell
from labreport.runs import latest_with

METRICS = (("switch", "context switch (pipe ping-pong, 1 CPU)"),
           ("signal", "signal delivered to self"),
           ("pipe_self", "pipe write+read, no switch"))


def tables(runs):
    """The hook labreport calls."""
    run = latest_with(runs, "ctxsw.csv")
    if run is None:
        return []
    rows = run.csv("ctxsw.csv")
    cols = list(dict.fromkeys(r["variant"] for r in rows))
    unit = rows[0]["unit"] if rows else ""
    med = {(r["variant"], r["metric"]): statistics.median(
        cell(x, "value") for x in rows if x["variant"] == r["variant"]
        and x["metric"] == r["metric"]) for r in rows}
    out = ["run: " + run.name,
            "%s per event, median of batches" % ("instructions" if unit == "insn" else unit),
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
    out += ["", "vs %s, %s:" % (cols[0], design),
            "mean difference [95 % interval], verdict after Holm"]
    for r in ab:
        if r.get("variant") == cols[0] or r.get("key") not in ("switch", "signal"):
            continue
        out.append("  %-7s %-13s %+8.2f [%+.2f, %+.2f] %s" % (
            r["key"], r["variant"][:13], cell(r, "diff"), cell(r, "diff_lo"),
            cell(r, "diff_hi"), r.get("verdict", "")))
    return [Table("What CONFIG_RSEQ costs the scheduler: one switch, one signal", rows=out,
                  runs=[run])]
