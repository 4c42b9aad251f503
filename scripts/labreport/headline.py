# SPDX-License-Identifier: MIT
"""headline: the README's one table, from data/ alone: a few rows that answer what the lab
is for (what a CPU-number read costs, what rseq gains a per-CPU counter, what a registered
area costs a context switch, what CONFIG_RSEQ adds to vmlinux), each with how it was
obtained and the run it came from; each bench gives its rows (its report.py's headline),
with the helpers here. The full tables are the report's."""

import os

import figures

from labreport import loader
from labreport import runs as R
from labreport.rows import cell, newest_runs


def host_rows(runs, name):
    """Rows of the newest host run (variant host) holding NAME.csv, and that run."""
    found = newest_runs(runs, name)
    run = found.get(("host", "none"))
    return (run.csv(name + ".csv"), run) if run else ([], None)


def icount_rows(runs, name, variant="rseq-y"):
    """Rows of the newest icount guest run of VARIANT holding NAME.csv, and that run."""
    run = newest_runs(runs, name).get((variant, "icount"))
    return (run.csv(name + ".csv"), run) if run else ([], None)


def host_label(run, meta):
    """ "host: CPU model, N processes" of a host run, from its bench's meta (hosts differ
    between runs: each row says its own; the range beside a figure is between processes, or
    one process's reps)."""
    ident, _ = R.host_identity(R.meta(run))
    units = run.keyvalues(meta).first("host_units")
    units = units.split(",")[0] if units else "1 process (range: its reps)"
    return "host: %s, %s" % (ident["cpu"] if ident else "CPU not recorded", units)


def by_method(rows):
    return {r["method"]: r for r in rows if r.get("status") == "ok"}


def ns_text(r):
    """Median ns/op with its range (between processes where the run had several)."""
    return "%.2f ns (%.2f-%.2f)" % (cell(r, "ns_per_op"), cell(r, "ns_min"), cell(r, "ns_max"))


def icount_text(r):
    """A figure under icount in its unit (figures.op_figure): counted instructions or
    virtual ns."""
    v, unit = figures.op_figure(r)
    return "%.0f %s" % (float(v), unit)


def rows(runs, ab):
    """The headline's rows: (what, how, figure, run), each bench's own (its report.py's
    headline(runs, ab), in the report's order): nothing here names a bench."""
    return [row for mod in loader.bench_sections() if hasattr(mod, "headline")
            for row in mod.headline(runs, ab)]


def markdown(runs, ab):
    """The headline table in Markdown."""
    out = ["| what | how | figure | run |", "|---|---|---|---|"]
    for what, how, fig, run in rows(runs, ab):
        out.append("| %s | %s | %s | `%s` |" % (what, how, fig, os.path.basename(run)))
    return out
