# SPDX-License-Identifier: MIT
"""hackbench's report section (found by labreport.loader): the RSEQ=y vs RSEQ=n A/B of the
latest run per architecture and kernel releases (the main job's 6.1 kernels, make modern's
6.12 ones, an ARM guest's), each with lab-ab's comparison (labreport.stats, with the unit
and pairing bench/hackbench/meta declares), one sentence per comparison and the rseq
counters; then, where two or more architectures ran the same releases under icount, their
changes side by side; and the plot of the first run."""

import re

from labreport import stats
from labreport.fmt import fold, num, number, unique
from labreport.model import Plot, Table
from labreport.runs import host_label, release_key

ORDER = 30
ARCHES = ("x86_64", "arm64", "arm")
MODES = (("process,pipe", "proc/pipe"), ("process,socket", "proc/sock"),
         ("thread,pipe", "thr/pipe"), ("thread,socket", "thr/sock"))
COLUMNS = (("rseq-y/unreg", "RSEQ=y, glibc unreg"), ("rseq-y/reg", "RSEQ=y, glibc reg"))
VERDICTS = {"base": "base", "significant": "yes", "too few runs": "few"}


class Run:
    """One hackbench run: its rows, its metadata, lab-ab's comparison, counter means."""

    def __init__(self, run, ab):
        self.run = run
        self.name = run.name
        self.rows = run.csv("hackbench.csv")
        self.meta = run.keyvalues("hackbench.meta")
        self.ab = stats.compare(ab, run.path / "hackbench.csv", bench="hackbench")
        self.counters = counter_means(self.rows)


def counter_means(rows):
    """Mean rseq counters per (variant, mode, ipc) over the rows that have them, sorted:
    a display average of a kernel counter, not an A/B statistic."""
    sums = {}
    for r in rows:
        if r.get("notify_resume", "") == "":
            continue
        s = sums.setdefault((r["variant"], r["mode"], r["ipc"]), [0, 0.0, 0.0])
        s[0] += 1
        s[1] += num(r["notify_resume"])
        s[2] += num(r.get("cpu_id_updates"))
    return [k + (nr / n, cu / n) for k, (n, nr, cu) in sorted(sums.items())]


def kernels(meta):
    """(variant, release, rseq, config12) from hackbench.meta's "kernel V: ..." lines."""
    pattern = re.compile(r"([^ ]*) config_sha256 (.{12}).* rseq (.)")
    found = []
    for key, value in meta.pairs:
        m = pattern.fullmatch(value)
        if key.startswith("kernel ") and ":" not in key and m:
            found.append((key[len("kernel "):], m.group(1), m.group(3), m.group(2)))
    return found


def run_key(run):
    """What a run compares: its architecture and its kernels' releases."""
    m = run.keyvalues("hackbench.meta")
    releases = sorted({v.split(" ")[0] for k, v in m.pairs
                       if k.startswith("kernel ") and ":" not in k}, key=release_key)
    return (m.first("lab_arch") or "x86_64", tuple(releases))


def latest(runs):
    """The latest run per architecture and releases, x86_64 first, lower releases first."""
    found = {}
    for run in runs:
        if run.has("hackbench.csv"):
            found[run_key(run)] = run
    order = sorted(found, key=lambda k: (k[0] != "x86_64", k[0], [release_key(r) for r in k[1]]))
    return [found[k] for k in order]


def describe(variant):
    """What a column means, for the sentences (rseq-n-6.12 is RSEQ=n as rseq-n is)."""
    if re.sub(r"-[0-9]+\.[0-9]+$", "", variant) == "rseq-n":
        return "RSEQ=n"
    for suffix, how in (("/reg", "with"), ("/unreg", "without")):
        if variant.endswith(suffix):
            return "%s (RSEQ=y) %s glibc registration" % (variant[:-len(suffix)], how)
    return variant


