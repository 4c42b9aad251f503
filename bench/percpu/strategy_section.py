# SPDX-License-Identifier: MIT
"""The report section of make strategy's runs (percpu runs whose percpu.meta says
"strategy:", the files, and "strategy_rows:", their rows): the user's strategies beside the lab's rows of their shapes, per thread count,
ns per op with the reps' range on the host and under TCG, instructions per op under icount.
Used by bench/percpu/strategy-report (the end of make strategy) and report.py."""

from labdata import Run

WIDTH = 72


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def fig(v):
    return f"{v:.3g}" if v < 10 else f"{v:.1f}"


def is_strategy_run(run):
    return run.has("percpu.csv") and bool(run.keyvalues("percpu.meta").first("strategy"))


def section(run):
    """The lines of one run's table."""
    meta = run.keyvalues("percpu.meta")
    rows = run.csv("percpu.csv")
    mine = set((meta.first("strategy_rows") or "").split(","))
    accel = meta.first("accel") or (rows[0].get("accel") if rows else "")
    icount = accel == "icount"
    unit = "insn" if icount else "ns"
    threads = sorted({int(r["threads"]) for r in rows if r.get("threads", "").isdigit()})
    methods = list(dict.fromkeys(r["method"] for r in rows))
    cell = {}
    for r in rows:
        v = num(r.get("ns_per_op"))
        if r.get("status") != "ok" or v is None:
            cell[r["method"], r["threads"]] = r.get("status") or "?"
        elif icount:
            cell[r["method"], r["threads"]] = fig(v)
        else:
            lo, hi = num(r.get("ns_min")), num(r.get("ns_max"))
            cell[r["method"], r["threads"]] = fig(v) + (
                f" [{fig(lo)}-{fig(hi)}]" if lo is not None and hi is not None else "")
    reps = rows[0].get("reps", "?") if rows else "?"
    where = f"{meta.first('variant') or '?'}, {accel or '?'}"
    out = [f"Your strategies: run {run.name} ({where})",
           f"  files: {meta.first('strategy')}",
           f"  {unit} per op, median of {reps} reps" +
           ("" if icount else " [their min-max]") + "; * your strategy"]
    w = max([len(m) for m in methods] + [8]) + 2
    per = max(len(c) for c in cell.values()) + 2 if cell else 8
    head = f"  {'strategy':<{w}}" + "".join(f"{str(t) + ' thr':>{per}}" for t in threads)
    out.append(head)
    for m in methods:
        name = m + (" *" if m in mine else "")
        out.append(f"  {name:<{w}}" + "".join(f"{cell.get((m, str(t)), '-'):>{per}}"
                                             for t in threads))
    return out


def report(paths):
    lines = []
    for p in paths:
        run = Run(p)
        if is_strategy_run(run):
            lines += section(run) + [""]
    return lines
