# SPDX-License-Identifier: MIT
"""urcu-lfht's report section (found by labreport.loader): the real liburcu's hash table,
the newest run per environment: add+del with the per-CPU split count and without it, glibc's
rseq on and off, and what turning it off costs, paired over the run's units (lab-ab)."""

import figures

from labreport import stats
from labreport.model import Table
from labreport.rows import newest_runs

ORDER = 25
CSV = "urcu-lfht.csv"
# (what the rows measure, the method without its glibc state)
ROWS = (("split count (sched_getcpu each add, each del)", "lfht-acct"),
        ("no count (no sched_getcpu: the control)", "lfht-plain"))


def change(run, name, unit, where):
    """off - on of name over the run's units, with its interval: the line, or a note why
    there is none."""
    p = stats.paired_methods(stats.lab_ab_path(), run, CSV, name + "-rseq-off",
                             name + "-rseq-on")
    if not p:
        return "    off - on: no interval (fewer than two units)"
    if "nan" in (p["diff_lo"] + p["diff_hi"]).lower():
        return "    off - on: %+.2f %s, no interval: %s (%s %s)" % (
            float(p["diff"]), unit, p.get("verdict", ""), p["units"], where)
    return "    off - on: %+.2f %s [%+.2f, %+.2f], %s (%s %s)" % (
        float(p["diff"]), unit, float(p["diff_lo"]), float(p["diff_hi"]),
        p.get("verdict", ""), p["units"], where)


def section(run):
    """One environment's lines."""
    rows = {r["method"]: r for r in run.csv(CSV)}
    m = run.keyvalues("urcu-lfht.meta")
    first = next(iter(rows.values()))
    where = "processes" if first["accel"] in ("", "none") else "boots"
    calls = m.first("getcpu_calls_per_op").split(" (")[0] or "unknown"
    out = ["%s/%s (run %s)" % (first["variant"], first["accel"], run.name),
           "  sched_getcpu calls per op (counted): " + calls]
    for what, name in ROWS:
        cells, unit = [], "ns"
        for state in ("on", "off"):
            r = rows.get("%s-rseq-%s" % (name, state))
            if r is None or r.get("status") != "ok":
                cells.append("%s -" % state)
                continue
            value, unit = figures.op_figure(r)
            cells.append("%s %.2f" % (state, float(value)))
        out += ["  " + what + ":", "    glibc rseq %s %s" % (", ".join(cells), unit),
                change(run, name, unit, where)]
    return out


def tables(runs):
    """The hook labreport calls."""
    found = newest_runs(runs, "urcu-lfht")
    if not found:
        return []
    used = [found[k] for k in sorted(found)]
    lines = [x for run in used for x in section(run)]
    return [Table("liburcu's hash table as it ships (Debian's liburcu 0.13)",
                  intro=["one add and one delete an op; the split count asks",
                         "sched_getcpu(), which reads the rseq area with glibc's rseq on",
                         "and calls the vDSO with it off; the figure is the median unit's,",
                         "off - on the mean difference paired by unit with its 95 %",
                         "interval (lab-ab)"],
                  rows=lines, runs=used)]
