# SPDX-License-Identifier: MIT
"""A single-region form of Paul Turner's 2015 interface beside mainline rseq and
getcpu + atomic (found by labreport.loader): the newest turner-2015 run, one line per table (CPU read, counter,
list) and accelerator: icount instruction counts and TCG emulator ns. Counts are called
exact only where the run says it checked them (its meta's icount_check: linear, the
lab's n vs n/2 loop test); else they are one boot's, unchecked."""

from labreport.model import Table
from labreport.rows import cell
from labreport.runs import latest_with

ABIS = (("turner-2015", "1-region 2015"), ("rseq", "mainline rseq"), ("getcpu", "getcpu+atomic"))


def figure(r):
    """The median per op (whole under icount), or why there is none."""
    if r is None:
        return "-"
    if r["status"] != "ok":
        return r["status"][:12]
    v = cell(r, "per_op_median")
    return "%d %s" % (v, r["unit"]) if r["unit"] == "insn" and v == int(v) else \
        "%.1f %s" % (v, r["unit"])


def tables(runs):
    """The hook labreport calls."""
    run = latest_with(runs, "turner-2015.csv")
    if run is None:
        return []
    found = run.csv("turner-2015.csv")
    rows = []
    for accel in sorted({r["accel"] for r in found}):
        for table in ("cpu-read", "counter", "list"):
            by = {r["abi"]: r for r in found if r["accel"] == accel and r["table"] == table}
            rows.append((accel, table) + tuple(figure(by.get(abi)) for abi, _ in ABIS))
    return [Table("Turner's 2015 interface, one region, vs mainline rseq (turner-2015)",
                  intro=["run: " + run.name, "per op, median of reps; tcg: emulator ns;",
                         "icount: instructions " + (
                             "(exact: checked linear)" if run.keyvalues("turner-2015.meta").first(
                                 "icount_check") == "linear" else
                             "of one boot, not checked"),
                         "(exact only where checked: a loop this long sees timer ticks)"],
                  fmt="%-7s %-9s %16s %16s %16s",
                  header=[("accel", "table") + tuple(name for _, name in ABIS)], rows=rows,
                  notes=["1-region 2015: our series, one region per process, one",
                         "handler that finds the sequence from r10 (2015 itself:",
                         "several sections, each with its own restart address,",
                         "EBUSY only on overlap); mainline publishes a descriptor",
                         "per sequence (bench/turner-2015)"], runs=[run])]
