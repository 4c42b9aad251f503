# SPDX-License-Identifier: MIT
"""percpu's report section (found by labreport.loader): the per-CPU strategies with one
thread, the latest file (percpu*.csv) per environment, the host's first; each strategy's
figure, its spread and its speedup over its group's getcpu + atomic row; plots of one
thread and of each environment's thread scaling."""

import figures

from labreport import axis_kernels as K
from labreport import headline as H
from labreport import rows as R
from labreport import runs as runs_
from labreport.fmt import num, unique
from labreport.model import Plot, Table
from labdata import Run

ORDER = 20

# Each group's getcpu + atomic row, the base of its speedups (as the seed measured them).
BASES = ("counter-getcpu-atomic", "list-cas", "lock-cmpxchg")


def latest(runs):
    """The latest per-CPU CSV (run, file name) per (variant, accel, hardware); make
    strategy's runs (a user's strategies beside some rows) have their own section."""
    found = {}
    for run in runs:
        for name in run.files("percpu*.csv"):
            if run.keyvalues(name[:-4] + ".meta").first("strategy"):
                continue
            key = runs_.first_key(run, name)
            if key:
                found[key] = (run, name)
    return found


def row(env, r, run, host):
    """One figure in its unit (figures.op_figure), ns with their min and max."""
    value, unit = figures.op_figure(r)
    timed = unit == "ns"
    return {"env": env, "variant": r.get("variant", ""), "accel": r.get("accel", ""),
            "method": r.get("method", ""), "label": r.get("label") or r.get("method", ""),
            "threads": r.get("threads", ""), "status": r.get("status", ""),
            "ns": r.get("ns_per_op", ""), "value": value,
            "min": r.get("ns_min", "") if timed else "",
            "max": r.get("ns_max", "") if timed else "",
            "unit": unit, "dir": run, "host": host}


def collect(runs):
    """(rows of every thread count, runs used), the host's environment first."""
    found = latest(runs)
    rows, used = [], []
    for key in runs_.host_first(found):
        run, name = found[key]
        host = run.keyvalues(name[:-4] + ".meta").first("host")
        label = runs_.host_label(run)
        used.append(run)
        rows += [dict(row(runs_.env_name(*key), r, run.name, host), hostid=label)
                 for r in run.csv(name)]
    return rows, used


def single_thread(rows):
    """The rows measured with one thread."""
    return [r for r in rows if num(r["threads"], None) == 1]


def bases(rows):
    """Per group (the method's first word), its getcpu + atomic row."""
    return {r["method"].split("-")[0]: r for r in rows
            if r["method"] in BASES and r["status"] == "ok"}


def strategy_table(runs):
    """make strategy's runs: each one's strategies beside the lab's rows of their shapes."""
    mine = [run for run in runs if is_strategy_run(run)]
    lines = [x for run in mine for x in section(run) + [""]]
    return [Table("Your per-CPU strategies (make strategy)", rows=lines[:-1], runs=mine)] \
        if mine else []


def tables(runs):
    """The hook labreport calls."""
    rows, used = collect(runs)
    if not rows:
        return strategy_table(runs)
    out = ["speedup within each group: counter vs getcpu + lock add, list vs",
           "the CAS list, lock vs lock cmpxchg (seed: 7.7x counter, 1.9x lock);",
           "ns, +-half the min-max range; under icount vns (virtual ns: one",
           "an instruction, the timed loop's included; not an exact count)"]
    for env in unique(r["env"] for r in rows):
        mine = single_thread([r for r in rows if r["env"] == env])
        b = bases(mine)
        first = mine[0] if mine else {}
        out += [env + ":", "  (run %s on %s)" % (first.get("dir", "?"), first.get("host") or "?")]
        out += [x for r in mine for x in R.line(r, b.get(r["method"].split("-")[0]))]
    return [Table("Per-CPU strategies, 1 thread (per op, speedup vs getcpu+atomic)",
                  rows=out, runs=used, facts={"accel": [r["accel"] for r in rows]},
                  plots=plots(rows))] + scaling_tables(rows) + strategy_table(runs)


