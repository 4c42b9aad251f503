# SPDX-License-Identifier: MIT
"""headline: the README's one table, from data/ alone: a few rows that answer what the lab
is for (what a CPU-number read costs, what rseq gains a per-CPU counter, what a registered
area costs a context switch, what CONFIG_RSEQ adds to vmlinux), each with how it was
obtained and the run it came from. The full tables are the report's."""

import os

import figures
import labdata

from labreport import runs as R
from labreport import stats
from labreport.rows import cell, newest_runs


def _host_rows(runs, name):
    """Rows of the newest host run (variant host) holding NAME.csv, and that run."""
    found = newest_runs(runs, name)
    run = found.get(("host", "none"))
    return (run.csv(name + ".csv"), run) if run else ([], None)


def _icount_rows(runs, name, variant="rseq-y"):
    """Rows of the newest icount guest run of VARIANT holding NAME.csv, and that run."""
    run = newest_runs(runs, name).get((variant, "icount"))
    return (run.csv(name + ".csv"), run) if run else ([], None)


def _host(run):
    """ "host: CPU model, N processes" of a host run (hosts differ between runs: each row says
    its own; the range beside a figure is between processes, or one process's reps)."""
    ident, _ = R.host_identity(R.meta(run))
    units = [run.keyvalues(f).first("host_units") for f in ("cpu-read.meta", "percpu.meta")]
    units = next((u.split(",")[0] for u in units if u), "1 process (range: its reps)")
    return "host: %s, %s" % (ident["cpu"] if ident else "CPU not recorded", units)


def _by_method(rows):
    return {r["method"]: r for r in rows if r.get("status") == "ok"}


def _ns(r):
    """Median ns/op with its range (between processes where the run had several)."""
    return "%.2f ns (%.2f-%.2f)" % (cell(r, "ns_per_op"), cell(r, "ns_min"), cell(r, "ns_max"))


def _insn(r):
    """A figure under icount in its unit (figures.op_figure): counted instructions or
    virtual ns."""
    v, unit = figures.op_figure(r)
    return "%.0f %s" % (float(v), unit)


def _reads(runs):
    """CPU-number reads: rseq cpu_id, glibc sched_getcpu, the getcpu system call."""
    out = []
    wanted = (("empty", "the timed loop alone (in every read's figure)"),
              ("rseq-glibc", "read rseq `cpu_id` (glibc's area)"),
              ("sched_getcpu-rseq-on", "glibc `sched_getcpu()` (rseq on)"),
              ("vdso", "vDSO `getcpu`"),
              ("syscall", "`getcpu` system call"))
    for rows, run, how, fmt in ((*_host_rows(runs, "cpu-read"), "host", _ns),
                                (*_icount_rows(runs, "cpu-read"), "icount, rseq-y", _insn)):
        if run is None:
            continue
        how = _host(run) if how == "host" else how
        by = _by_method(rows)
        for method, what in wanted:
            if method in by:
                out.append((what, how, fmt(by[method]), run.name))
    return out


def _counter(runs):
    """Per-CPU counter, one thread: getcpu + atomic over an rseq critical section."""
    out = []
    for rows, run, how in ((*_host_rows(runs, "percpu"), "host"),
                           (*_icount_rows(runs, "percpu"), "icount, rseq-y")):
        if run is None:
            continue
        how = _host(run) if how == "host" else how
        by = {r["method"]: r for r in rows
              if r.get("status") == "ok" and r.get("threads") == "1"}
        a, b = by.get("counter-getcpu-atomic"), by.get("counter-rseq")
        if a and b:
            (va, unit), (vb, unit_b) = figures.op_figure(a), figures.op_figure(b)
            if unit != unit_b or "" in (va, vb):
                continue
            va, vb = float(va), float(vb)
            out.append(("per-CPU counter, 1 thread: getcpu+atomic / rseq", how,
                        "%.3g / %.3g %s = %.1fx" % (va, vb, unit, va / vb), run.name))
    return out


def _switch(runs, ab):
    """What a registered rseq area costs one context switch (ctxsw: boots, paired by round)."""
    # The latest run with an RSEQ=n column: others (turner-2015 beside rseq-y) answer another question.
    run = R.latest_with([r for r in runs if "rseq-n" in
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


def _hackbench(runs, ab):
    """hackbench, glibc registering, RSEQ=y vs RSEQ=n per mode: the change with its interval
    over boots, or why there is none and how many boots +-1 % precision needs."""
    # The main job's kernels (rseq-n vs rseq-y of the default release, x86-64).
    found = [r for r in runs if r.has("hackbench.csv") and r.name.endswith("-hackbench")
             and r.csv("hackbench.csv")[0].get("variant") == "rseq-n"]
    if not found:
        return []
    # Of the runs of the newest run's kernels (their configurations), the one with the most
    # boots (the newest of those): a later, smaller run does not replace a larger one, and a
    # run of kernels built otherwise (before a configuration change) answers for those.
    kernels = _kernels(found[-1])
    found = [r for r in found if _kernels(r) == kernels]
    run = max(enumerate(found), key=lambda ir: (_rounds(ir[1]), ir[0]))[1]
    out = []
    for r in stats.compare(ab, run.path / "hackbench.csv", key="mode,ipc", bench="hackbench"):
        if r.get("variant") != "rseq-y/reg":
            continue
        design = "icount, %s x %s reps" % (r.get("design", "unpaired"), r.get("reps", "?"))
        lo, hi = r.get("rel_lo", "nan"), r.get("rel_hi", "nan")
        if lo in ("", "nan") or hi in ("", "nan"):
            fig = "%+.2f %%, no interval (%s); +-1 %% precision: %s" % (
                float(r["pct"]), r.get("verdict", ""),
                stats.boots_needed_text(r.get("boots_1pct"), r.get("units")))
        else:
            fig = "%+.2f %% [%+.2f, %+.2f], %s" % (float(r["pct"]), float(lo), float(hi),
                                                  r.get("verdict", ""))
        out.append(("hackbench %s, glibc registering: RSEQ=y vs n" % r["key"].replace(",", "/"),
                    design.replace(" units", " boots"), fig, run.name))
    return out


def _kernels(run):
    """A hackbench run's kernels as its meta names them (release and configuration hash)."""
    return sorted(v for k, v in run.keyvalues("hackbench.meta").pairs if k.startswith("kernel "))


def _rounds(run):
    """A hackbench run's boots per column (its meta's rounds:), 0 when it does not say."""
    try:
        return int(run.keyvalues("hackbench.meta").first("rounds") or 0)
    except ValueError:
        return 0


def _size(runs):
    """What CONFIG_RSEQ adds to vmlinux (text, data)."""
    run = R.latest_with(runs, "deltas.csv")
    if not run:
        return []
    for r in run.csv("deltas.csv"):
        if r.get("from") == "rseq-n" and r.get("to") == "rseq-y":
            return [("CONFIG_RSEQ=y: vmlinux text, data", "size(1)",
                     "%+d / %+d bytes" % (int(r["text"]), int(r["data"])), run.name)]
    return []


def rows(runs, ab):
    """The headline's rows: (what, how, figure, run)."""
    return _reads(runs) + _counter(runs) + _switch(runs, ab) + _hackbench(runs, ab) + _size(runs)


def markdown(runs, ab):
    """The headline table in Markdown."""
    out = ["| what | how | figure | run |", "|---|---|---|---|"]
    for what, how, fig, run in rows(runs, ab):
        out.append("| %s | %s | %s | `%s` |" % (what, how, fig, os.path.basename(run)))
    return out