def ab_table(ab):
    """lab-ab's comparison: one row per variant, the key once per group."""
    w = min(18, max([16] + [len(r["variant"]) for r in ab]))
    fmt = "%-14s %-" + str(w) + "s %3s %8s %7s %10s %s"
    rows, last = [("mode/ipc", "variant", "n", "mean", "sd", "change", "p<.05")], None
    for r in ab:
        key = "" if r["key"] == last else r["key"].replace(",", "/", 1)
        last = r["key"]
        base = r["verdict"] == "base"
        rows.append((key, r["variant"][:w], "%d" % num(r["n"]), "%.4f" % num(r["mean"]),
                     "%.4f" % num(r["sd"]), "base" if base else r["marker"],
                     "" if base else VERDICTS.get(r["verdict"], "no")))
    return fmt, rows


def sentences(ab, what):
    """One sentence per comparison, its interval, verdict and what the interval resolves."""
    lines = []
    for r in ab:
        if r["verdict"] == "base":
            continue
        key = r["key"]
        iv = stats.interval(r)
        words = stats.precision_words(r)
        if r.get("runs_ci_1pct", "") not in ("", "nan", "0"):
            words.append("runs a side for +-1 %%: %s" % r["runs_ci_1pct"])
        if ";" in r.get("modes", ""):
            words.append("modes " + ", ".join(m.replace("x", " x", 1)
                                              for m in r["modes"].split(";")))
        lines += fold("%s, %s: %s: %+.1f %%%s%s %s vs %s (%s, n=%s each%s)." % (
            key.rsplit(",", 1)[0], key.split(",", 1)[-1], describe(r["variant"]),
            num(r["pct"]), " [%+.1f, %+.1f]" % iv if iv else "", stats.adjusted(r), what,
            describe(r["base"]), r["verdict"], r["n"],
            "; " + "; ".join(words) if words else ""))
    return lines


def idle_note(hb):
    """Under icount with sleep=off an idle guest's clock jumps to the next timer: name the
    modes whose runs had idle ticks, whose figures are then virtual time."""
    idle = unique("%s/%s" % (r["mode"], r["ipc"]) for r in hb.rows
                  if num(r.get("idle_ticks", "")) > 0)
    if not idle:
        return []
    return fold("virtual time, not pure instructions, in %s: their runs had idle ticks "
                "(the clock jumps to the next timer; idle_ticks in hackbench.csv)."
                % ", ".join(idle)) + [""]


def params(hb):
    """hackbench's options, without the note after ';'."""
    return "\n".join(p.split(";")[0] for p in hb.meta.all("params"))


# The units hackbench.csv's rows are in (its run writes them), as the report names them.
UNITS = {"Ginsn": ("G instructions", "instructions"), "s": ("s", "time")}


def unit_of(hb):
    """(unit, what it measures) of a run's figures, from its rows' unit column."""
    units = unique(r.get("unit", "") for r in hb.rows)
    return UNITS.get(units[0], (units[0], units[0])) if len(units) == 1 else ("/".join(units), "mixed")