def scaling_tables(rows):
    """Per environment with two thread counts or more: ns/op per thread by method and thread
    count, from scaling_table (the model its plot draws too)."""
    out = []
    for env in unique(r["env"] for r in rows):
        cells = {}
        for line in scaling_table(rows, env):
            method, threads, ns = line.split("\t")
            cells.setdefault(method, {})[int(threads)] = ns
        counts = sorted({t for c in cells.values() for t in c})
        if len(counts) < 2:
            continue
        unit = next((r["unit"] for r in rows if r["env"] == env), "ns")
        out.append(Table("Per-CPU strategies, thread scaling: " + env,
                         intro=["%s/op per thread (the median unit's), by thread count" % unit],
                         fmt="%-24s" + " %8s" * len(counts),
                         header=[("method",) + tuple("%d thr" % t for t in counts)],
                         rows=[(m,) + tuple(fig(float(c[t])) if t in c else "-" for t in counts)
                               for m, c in cells.items()]))
    return out


def one_thread_table(rows, envs):
    """Per strategy (one thread): figure, min, max in each environment ('?' where none)."""
    cells = {}
    for r in rows:
        ok = r["status"] == "ok" and r["ns"] != ""
        cells[r["method"], r["env"]] = [r["ns"], r["min"] or r["ns"], r["max"] or r["ns"]] \
            if ok else ["?"] * 3
    return ["\t".join([m] + [c for e in envs for c in cells.get((m, e), ["?"] * 3)])
            for m in unique(r["method"] for r in rows)]


def scaling_table(rows, env):
    """method, threads, ns of one environment's rows, by method then thread count."""
    ok = [r for r in rows if r["env"] == env and r["status"] == "ok" and r["ns"] != ""]
    ok.sort(key=lambda r: (r["method"], num(r["threads"])))
    return ["%s\t%s\t%s" % (r["method"], r["threads"], r["ns"]) for r in ok]


def host_of(rows):
    """The hosts of rows, for the titles."""
    return "; ".join(unique(r["hostid"] for r in rows))


def plots(rows):
    """percpu-1thread (the host's ns), percpu-1thread-tcg (emulator ns) and
    percpu-scaling-ENV where an environment ran two or more thread counts. icount
    environments count instructions, not ns: they are left out."""
    rows = [r for r in rows if r["unit"] == "ns"]
    if not rows:
        return []
    envs = unique(r["env"] for r in rows)
    out = []
    # Host ns and emulator ns are different in kind: a plot each.
    for suffix, what, mine in (
            ("", "host ns", [r for r in rows if r["accel"] in ("none", "")]),
            ("-tcg", "emulator ns (QEMU TCG: not CPU timings)",
             [r for r in rows if r["accel"] not in ("none", "")])):
        if not mine:
            continue
        es = unique(r["env"] for r in mine)
        name = "percpu-1thread" + suffix
        out.append(Plot(name, """
set title "Per-CPU strategies, 1 thread, %s: %s\\n(host %s)"
set ylabel 'time per operation (ns/op, median; bars min-max), log scale'
set xlabel 'strategy'
set logscale y
set style data histogram; set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -35 left
envs = '%s'
plot for [i=1:words(envs)] '{work}/%s.dat' using (column(3*i-1)):(column(3*i)):\\
(column(3*i+1)):xtic(1) title word(envs, i)""" % (what, " ".join(es), host_of(mine), " ".join(es), name),
                        {name + ".dat": one_thread_table(single_thread(mine), es)}))
    for env in envs:
        lines = scaling_table(rows, env)
        if len({line.split("\t")[1] for line in lines}) < 2:
            continue
        name = "percpu-scaling-" + env.replace("/", "-")
        methods = " ".join(unique(line.split("\t")[0] for line in lines))
        out.append(Plot(name, """
set title "Per-CPU strategies, thread scaling: %s (host %s)%s"
set ylabel 'time per operation per thread (ns/op), log scale'
set xlabel 'threads'; set xtics 1
set logscale y
methods = '%s'
plot for [i=1:words(methods)] '{work}/%s.dat' using (strcol(1) eq word(methods, i) ? $2 : 1/0):3 \\
with linespoints title word(methods, i)""" % (
            env, host_of([r for r in rows if r["env"] == env]),
            "\\n(an emulator figure: QEMU TCG)" if "/tcg" in env else "", methods, name),
            {name + ".dat": lines}))
    return out


