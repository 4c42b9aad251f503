# SPDX-License-Identifier: MIT
"""report_plots: the report's plots. For each, a gnuplot script and its data files are
written to a work directory and gnuplot draws PLOTS/NAME.png and PLOTS/NAME.svg:
cpu-read (bars, log scale, min-max bars), hackbench (every run and the mean with its 95 %
CI), kernel-size (bytes vs the RSEQ=n variant), percpu-1thread and percpu-scaling-ENV when
per-CPU data exist. Plots whose data are absent are removed, not left stale."""

import re
import shutil
import subprocess
from pathlib import Path

from report_data import single_thread
from report_fmt import awk_str, num
from report_text import unique, words


class PlotError(Exception):
    """gnuplot is missing or failed (the message says which)."""


TERMINALS = {
    "png": "set terminal pngcairo size 1100,600 font ',10'",
    "svg": "set terminal svg size 1100,600 font 'sans,10' dynamic",
}


def script(name, body, plots, kind):
    """The whole gnuplot script drawing one plot as PLOTS/NAME.KIND."""
    return "\n".join([
        TERMINALS[kind],
        "set output '%s/%s.%s'" % (plots, name, kind),
        "set datafile separator '\\t'; set datafile missing '?'",
        "set key outside right top; set grid ytics; set termoption noenhanced",
        body]) + "\n"


def draw(name, body, plots, work):
    """Render one plot body to PNG and SVG; the scripts stay in the work directory."""
    for kind in TERMINALS:
        gp = Path(work) / ("%s.%s.gp" % (name, kind))
        gp.write_text(script(name, body, plots, kind))
        with open(gp) as src:
            done = subprocess.run(["gnuplot"], stdin=src, stderr=subprocess.PIPE,
                                  text=True, errors="replace")
        if done.returncode != 0:
            first = "".join(line + " " for line in done.stderr.splitlines()[:3])
            raise PlotError("gnuplot failed on %s: %s" % (name, first))


def write_table(path, lines):
    """A gnuplot data file: tab-separated lines."""
    Path(path).write_text("".join(line + "\n" for line in lines))


def host_cpu(t):
    """The host's CPU, for the titles."""
    cpu = "\n".join(e["cpu"] for e in t.envs if e["env"] == "host")
    if not cpu and t.hb:
        cpu = t.hb.meta.joined("host_cpu")
    return cpu or "unknown CPU"


def cpuread_table(rows, envs):
    """Per method: median, min, max in each environment ('?' where none)."""
    cells = {}
    for r in rows:
        ok = r["status"] == "ok" and r["value"] != ""
        cells[r["method"], r["env"]] = [r["value"], r["min"], r["max"]] if ok else ["?"] * 3
    return ["\t".join([m] + [c for e in envs for c in cells.get((m, e), ["?"] * 3)])
            for m in unique(r["method"] for r in rows)]


def plot_cpuread(t, plots, work, cpu):
    """CPU-number reads: one cluster per method, one bar per environment. (icount
    environments count instructions, not ns: they are left out of this plot.)"""
    rows = [r for r in t.cpuread if r["unit"] == "ns"]
    if not rows:
        return
    envs = unique(r["env"] for r in rows)
    write_table(Path(work) / "cpuread.dat", cpuread_table(rows, envs))
    accels = words(sorted({r["accel"] for r in rows if "none" not in r["accel"]}))
    draw("cpu-read", """
set title "Reading the current CPU number: host %s; guests under QEMU %s\\n\
(TCG/icount guest figures are emulator figures)"
set ylabel 'time per read (ns/op, median; bars min-max), log scale'
set xlabel 'method'
set logscale y; set yrange [0.1:*]
set style data histogram; set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1; set boxwidth 0.9
set xtics rotate by -35 left
envs = '%s'
plot for [i=1:words(envs)] '%s/cpuread.dat' using (column(3*i-1)):(column(3*i)):\
(column(3*i+1)):xtic(1) title word(envs, i)""" % (cpu, accels or "none", words(envs), work),
         plots, work)


