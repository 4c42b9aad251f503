# SPDX-License-Identifier: MIT
"""The context-switch and signal section of the report (found by labreport.loader): the
newest ctxsw run, the median instructions per event of each column (rseq-n, rseq-y without
and with an rseq area registered) and each column's difference from rseq-n. Under icount
these are exact counts per batch; the median over batches leaves out the batch a periodic
kernel job lands in."""

import statistics

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
    out += ["each column after the first: its median and its difference from",
            cols[0] + "; lab-ab's comparison with intervals: ab.txt in the run"]
    return [Table("What CONFIG_RSEQ costs the scheduler: one switch, one signal", rows=out,
                  runs=[run])]