# --- make strategy's runs: percpu runs whose percpu.meta says "strategy:" (the files) and
# "strategy_rows:" (their rows), a user's strategies beside the lab's rows of their shapes.

def _num(s):
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
    units = {figures.op_figure(r)[1] for r in rows if r.get("status") == "ok"}
    unit = "/".join(sorted(units)) or figures.op_figure({"accel": accel})[1]
    timed = unit == "ns"
    threads = sorted({int(r["threads"]) for r in rows if r.get("threads", "").isdigit()})
    methods = list(dict.fromkeys(r["method"] for r in rows))
    cell = {}
    for r in rows:
        v = _num(figures.op_figure(r)[0])
        if r.get("status") != "ok" or v is None:
            cell[r["method"], r["threads"]] = r.get("status") or "?"
        elif not timed:
            cell[r["method"], r["threads"]] = fig(v)
        else:
            lo, hi = _num(r.get("ns_min")), _num(r.get("ns_max"))
            cell[r["method"], r["threads"]] = fig(v) + (
                f" [{fig(lo)}-{fig(hi)}]" if lo is not None and hi is not None else "")
    reps = rows[0].get("reps", "?") if rows else "?"
    where = f"{meta.first('variant') or '?'}, {accel or '?'}"
    out = [f"Your strategies: run {run.name} ({where})",
           f"  files: {meta.first('strategy')}",
           f"  {unit} per op, median of {reps} reps" +
           (" [their min-max]" if timed else "") + "; * your strategy"]
    w = max([len(m) for m in methods] + [8]) + 2
    per = max(len(c) for c in cell.values()) + 2 if cell else 8
    # As many thread counts side by side as 72 columns hold; the rest in blocks below.
    k = max(1, (72 - 2 - w) // per)
    for i in range(0, len(threads), k):
        block = threads[i:i + k]
        out.append(f"  {'strategy':<{w}}" + "".join(f"{str(t) + ' thr':>{per}}" for t in block))
        for m in methods:
            name = m + (" *" if m in mine else "")
            out.append(f"  {name:<{w}}" + "".join(f"{cell.get((m, str(t)), '-'):>{per}}"
                                                 for t in block))
    return out + checked_lines(meta, rows, mine, methods)


def checked_lines(meta, rows, mine, methods):
    """What the interleaving check covered of each row (meta strategy_interleaved:
    name=instructions/interleavings/aborts/waits/passes, comma-separated); for each of your
    strategies also the aborts it declares per Mop and its speed against its .versus."""
    cov = {}
    for item in filter(None, (meta.first("strategy_interleaved") or "").split(",")):
        name, _, figs = item.partition("=")
        cov[name] = figs.split("/")
    versus = dict(item.partition("=")[::2] for item in
                  filter(None, (meta.first("strategy_versus") or "").split(",")))
    out = [f"  interleaving check (every instruction boundary): insn x passes,",
           "  interleavings, aborts; all exact"] if cov else []
    explored = dict(item.partition("=")[::2] for item in
                    filter(None, (meta.first("strategy_explored") or "").split(",")))
    for m in methods:
        if m not in cov and m not in mine:
            continue
        star = " *" if m in mine else ""
        apm = [r.get("aborts_per_mop") for r in rows if r["method"] == m
               and r.get("aborts_per_mop") not in (None, "")]
        if m in cov and len(cov[m]) == 5:
            insn, inter, aborts, _waits, passes = cov[m]
            out.append(f"  {m + star}: {insn} x {passes}, {inter}, {aborts}")
        else:
            out.append(f"  {m + star}: no interleaving check on record")
        if len(explored.get(m, "").split("/")) == 4:
            bound, states, schedules, secs = explored[m].split("/")
            out.append(f"    schedules explored (up to {bound} preemptions, signals,"
                       f" migrations): {states} states, {schedules} to their end, {secs} s")
        if star and apm:
            out.append(f"    {float(apm[0]):.3g} aborts/Mop timed")
        if star:
            out += speedup_line(rows, m, versus.get(m))
    return out


def speedup_line(rows, m, versus):
    """Your row against its .versus at the fewest threads both have: how many times faster."""
    fig = {(r["method"], r["threads"]): _num(r.get("ns_per_op")) for r in rows
           if r.get("status") == "ok"}
    both = min((int(t) for (meth, t), v in fig.items() if meth == m and v
                and fig.get((versus, t))), default=None)
    if not versus or both is None:
        return []
    t = str(both)
    return [f"    {fig[versus, t] / fig[m, t]:.3g}x as fast as {versus} at {t} thr"]


def strategy_report(paths):
    """The strategy section of these run directories, as lines (bench/percpu/strategy-report)."""
    lines = []
    for p in paths:
        run = Run(p)
        if is_strategy_run(run):
            lines += section(run) + [""]
    return lines


def headline(runs, ab):
    """The README headline's row (labreport.headline): the per-CPU counter, one thread,
    getcpu + atomic over an rseq critical section, on the host and under icount."""
    out = []
    for rows, run, how in ((*H.host_rows(runs, "percpu"), "host"),
                           (*H.icount_rows(runs, "percpu"), "icount, rseq-y")):
        if run is None:
            continue
        how = H.host_label(run, "percpu.meta") if how == "host" else how
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


# The kernel-release axis (labreport.axis_kernels): this bench's CSV, its meta, the meta's key
# naming the kernel release; kernel_rows gives the rows.
KERNEL_AXIS = ("percpu.csv", "percpu.meta", "kernel_release")


def kernel_rows(run, accel):
    """(figure name, label, value) of a per-CPU run, one thread."""
    units = K.boots(run, "percpu.meta")
    return [("percpu " + r.get("method", ""), "percpu: " + (r.get("label") or r.get("method", "")),
             K.value(r, accel, units))
            for name in run.files("percpu*.csv") for r in run.csv(name)
            if r.get("threads", "") == "1"]


# The architecture axis (labreport.axis_arch): this bench's rows in the seed's arm32 table,
# (method, label, the seed's ARMv7 ns or None); the seed's rows had no glibc rseq (2018), so
# theirs are ours from the pass with glibc's rseq off ("off:", ARCH_OFF_CSV); then the
# speedups (slow, fast, what, the seed's).
ARCH_CSV = "percpu.csv"
ARCH_OFF_CSV = "percpu-glibc-rseq-off.csv"
ARCH_ROWS = (
    ("off:counter-getcpu-atomic", "counter: getcpu+atomic [off]", 344.0),
    ("off:counter-rseq", "counter: rseq cs [off]", 31.4),
    ("off:lock-cmpxchg", "lock: getcpu + cmpxchg [off]", 751.0),
    ("off:lock-rseq", "lock: rseq try-lock [off]", 128.5),
    ("counter-getcpu-atomic", "counter: getcpu + atomic add", None),
    ("counter-rseq-cpuid-atomic", "counter: rseq cpu_id+atomic", None),
    ("counter-rseq", "counter: rseq critical sect.", None),
    ("counter-tls", "counter: thread-local floor", None),
    ("list-cas", "list: getcpu + CAS push/pop", None),
    ("list-rseq", "list: rseq push/pop", None),
    ("lock-cmpxchg", "lock: getcpu + cmpxchg", None),
    ("lock-rseq", "lock: rseq try-lock", None),
)
ARCH_SPEEDUPS = (
    ("off:counter-getcpu-atomic", "off:counter-rseq", "counter [off]", "11.0x"),
    ("off:lock-cmpxchg", "off:lock-rseq", "lock [off]", "5.8x"),
    ("counter-getcpu-atomic", "counter-rseq", "counter [on]", "-"),
    ("lock-cmpxchg", "lock-rseq", "lock [on]", "-"),
)