def hb_points(rows, ki, vi):
    """Every hackbench run: x (its column, spread a little), figure, variant index."""
    nv, seen, lines = len(vi), {}, []
    for r in rows:
        key, variant = r.get("mode", "") + "," + r.get("ipc", ""), r.get("variant", "")
        seen[key, variant] = seen.get((key, variant), 0) + 1
        x = ki.get(key, 0) * (nv + 1) + vi.get(variant, 0) + 0.06 * (seen[key, variant] - 3)
        lines.append("%s\t%s\t%s" % (awk_str(x), r.get("value", ""), vi.get(variant, "")))
    return lines


def hb_means(ab, ki, vi):
    """Each column's mean and the half-width of its 95 % CI (0 where undefined)."""
    nv = len(vi)
    return ["%s\t%s\t%s" % (awk_str(ki[r["key"]] * (nv + 1) + vi[r["variant"]]), r["mean"],
                            "0" if r["ci"] == "nan" else r["ci"]) for r in ab]


def hb_xtics(keys, nv):
    """One x tic per mode/ipc, under the middle of its columns."""
    return ", ".join('"%s" %s' % (k.replace(",", "/", 1), "%g" % (i * (nv + 1) + (nv - 1) / 2))
                     for i, k in enumerate(keys))


def plot_hackbench(t, plots, work, cpu):
    """hackbench: every run as a point, the mean with its 95 % CI, grouped by mode/ipc."""
    if not t.hb:
        return
    hb = t.hb
    accel = hb.meta.joined("accel")
    unit = "G instructions (icount)" if accel == "icount" else "seconds (%s)" % accel
    variants, keys = unique(r["variant"] for r in hb.ab), unique(r["key"] for r in hb.ab)
    vi = {v: i for i, v in enumerate(variants)}
    ki = {k: i for i, k in enumerate(keys)}
    write_table(Path(work) / "hb-points.dat", hb_points(hb.rows, ki, vi))
    write_table(Path(work) / "hb-means.dat", hb_means(hb.ab, ki, vi))
    params = "\n".join(p.split(";")[0] for p in hb.meta.all("params"))
    draw("hackbench", """
set title "hackbench (Debian rt-tests) per kernel variant, guests under QEMU %s on %s\\n\
%s, every run and the mean with its 95 %% CI"
set ylabel 'hackbench Time: %s'
set xlabel 'mode / IPC'
set xtics (%s)
set xrange [-0.7:*]
vars = '%s'
plot for [i=1:words(vars)] '%s/hb-points.dat' using ($3 == i-1 ? $1 : 1/0):2 with points \
pt 7 ps 0.8 lc i title word(vars, i),      '%s/hb-means.dat' using 1:2:3 with yerrorbars \
pt 5 ps 1.2 lw 2 lc rgb 'black' title 'mean, 95 %% CI'""" % (
        accel, cpu, params, unit, hb_xtics(keys, len(variants)), words(variants), work, work),
         plots, work)


def size_base(sizes):
    """The row sizes are compared with: the RSEQ=n variant, else the first."""
    return next((r for r in sizes if r.get("rseq") == "n"), sizes[0] if sizes else {})


def size_table(sizes):
    """Bytes of text, data, bss and code each variant has more than the base."""
    base = size_base(sizes)
    cols = ("text", "data", "bss", "code")
    return ["\t".join([r.get("variant", "")] +
                      [awk_str(num(r.get(c)) - num(base.get(c))) for c in cols])
            for r in sizes]


def plot_sizes(t, plots, work, cpu):
    """Kernel size: bytes added per variant over the RSEQ=n one (or the first)."""
    if t.sizes is None:
        return
    write_table(Path(work) / "size.dat", size_table(t.sizes))
    base = next((r.get("variant", "") for r in t.sizes if r.get("rseq") == "n"), "")
    release = t.sizes[0].get("release", "") if t.sizes else ""
    draw("kernel-size", """
set title "vmlinux size per variant, bytes more than %s (size(1); code = text symbols)\\n\
Linux %s x86-64, built on %s"
set ylabel 'bytes vs %s'
set xlabel 'kernel variant'
set style data histogram; set style histogram clustered gap 1
set style fill solid 0.7 border -1
set xzeroaxis lt -1
plot '%s/size.dat' using 2:xtic(1) title 'text', '' using 3 title 'data', '' using 4 \
title 'bss', '' using 5 title 'code'""" % (
        base or "the first variant", release, cpu, base or "first variant", work),
         plots, work)


