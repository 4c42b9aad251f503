# SPDX-License-Identifier: MIT
"""axis_kernels: the kernel-release axis of the report (not a bench), kernels side by side: make modern's guests of another
Debian kernel (variant names VARIANT-KVER, e.g. rseq-y-6.12) beside the main job's (rseq-y,
6.1), one table per variant and accelerator with a column per kernel release: the newest
CPU-read, per-CPU (1 thread) and mm_cid runs of each. Under icount the figures are exact
instructions per op where the program counted them, else virtual ns (marked v); under TCG
emulator ns. Runs from elsewhere (LAVA, bundles) are left out."""

import re

import figures
from labreport import loader
from labreport.model import Table
from labreport.rows import cell, percent, spread
from labreport.runs import release_key

SUFFIX = re.compile(r"-[0-9]+\.[0-9]+$")
LINE = 72
# A column: "239.20 ±12%" and a space.
COL = 12


def base_variant(variant):
    """rseq-y-6.12 -> rseq-y: the variant a make modern image was built from."""
    return SUFFIX.sub("", variant)


def value(r, accel, units=False, ns="ns_per_op"):
    """The figure of a row in its unit (figures.op_figure: counted instructions under icount
    where the program counted them, else virtual ns, marked "v"; ns elsewhere), with +-half
    the range between the run's boots when units says it has several (the median boot's
    figure, scripts/procs-merge; a run of one boot has its reps' range there, not shown);
    its status when not ok. ns names the row's ns column."""
    if r.get("status", "ok") != "ok":
        return r.get("status", "")[:11]
    text, unit = figures.op_figure(dict(r, accel=accel, ns_per_op=r.get(ns, "")))
    v = cell({"v": text}, "v")
    if v is None:
        return "-"
    text = ("%.0f" % v if v >= 1000 else "%.2f" % v) + ("v" if unit == "vns" else "")
    if unit == "ns" and units:
        s = spread(text, r.get("ns_min"), r.get("ns_max"))
        if s is not None:
            text += " " + percent(s)
    return text


def newest(runs, csv, meta, kernel_key):
    """The newest run holding csv per (variant, accel): {key: (run, release)}; guests only."""
    found = {}
    for run in runs:
        if not run.has(csv):
            continue
        m = run.keyvalues(meta)
        rows = run.csv(csv)
        variant = (rows[0].get("variant") if rows else "") or m.first("variant")
        accel = (rows[0].get("accel") if rows else "") or m.first("accel")
        if m.first("hardware") or m.first("strategy") or variant in ("", "host") or \
                accel in ("", "none"):
            continue
        # the meta's keys naming the release, the newest first (older runs wrote another)
        found[(variant, accel)] = (run, next((m.first(k) for k in kernel_key.split()
                                              if m.first(k)), ""))
    return found


def boots(run, meta):
    """Whether the run's figures are merged over several boots (its meta's guest_units)."""
    return bool(run.keyvalues(meta).first("guest_units"))


def by_variant(runs):
    """{(base variant, accel): {release: [(name, label, value)], "runs": [...]}}: the rows of
    each bench whose report.py has the axis's hook (KERNEL_AXIS = (its CSV, its meta, the
    meta's keys naming the kernel release, space-separated, the first found taken),
    kernel_rows(run, accel)), in the report's order."""
    out = {}
    for mod in loader.bench_sections():
        if not hasattr(mod, "kernel_rows"):
            continue
        csv, meta, key = mod.KERNEL_AXIS
        for (variant, accel), (run, release) in newest(runs, csv, meta, key).items():
            if not release:
                continue
            t = out.setdefault((base_variant(variant), accel), {})
            t.setdefault(release, []).extend(mod.kernel_rows(run, accel))
            t.setdefault("runs", []).append(run)
    return out


def render(base, accel, t):
    """One variant's table: a column per release, a row per figure any of them has."""
    releases = sorted((k for k in t if k != "runs"), key=release_key)
    width = LINE - COL * len(releases)
    unit = "instructions per op; v: virtual ns (icount)" if accel == "icount" else (
        "ns per op (%s)" % ("emulator" if accel == "tcg" else accel))
    out = ["", "%s, %s: %s" % (base, accel, unit),
           "%-*s" % (width, "figure") + "".join("%*s" % (COL, r[:COL - 1]) for r in releases)]
    names, labels, by = [], {}, {}
    for rel in releases:
        for name, label, v in t[rel]:
            if name not in labels:
                names.append(name)
                labels[name] = label
            by[(name, rel)] = v
    for name in names:
        cells = [by.get((name, rel), "-") for rel in releases]
        if not any(c[:1].isdigit() for c in cells):
            continue  # no figure on any kernel (ENOSYS, unavailable everywhere)
        label = labels[name] if len(labels[name]) < width else name
        out.append("%-*s" % (width, label[:width - 1]) + "".join("%*s" % (COL, c) for c in cells))
    return out


def tables(runs):
    """The section: only when a variant ran on two kernels."""
    found = {k: t for k, t in by_variant(runs).items() if len(t) > 2}
    if not found:
        return []
    out = ["the same static guest programs on each kernel; newest run per",
            "variant, accelerator and kernel; mm_cid strategies: ns /slots touched;",
            "tcg ns: the median boot's, +-half the range between the run's",
            "boots (none: one boot); each kernel's runs at their own time and",
            "host load, so only the icount tables compare across kernels"]
    for (base, accel) in sorted(found):
        out += render(base, accel, found[(base, accel)])
    used = {r.name: r for k in sorted(found) for r in found[k]["runs"]}
    out += ["", "runs:"] + ["  " + r for k in sorted(found)
                            for r in sorted({x.name for x in found[k]["runs"]})]
    return [Table("Kernels side by side (make modern: VARIANT-KVER guests)", rows=out,
                  runs=[used[n] for n in sorted(used)])]