def one(hb, named):
    """One run's tables; named: its title says its architecture and kernels."""
    accel = hb.meta.joined("accel")
    unit, measures = unit_of(hb)
    what = ""
    if named:
        arch = hb.meta.first("lab_arch") or "x86_64"
        what = ", %s%s" % ("" if arch == "x86_64" else arch + " ",
                           " ".join(unique(k[1] for k in kernels(hb.meta))))
    design = stats.design_text(hb.ab, hb.rows)
    intro = ["Debian rt-tests hackbench %s, %s boots" % (params(hb), hb.meta.joined("rounds")),
             "per column interleaved; Welch's t test at 95 %, Holm over the",
             "comparisons; [interval] of the change; resolved: within +-1 %."]
    if design:
        intro = ["Debian rt-tests hackbench %s;" % params(hb), "design: %s;" % design,
                 "[interval] of the change; Holm over the comparisons;",
                 "+-1 % precision: half-width <= 1 %; within +-1 %: the whole",
                 "interval inside +-1 %."]
    intro += ["kernels: " + ", ".join("%s %s" % (k[0], k[1]) for k in kernels(hb.meta)),
              "run: %s on %s" % (hb.name, hb.meta.first("host") or "?"), ""]
    fmt, rows = ab_table(hb.ab)
    t = Table("hackbench A/B%s (%s, figures in %s)" % (what, accel, unit),
              intro=intro + idle_note(hb), fmt=fmt, header=rows[:1], rows=rows[1:],
              notes=[""] + sentences(hb.ab, measures),
              runs=[hb.run])
    if not hb.counters:
        return [t]
    counters = Table(None, intro=["", "rseq counters per hackbench run (rseq-stats kernels, mean):"],
                     fmt="%-16s %-15s %14s %14s",
                     header=[("variant", "mode/ipc", "notify_resume", "cpu_id_updates")],
                     rows=[(v[:16], m + "/" + i, "%.0f" % nr, "%.0f" % cu)
                           for v, m, i, nr, cu in hb.counters])
    return [t, counters]


def change(r):
    """A comparison row as "+0.8 [-3.1, +4.6]", "*" when significant after Holm."""
    if r is None or number(r.get("pct")) is None:
        return "-"
    iv = stats.interval(r)
    text = "%+.1f" % num(r["pct"]) + (" [%+.1f, %+.1f]" % iv if iv else "")
    return text + ("*" if r.get("verdict") == "significant" else "")


def arch_table(release, found):
    """One release's side-by-side lines; found: {arch: Run}."""
    idle = [label for key, label in MODES
            if any(num(r.get("idle_ticks", "")) > 0 for a in found
                   for r in found[a].rows if r["mode"] + "," + r["ipc"] == key)]
    out = ["kernels %s; %% change of the mean vs rseq-n [95 %% interval]," % release,
           "* significant after Holm; virtual time, not pure instructions",
           "(idle ticks in the runs): %s." % (", ".join(idle) or "none"),
           "%-9s %-6s %6s  %-21s %s" % ("mode/ipc", "arch", "rseq-n", COLUMNS[0][1],
                                         COLUMNS[1][1]),
           "%-9s %-6s %6s" % ("", "", "Ginsn")]
    for key, label in MODES:
        first = True
        for a in ARCHES:
            if a not in found:
                continue
            rows = {r["variant"]: r for r in found[a].ab if r["key"] == key}
            base = rows.get("rseq-n")
            mean = "%.3f" % num(base["mean"]) if base else "-"
            cells = [change(rows.get(v)) for v, _ in COLUMNS]
            out.append("%-9s %-6s %6s  %-21s %s" % (label if first else "", a, mean, *cells))
            first = False
    for a in ARCHES:
        if a in found:
            side = max((int(num(r["n"])) for r in found[a].ab), default=0)
            design = stats.design_text(found[a].ab, found[a].rows)
            out.append("%s: run %s, %d %s a side" % (a, found[a].name[:16], side,
                                                    "units" if design else "runs"))
    return out


def per_arch(hbs):
    """The icount runs of two or more architectures on the same releases, side by side."""
    newest = {}
    for hb in hbs:
        if hb.meta.first("accel") == "icount":
            arch, releases = run_key(hb.run)
            newest[(arch, " ".join(releases))] = hb
    shared = [rel for rel in sorted({rel for (_, rel) in newest})
              if sum((a, rel) in newest for a in ARCHES) >= 2]
    if not shared:
        return []
    out = []
    for i, rel in enumerate(shared):
        found = {a: newest[(a, rel)] for a in ARCHES if (a, rel) in newest}
        out += ([""] if i else []) + arch_table(rel, found)
    return [Table("hackbench RSEQ=y vs RSEQ=n per architecture (icount)", rows=out,
                  runs=[newest[k].run for k in sorted(newest)])]


