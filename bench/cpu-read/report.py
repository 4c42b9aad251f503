# SPDX-License-Identifier: MIT
"""cpu-read's report section (found by labreport.loader): reading the current CPU number,
the latest run per environment (variant, accelerator, hardware), the host's first, in the
seed's format: figure per op, its spread, the speedup over the getcpu system call."""

import figures as figures_

from labreport import axis_kernels as K
from labreport import headline as H
from labreport import rows as R
from labreport import stats
from labreport import runs as runs_
from labreport.fmt import fold, unique
from labreport.model import Plot, Table

ORDER = 10


def latest(runs):
    """The latest cpu-read run per (variant, accel, hardware)."""
    found = {}
    for run in runs:
        if run.has("cpu-read.csv"):
            key = runs_.first_key(run, "cpu-read.csv")
            if key:
                found[key] = run
    return found


def row(env, r):
    """One figure in its unit (figures.op_figure), ns with their min and max."""
    value, unit = figures_.op_figure(r)
    if unit == "ns":
        figures = (value, r.get("ns_min", ""), r.get("ns_max", ""), unit)
    else:
        figures = (value, "", "", unit)
    names = ("env", "variant", "accel", "method", "label", "status")
    values = (env,) + tuple(r.get(n, "") for n in names[1:])
    return dict(zip(names + ("value", "min", "max", "unit"), values + figures))


def environment(env, run, accel):
    """The environment a run was measured in, from its cpu-read.meta."""
    m = run.keyvalues("cpu-read.meta")
    version = " ".join(m.first("kernel_version").split(" ")[:3])
    return {"env": env, "dir": run.name, "cpu": m.first("cpu_model"),
            "hardware": m.first("hardware"), "job": m.first("lava_job_id"),
            "kernel": "%s %s" % (m.first("kernel_release"), version), "accel": accel,
            "commit": runs_.commit(m), "host": m.first("host"),
            "arch": m.first("lab_arch") or "x86_64", "hostid": runs_.host_label(run),
            "units": (m.first("host_units").split(",") or [""])[0]}


def collect(runs):
    """(rows, environments, runs used): single-thread rows, the host first."""
    found = latest(runs)
    rows, envs = [], []
    for key in runs_.host_first(found):
        run, env = found[key], runs_.env_name(*key)
        rows += [row(env, r) for r in run.csv("cpu-read.csv") if r.get("threads", "") in ("", "1")]
        envs.append(environment(env, run, key[1]))
    return rows, envs, [found[k] for k in runs_.host_first(found)]


def title(e):
    """An environment's heading line."""
    release = (e["kernel"].split() or [""])[0]
    return ("%s: %s, kernel %s" % (e["env"], e["cpu"], release))[:71] + ":"


def base_row(rows, method):
    """The row of a method that measured, the base of the speedups (None without one)."""
    found = [r for r in rows if r["method"] == method and r["status"] == "ok" and r["value"]]
    return found[-1] if found else None


def where(e):
    """Where an environment's figures come from: run, host, lab commit, hardware, job."""
    lines = ["  run %s" % e["dir"], "  on %s, lab %s" % (e.get("host") or "?", e["commit"])]
    if e.get("units"):
        lines.append("  unit: %s (the figure the median process's, the range theirs)" % e["units"])
    else:
        lines.append("  unit: one run (the range is its reps', not a rerun's)")
    if e.get("hardware"):
        lines += fold("  hardware " + e["hardware"])
    if e.get("job"):
        lines += fold("  LAVA job " + e["job"])
    return lines


def latency(rows):
    """Throughput vs dependent (each read feeds the next) figure of each method with both."""
    by = {r["method"]: r for r in rows}
    pairs = [(by[r["method"][:-4]], r) for r in rows
             if r["method"].endswith("-dep") and r["method"][:-4] in by]
    if not pairs:
        return []
    lines = ["  dependent (each read feeds the next) vs throughput:"]
    for thr, dep in pairs:
        if thr["status"] == "ok" and dep["status"] == "ok":
            lines.append("  %-22s %8s -> %8s %s" % (
                thr["method"], R.figure(thr["value"], thr["unit"]),
                R.figure(dep["value"], dep["unit"]), dep["unit"]))
    return lines