def percpu_table(rows, envs):
    """Per strategy (one thread): its figure in each environment ('?' where none)."""
    cells = {}
    for r in rows:
        cells[r["method"], r["env"]] = r["ns"] if r["status"] == "ok" and r["ns"] != "" else "?"
    return ["\t".join([m] + [cells.get((m, e), "?") for e in envs])
            for m in unique(r["method"] for r in rows)]


def gnu_sort_number(text):
    """The number `sort -n` sees at the start of a field (0 if none)."""
    m = re.match(r"\s*(-?\d*\.?\d*)", text)
    try:
        return float(m.group(1))
    except ValueError:
        return 0.0


def scaling_table(rows, env):
    """method, threads, ns of one environment's runs, by method then thread count."""
    lines = ["%s\t%s\t%s" % (r["method"], r["threads"], r["ns"]) for r in rows
             if r["env"] == env and r["status"] == "ok" and r["ns"] != ""]
    return sorted(lines, key=lambda line: (line.split("\t")[0],
                                           gnu_sort_number(line.split("\t")[1]), line))


def plot_scaling(env, rows, plots, work, cpu):
    """One environment's strategies over thread counts (when it ran two or more)."""
    name = "percpu-scaling-" + env.replace("/", "-")
    lines = scaling_table(rows, env)
    write_table(Path(work) / (name + ".dat"), lines)
    if len({line.split("\t")[1] for line in lines}) < 2:
        return
    methods = words(unique(line.split("\t")[0] for line in lines))
    draw(name, """
set title "Per-CPU strategies, thread scaling: %s (host %s)%s"
set ylabel 'time per operation per thread (ns/op), log scale'
set xlabel 'threads'; set xtics 1
set logscale y
methods = '%s'
plot for [i=1:words(methods)] '%s/%s.dat' using (strcol(1) eq word(methods, i) ? $2 : 1/0):3 \
with linespoints title word(methods, i)""" % (env, cpu, "\\n(an emulator figure: QEMU TCG)" if "/tcg" in env
                                              else "", methods, work, name), plots, work)


def plot_percpu(t, plots, work, cpu):
    """Per-CPU strategies with one thread, then each environment's thread scaling.
    (icount environments count instructions, not ns: they are left out.)"""
    rows = [r for r in t.percpu if r.get("unit", "ns") == "ns"]
    if not rows:
        return
    envs = unique(r["env"] for r in rows)
    write_table(Path(work) / "percpu1.dat", percpu_table(single_thread(rows), envs))
    draw("percpu-1thread", """
set title "Per-CPU strategies, 1 thread: %s (host %s)\\n\
(guest figures under QEMU TCG are emulator figures, not CPU timings)"
set ylabel 'time per operation (ns/op, median), log scale'
set xlabel 'strategy'
set logscale y
set style data histogram; set style histogram clustered gap 1
set style fill solid 0.6 border -1
set xtics rotate by -35 left
envs = '%s'
plot for [i=1:words(envs)] '%s/percpu1.dat' using (column(i+1)):xtic(1) title word(envs, i)"""
         % (words(envs), cpu, words(envs), work), plots, work)
    for env in envs:
        plot_scaling(env, rows, plots, work, cpu)


def remove_old(plots):
    """Plots of an earlier report, so that none is left stale."""
    for old in list(Path(plots).glob("*.png")) + list(Path(plots).glob("*.svg")):
        if not old.name.startswith(".") and not old.is_dir():
            old.unlink()


def plot_all(t, plots, work):
    """Every plot the data allow, into plots (a path as given), scripts into work."""
    remove_old(plots)
    if not shutil.which("gnuplot"):
        raise PlotError("gnuplot not found (apt-get install gnuplot-nox)")
    cpu = host_cpu(t)
    for plot in (plot_cpuread, plot_hackbench, plot_sizes, plot_percpu):
        plot(t, plots, work, cpu)
