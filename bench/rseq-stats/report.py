# SPDX-License-Identifier: MIT
"""rseq work on exit to user, Linux 6.19's motivation (found by labreport.loader): the
newest bench/rseq-stats/motivation run per kernel release. Per hackbench mode, from our
backport of upstream's counters: exits to user per message and the share of exits that did
rseq work (slowp + signal) with glibc registering and without; from the guest instructions
(icount) of the plain RSEQ=y kernel with glibc registering (reg) and not (unreg): lab-ab's
95 % interval of reg - unreg per message, and that change divided by the rseq work events
registering added per message (the instructions per exit that did rseq work). The same per
lab-percpu row and thread count from the newest bench/rseq-stats/motivation-percpu run per
release: exits and work per million operations, instructions per operation."""

from labreport import stats
from labreport.model import Table
from labreport.rows import cell

MODES = (("process", "pipe"), ("process", "socket"), ("thread", "pipe"), ("thread", "socket"))


def mean(rows, f):
    """The mean of f(row) over rows."""
    return sum(f(r) for r in rows) / len(rows) if rows else 0.0


def work(r, suffix=""):
    """The rseq work events of a run: the notify-resume handler ran (slowp + signal)."""
    return (cell(r, "slowp" + suffix) or 0) + (cell(r, "signal" + suffix) or 0)


def newest(runs, csv="motivation.csv"):
    """The newest motivation run (with csv) per kernel release, in release order."""
    found = {}
    for run in runs:
        if run.has(csv) and run.has("insn.csv"):
            found[run.keyvalues("motivation.meta").first("release")] = run
    key = lambda rel: tuple(int(x) if x.isdigit() else 0 for x in rel.split("-")[0].split("."))
    return [found[rel] for rel in sorted(found, key=key)]


def lab_ab(run, key="mode,ipc"):
    """lab-ab's reg vs unreg per mode (or per key): {(mode, ipc, variant): its row}, under
    the bench's design (its meta: a round's boots the unit, paired by round), never the
    rounds x reps pooled as if each were a boot."""
    rows = stats.compare(stats.lab_ab_path(), run.path / "insn.csv", key, bench="rseq-stats")
    return {tuple(r["key"].split(",")) + (r.get("variant"),): r for r in rows}


def ci_text(d, lo, hi, fmt):
    """A change and its interval: +16.0 [+2.5, +29.4]; "n<2" when lab-ab gave none."""
    if d is None:
        return "-"
    if lo is None or hi is None:
        return (fmt % d) + " (n<2)"
    return "%s [%s, %s]" % (fmt % d, fmt % lo, fmt % hi)


def short(mode, ipc):
    """process/socket -> proc/sock: the table's first column."""
    return "%s/%s" % (mode[:4] if mode == "process" else mode[:3], ipc[:4])


# Which kernels a column compares across, in its header: "=" upstream's meaning (exit,
# signal, fixup), "~" this kernel's own (6.1/6.12 run the handler and store the ids on
# every pass after a switch, where 6.19 takes its fast path).
LEGEND = ["= compares with 6.19 (exit: x86, arm64); ~ this kernel only:",
          "  work = slowp + signal is 6.19's slowp + fastp + signal; ids"]


def exits(rs, col):
    """The mean exit count of rows, or None where the kernel did not count exit (arm's
    "n/a", or a column that stayed 0): never divided by."""
    vals = [cell(r, col) for r in rs]
    if any(v is None for v in vals) or not any(vals):
        return None
    return mean(rs, lambda r: cell(r, col))


def pct(a, b, width):
    """a / b in per cent, "n/a" when b was not counted."""
    return "%*.2f%%" % (width - 1, 100 * a / b) if b else "%*s" % (width, "n/a")


