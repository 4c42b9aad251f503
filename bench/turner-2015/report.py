# SPDX-License-Identifier: MIT
"""A single-region form of Paul Turner's 2015 interface beside mainline rseq and
getcpu + atomic (found by labreport.loader): the newest turner-2015 run, one line per table (CPU read, counter,
list) and accelerator: icount instruction counts and TCG emulator ns, the median boot's with
the range between boots. Counts are called exact only where the run says it checked them (its
meta's icount_check: linear, the lab's n/2, n, 2n loop test); else they are unchecked."""

from labreport.model import Table
from labreport.rows import cell
from labreport.runs import latest_with

ABIS = (("turner-2015", "1-region 2015"), ("rseq", "mainline rseq"), ("getcpu", "getcpu+atomic"))


def figure(rows):
    """The median boot's figure (the lower middle one of an even count) with the range between
    boots where they differ (whole under icount), or why there is none."""
    if not rows:
        return "-"
    ok = sorted(cell(r, "per_op_median") for r in rows if r["status"] == "ok")
    if len(ok) < len(rows):
        return next(r["status"] for r in rows if r["status"] != "ok")[:12]
    unit = rows[0]["unit"]
    f = (lambda v: "%d" % v) if unit == "insn" and all(v == int(v) for v in ok) else \
        (lambda v: "%.1f" % v)
    mid = f(ok[(len(ok) - 1) // 2])
    return "%s %s" % (mid, unit) if ok[0] == ok[-1] else \
        "%s (%s-%s)" % (mid, f(ok[0]), f(ok[-1]))


def tables(runs):
    """The hook labreport calls."""
    run = latest_with(runs, "turner-2015.csv")
    if run is None:
        return []
    found = run.csv("turner-2015.csv")
    rows = []
    for accel in sorted({r["accel"] for r in found}):
        for table in ("cpu-read", "counter", "list"):
            rows.append((accel, table) + tuple(figure(
                [r for r in found if r["accel"] == accel and r["table"] == table and r["abi"] == abi])
                for abi, _ in ABIS))
    boots = len({(r["accel"], r.get("boot") or "1") for r in found}) // max(
        1, len({r["accel"] for r in found}))
    exact = run.keyvalues("turner-2015.meta").first("icount_check") == "linear"
    return [Table("Turner's 2015 interface, one region, vs mainline rseq (turner-2015)",
                  intro=["run: " + run.name,
                         ("per op: the median boot's, (range) over %d boots, each" % boots
                          if boots > 1 else "per op: one boot (no range: no rerun)"),
                         "its own seed; tcg: emulator ns (a boot's median of reps);",
                         "icount: instructions, " + (
                             "exact (loops of n/2, n, 2n checked linear)" if exact else
                             "not checked (a long loop sees timer ticks)")],
                  fmt="%-6s %-8s %18s %18s %18s",
                  header=[("accel", "table") + tuple(name for _, name in ABIS)], rows=rows,
                  notes=["1-region 2015: our series, one region per process, one",
                         "handler that finds the sequence from r10 (2015 itself:",
                         "several sections, each with its own restart address,",
                         "EBUSY only on overlap); mainline publishes a descriptor",
                         "per sequence (bench/turner-2015)"], runs=[run])]