def facts(envs):
    """The machine block's facts: the host's CPU and kernel, the accelerators."""
    host = [x for e in envs if e["env"] == "host"
            for x in ("host CPU: " + e["cpu"], "host kernel: " + e["kernel"])]
    return {"host": host, "accel": [e["accel"] for e in envs]}


def tables(runs):
    """The hook labreport calls."""
    rows, envs, used = collect(runs)
    if not rows:
        return []
    used_run = {e["env"]: run for e, run in zip(envs, used)}
    out = ["per op: the median (ns; instructions under icount) of the unit's",
           "line below, then +-half the min-max range; speedup: getcpu",
           "system call / method over the units (lab-ab, paired by unit),",
           "then +-half its 95 % interval; from one unit: the ratio of",
           "medians, +-half its range from the extremes (none: exact counts)"]
    for env in unique(r["env"] for r in rows):
        mine = [r for r in rows if r["env"] == env]
        es = [e for e in envs if e["env"] == env]
        out += [""] + [title(e) for e in es] + [x for e in es for x in where(e)]
        base = base_row(mine, "syscall")
        ab = stats.lab_ab_path()
        out += [x for r in mine if not r["method"].endswith("-dep") for x in R.line(
            r, base, ratio=stats.speedup(ab, used_run[env], "cpu-read.csv", "syscall", r["method"])
            if base is not None and r is not base and r["status"] == "ok" else None)]
        out += latency(mine)
        p = stats.paired_methods(stats.lab_ab_path(), used_run[env], "cpu-read.csv",
                                 "rseq-own", "empty")
        if p:
            out += ["  rseq read - empty loop: %+.2g [%+.2g, %+.2g] %s," % (
                float(p["diff"]), float(p["diff_lo"]), float(p["diff_hi"]), mine[0]["unit"]),
                    "    %s, paired over %s %s (lab-ab)" % (
                        p.get("verdict", ""), p["units"],
                        "boots" if mine[0]["env"] != "host" else "processes")]
        else:
            d = R.difference(base_row(mine, "rseq-own"), base_row(mine, "empty"))
            if d:
                out += ["  rseq read - empty loop: " + d, "    (one unit: its reps, not a rerun's)"]
    t = Table("Reading the current CPU number (seed format)", rows=out, runs=used,
              facts=facts(envs))
    t.plots = plots(rows, envs)
    return [t]


# What differs in kind is never drawn together: host ns, icount instructions, emulator ns.
KINDS = (("host", "time per read on the host (ns/op, median; bars min-max)",
          lambda r: r["env"] == "host" or (r["accel"] == "none" and r["unit"] == "ns")),
         ("icount", "guest instructions per read (icount)",
          lambda r: r["unit"] == "insn"),
         ("tcg", "emulator time per read (QEMU TCG ns: not a CPU timing)",
          lambda r: r["unit"] == "ns" and r["accel"] not in ("none", "")))


def plot_table(rows, envs):
    """Per method: figure, min, max in each environment ('?' where none); a method some
    environment could not measure is marked '*'."""
    cells, marked = {}, set()
    for r in rows:
        ok = r["status"] == "ok" and r["value"] != ""
        if not ok:
            marked.add(r["method"])
        cells[r["method"], r["env"]] = [r["value"], r["min"] or r["value"],
                                        r["max"] or r["value"]] if ok else ["?"] * 3
    return ["\t".join([m + (" *" if m in marked else "")] +
                       [c for e in envs for c in cells.get((m, e), ["?"] * 3)])
            for m in unique(r["method"] for r in rows)]