def counters(rows):
    """Per mode: exits per message, the share of exits doing rseq work with glibc
    registering and without, ids stored per work event."""
    out = ["%-10s %10s %13s %14s %9s" % ("mode/ipc", "exits/msg=", "work/exit on~",
                                        "work/exit off~", "ids/work~")]
    for mode, ipc in MODES:
        rs = [r for r in rows if r["mode"] == mode and r["ipc"] == ipc]
        if not rs:
            continue
        msgs = cell(rs[0], "messages")
        ex, ex_off = exits(rs, "exit"), exits(rs, "exit_off")
        w, w_off = mean(rs, work), mean(rs, lambda r: work(r, "_off"))
        out.append("%-10s %10s %13s %14s %9.3f" % (
            short(mode, ipc), "%.3f" % (ex / msgs) if ex else "n/a", pct(w, ex, 13),
            pct(w_off, ex_off, 14), mean(rs, lambda r: cell(r, "ids")) / w if w else 0))
    return out


def reg_change(a, b):
    """reg - unreg and its interval from lab-ab's rows for reg (a) and unreg (b)."""
    d, lo, hi = cell(a, "diff"), cell(a, "diff_lo"), cell(a, "diff_hi")
    if d is None and cell(b, "diff") is not None:  # lab-ab took reg as its base
        d, lo, hi = -cell(b, "diff"), -cell(b, "diff_hi"), -cell(b, "diff_lo")
    if d is None:  # one run a side: lab-ab compares nothing; the plain difference
        d, lo, hi = cell(a, "mean") - cell(b, "mean"), None, None
    return d, lo, hi


class Compact(str):
    """A %-format for ci_text that writes 10000 and beyond in thousands (+204k), so that a
    wide interval fits the table."""

    def __mod__(self, x):
        return "%+.0fk" % (x / 1000) if abs(x) >= 10000 else "%+.0f" % x


def per_work(d, lo, hi, dw, fmt="%+.0f"):
    """The change per work event added (dw per unit), with the interval scaled alike."""
    if dw <= 0 or d is None:
        return "-"
    return ci_text(d / dw, None if lo is None else lo / dw, None if hi is None else hi / dw,
                   fmt)


def instructions(rows, ab):
    """Per mode: unreg's instructions per message, reg - unreg with lab-ab's 95 % CI, the
    work events registering added per message, and the change per work event (the CI
    scaled by the mean work: the work count's own spread is not in it)."""
    out = ["%-10s %7s %21s %7s %21s" % ("mode/ipc", "unreg", "reg - unreg /msg",
                                        "work", "per work event")]
    for mode, ipc in MODES:
        rs = [r for r in rows if r["mode"] == mode and r["ipc"] == ipc]
        a, b = ab.get((mode, ipc, "reg")), ab.get((mode, ipc, "unreg"))
        if not rs or not a or not b:
            continue
        dw = mean(rs, lambda r: work(r) - work(r, "_off")) / cell(rs[0], "messages")
        d, lo, hi = reg_change(a, b)
        per = per_work(d, lo, hi, dw)
        out.append("%-10s %7.1f %21s %7.4f %21s" % (short(mode, ipc), cell(b, "mean"),
                                                    ci_text(d, lo, hi, "%+.1f"), dw, per))
    return out


def run_head(run, m, detail):
    """A motivation run's first lines: kernel, variants, run name and its knobs (detail)."""
    return ["", "%s (%s; base %s), icount, 1 vCPU" % (
        m.first("release"), m.first("stats_variant"), m.first("base_variant")),
        "run %s:" % run.name, "  " + detail]


def one_run(run):
    """The lines of one motivation run."""
    m = run.keyvalues("motivation.meta")
    rows = run.csv("motivation.csv")
    out = run_head(run, m, "%s rounds x %s runs a mode, hackbench %s" % (
        m.first("rounds"), m.first("reps_per_boot"), m.first("hackbench").split(",")[0]))
    out += counters(rows) + ["instructions per message; reg - unreg per work event added:"]
    return out + instructions(rows, lab_ab(run))


def row_name(method, threads):
    """counter-rseq-cpuid-atomic, 2 threads -> c-rseq-cpuid/2: the per-CPU tables' column."""
    m = method.replace("counter-", "c-").replace("-atomic", "")
    return "%s/%d" % (m, int(float(threads)))