def facts(hb):
    """The machine block's facts from the first run: fallbacks for the host CPU and the
    kernels, QEMU and the accelerator."""
    ks = ["kernel %s: %s, RSEQ=%s, config %s" % k for k in kernels(hb.meta)]
    return {"host?": ["host CPU: " + c for c in hb.meta.all("host_cpu")[:1]],
            "kernel?": ks, "qemu": hb.meta.all("qemu"), "accel": hb.meta.all("accel")}


def tables(runs):
    """The hook labreport calls."""
    found = latest(runs)
    if not found:
        return []
    ab = stats.lab_ab_path()
    hbs = [Run(run, ab) for run in found]
    out = [t for hb in hbs for t in one(hb, len(hbs) > 1)] + per_arch(hbs)
    out[0].facts = facts(hbs[0])
    out[0].plots = plots(hbs[0])
    return out


def points(rows, ki, vi):
    """Every run: x (its column, spread a little), figure, variant index."""
    nv, seen, lines = len(vi), {}, []
    for r in rows:
        key, variant = r.get("mode", "") + "," + r.get("ipc", ""), r.get("variant", "")
        seen[key, variant] = seen.get((key, variant), 0) + 1
        x = ki.get(key, 0) * (nv + 1) + vi.get(variant, 0) + 0.06 * (seen[key, variant] - 3)
        lines.append("%g\t%s\t%s" % (x, r.get("value", ""), vi.get(variant, "")))
    return lines


def means(ab, ki, vi):
    """Each column's mean and the half-width of its 95 % CI (0 where undefined)."""
    nv = len(vi)
    return ["%g\t%s\t%s" % (ki[r["key"]] * (nv + 1) + vi[r["variant"]], r["mean"],
                            "0" if number(r["ci"]) is None else r["ci"]) for r in ab]


def plots(hb):
    """hackbench.png: every run as a point, the mean with its 95 % CI, per mode/ipc; the
    title names the kernels, the architecture and the host."""
    accel = hb.meta.joined("accel")
    unit = "%s (%s)" % ({"s": "seconds"}.get(unit_of(hb)[0], unit_of(hb)[0]), accel)
    variants, keys = unique(r["variant"] for r in hb.ab), unique(r["key"] for r in hb.ab)
    vi = {v: i for i, v in enumerate(variants)}
    ki = {k: i for i, k in enumerate(keys)}
    nv = len(variants)
    xtics = ", ".join('"%s" %g' % (k.replace(",", "/", 1), i * (nv + 1) + (nv - 1) / 2)
                      for i, k in enumerate(keys))
    ks = ", ".join("%s %s" % (k[0], k[1]) for k in kernels(hb.meta))
    host = host_label(hb.run)
    return [Plot("hackbench", """
set title "hackbench (Debian rt-tests), %s guests under QEMU %s on %s\\n\
kernels %s; %s; every run and the mean with its 95 %% CI"
set ylabel 'hackbench Time: %s'
set xlabel 'mode / IPC'
set xtics (%s)
set xrange [-0.7:*]
vars = '%s'
plot for [i=1:words(vars)] '{work}/hb-points.dat' using ($3 == i-1 ? $1 : 1/0):2 with points \\
pt 7 ps 0.8 lc i title word(vars, i),      '{work}/hb-means.dat' using 1:2:3 with yerrorbars \\
pt 5 ps 1.2 lw 2 lc rgb 'black' title 'mean, 95 %% CI'""" % (
        hb.meta.first("lab_arch") or "x86_64", accel, host, ks, params(hb).replace("\n", " "),
        unit, xtics, " ".join(variants)),
        {"hb-points.dat": points(hb.rows, ki, vi), "hb-means.dat": means(hb.ab, ki, vi)})]


def headline(runs, ab):
    """The README headline's rows (labreport.headline): hackbench, glibc registering, RSEQ=y
    vs RSEQ=n per mode: the change with its interval over boots, or why there is none and
    how many boots +-1 % precision needs."""
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