def plot_title(envs, what):
    """A plot's title: the kernels, architectures and hosts of its environments."""
    kernels = " ".join(unique((e["kernel"].split() or ["?"])[0] for e in envs))
    hosts = "; ".join(unique(e["hostid"] for e in envs))
    return "CPU number reads, %s\\nkernel %s; %s; host %s" % (
        what, kernels, " ".join(unique(e.get("arch") or "x86_64" for e in envs)), hosts)


def plots(rows, envs):
    """One plot per kind of figure that has rows: cpu-read (the host's ns), cpu-read-icount,
    cpu-read-tcg."""
    out = []
    for kind, what, wanted in KINDS:
        mine = [r for r in rows if wanted(r)]
        if not mine:
            continue
        names = unique(r["env"] for r in mine)
        es = [e for e in envs if e["env"] in names]
        log = "set logscale y\n" if kind != "icount" else ""
        out.append(Plot("cpu-read" + ("" if kind == "host" else "-" + kind), """
set title "%s\\n(* : not supported in some environment: no bar)"
set ylabel '%s'
set xlabel 'method'
%sset style data histogram; set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1; set boxwidth 0.9
set xtics rotate by -35 left
envs = '%s'
plot for [i=1:words(envs)] '{work}/cpuread-%s.dat' using (column(3*i-1)):(column(3*i)):\\
(column(3*i+1)):xtic(1) title word(envs, i)""" % (plot_title(es, kind), what, log,
                                                 " ".join(names), kind),
            {"cpuread-%s.dat" % kind: plot_table(mine, names)}))
    return out


def headline(runs, ab):
    """The README headline's rows (labreport.headline): CPU-number reads, rseq cpu_id, glibc
    sched_getcpu, the getcpu system call, on the host and under icount."""
    out = []
    wanted = (("empty", "the timed loop alone (in every read's figure)"),
              ("rseq-glibc", "read rseq `cpu_id` (glibc's area)"),
              ("sched_getcpu-rseq-on", "glibc `sched_getcpu()` (rseq on)"),
              ("vdso", "vDSO `getcpu`"),
              ("syscall", "`getcpu` system call"))
    for rows, run, how, fmt in ((*H.host_rows(runs, "cpu-read"), "host", H.ns_text),
                                (*H.icount_rows(runs, "cpu-read"), "icount, rseq-y", H.icount_text)):
        if run is None:
            continue
        how = H.host_label(run, "cpu-read.meta") if how == "host" else how
        by = H.by_method(rows)
        for method, what in wanted:
            if method in by:
                out.append((what, how, fmt(by[method]), run.name))
    return out


# The kernel-release axis (labreport.axis_kernels): this bench's CSV, its meta, the meta's key
# naming the kernel release; kernel_rows gives the rows.
KERNEL_AXIS = ("cpu-read.csv", "cpu-read.meta", "kernel_release")


def kernel_rows(run, accel):
    """(figure name, value) of a cpu-read run, one thread."""
    units = K.boots(run, "cpu-read.meta")
    return [("cpu-read " + r.get("method", ""), r.get("label") or r.get("method", ""),
             K.value(r, accel, units))
            for r in run.csv("cpu-read.csv") if r.get("threads", "") in ("", "1")]


# The architecture axis (labreport.axis_arch): this bench's rows in the seed's arm32 table,
# (method, label, the seed's ARMv7 ns as its commit message gives them, or None), in the
# seed's order. Its getcpu rows were glibc's getcpu without rseq (2018).
ARCH_CSV = "cpu-read.csv"
ARCH_ROWS = (
    ("empty", "empty loop", 8.4),
    ("rseq-own", "rseq cpu_id read", 16.7),
    ("rseq-glibc", "glibc's rseq cpu_id read", None),
    ("rseq-lazy", "rseq cpu_id (lazy register)", None),
    ("sched_getcpu-rseq-on", "sched_getcpu, glibc rseq on", None),
    ("sched_getcpu-rseq-off", "sched_getcpu, glibc rseq off", 301.8),
    ("vdso", "vDSO getcpu", None),
    ("syscall", "getcpu system call", 234.9),
)