def percpu_rows(rows):
    """The (method, threads) of a percpu motivation run in the order lab-percpu ran them,
    each with its rows (one per round)."""
    keys = []
    for r in rows:
        if (r["method"], r["threads"]) not in keys:
            keys.append((r["method"], r["threads"]))
    return [(k, [r for r in rows if (r["method"], r["threads"]) == k]) for k in keys]


def pc_work(r, suffix=""):
    """A percpu row's rseq work events per Mop: slowp + signal."""
    return (cell(r, "slowp%s_per_mop" % suffix) or 0) + (cell(r, "signal%s_per_mop" % suffix) or 0)


def percpu_counters(rows):
    """Per lab-percpu row and thread count: exits per Mop, the rseq work per exit with glibc
    registering and without, the work registering added per Mop."""
    out = ["%-15s %10s %13s %8s %10s" % ("row/threads", "exits/Mop=", "work/exit on~",
                                          "off~", "added/Mop~")]
    for (m, t), rs in percpu_rows(rows):
        ex, ex_off = exits(rs, "exit_per_mop"), exits(rs, "exit_off_per_mop")
        w, w_off = mean(rs, pc_work), mean(rs, lambda r: pc_work(r, "_off"))
        out.append("%-15s %10s %13s %8s %10.2f" % (
            row_name(m, t), "%.1f" % ex if ex else "n/a",
            "%.1f%%" % (100 * w / ex) if ex else "n/a",
            "%.1f%%" % (100 * w_off / ex_off) if ex_off else "n/a", w - w_off))
    return out


def percpu_instructions(rows, ab):
    """Per row: unreg's instructions per op, reg - unreg per op with lab-ab's interval, and
    that per work event registering added."""
    out = ["%-15s %6s %23s %21s" % ("row/threads", "unreg", "reg - unreg /op",
                                    "per work event")]
    for (m, t), rs in percpu_rows(rows):
        a, b = ab.get((m, t, "reg")), ab.get((m, t, "unreg"))
        if not a or not b:
            continue
        d, lo, hi = reg_change(a, b)
        dw = mean(rs, lambda r: pc_work(r) - pc_work(r, "_off")) / 1e6
        out.append("%-15s %6.1f %23s %21s" % (row_name(m, t), cell(b, "mean"),
                                              ci_text(d, lo, hi, "%+.3f"),
                                              per_work(d, lo, hi, dw, Compact())))
    return out


def percpu_run(run):
    """The lines of one motivation-percpu run."""
    m = run.keyvalues("motivation.meta")
    rows = run.csv("motivation-percpu.csv")
    out = run_head(run, m, "%s rounds, lab-percpu %s" % (m.first("rounds"), m.first("percpu")))
    out += percpu_counters(rows) + ["instructions per op; reg - unreg per work event added:"]
    return out + percpu_instructions(rows, lab_ab(run, "method,threads"))


def tables(runs):
    """The hook labreport calls."""
    found, pc = newest(runs), newest(runs, "motivation-percpu.csv")
    if not found and not pc:
        return []
    out = ["hackbench with glibc registering rseq (on) and not (off); exits,",
            "work (slowp + signal: the notify-resume handler ran) and ids from",
            "our backport of upstream's counters; instructions under icount.",
            "Thread modes repeat exactly for a seed; process modes, process/",
            "socket most, land on other trajectories (bench/hackbench), so the",
            "per-work figure is a difference of two chaotic totals: read its CI."] + LEGEND
    for run in found:
        out += one_run(run)
    if pc:
        out += ["", "The per-CPU benches (lab-percpu rows; /2: two threads on the one",
                "vCPU), per million operations; instructions per operation:"]
    for run in pc:
        out += percpu_run(run)
    return [Table("rseq work on exit to user (6.19's motivation)", rows=out,
                  runs=sorted(found + pc, key=lambda r: r.name))]
