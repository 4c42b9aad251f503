# SPDX-License-Identifier: MIT
"""size's report section (found by labreport.loader): vmlinux size per kernel variant from
the latest scripts/kernel-size run (sizes.csv), what each option adds (deltas.csv), and the
plot of the bytes each variant has more than the RSEQ=n one."""

from labreport.fmt import fold_all, num
from labreport.model import Plot, Table
from labreport.runs import latest_with

ORDER = 40
COLS = ("text", "data", "bss", "code")


def delta_line(r):
    """One size delta between two variants."""
    what = r.get("what", "")
    if len(what) > 24:
        what = "the series, option off"
    return "%s -> %s (%s): %+d text, %+d data, %+d bss, %+d code" % (
        r.get("from", ""), r.get("to", ""), what, *(int(num(r.get(c))) for c in COLS))


def tables(runs):
    """The hook labreport calls."""
    run = latest_with(runs, "sizes.csv")
    if run is None:
        return []
    sizes = run.csv("sizes.csv")
    notes = []
    if run.has("deltas.csv"):
        notes += [""] + fold_all([delta_line(r) for r in run.csv("deltas.csv")])
    notes.append("(seed 2018 x86-64: RSEQ adds 567 bytes text, 5696 bytes data)")
    kernels = ["kernel %s: %s, RSEQ=%s, config %s" % (
        r.get("variant", ""), r.get("release", ""), r.get("rseq", ""),
        r.get("config_sha256", "")[:12]) for r in sizes]
    return [Table("Kernel size per variant (vmlinux, bytes)", intro=["run: " + run.name],
                  fmt="%-15s %10s %9s %9s %9s", header=[("variant",) + COLS],
                  rows=[(r.get("variant", "")[:15],) + tuple("%d" % num(r.get(c)) for c in COLS)
                        for r in sizes],
                  notes=notes, runs=[run], facts={"kernel": kernels}, plots=plots(sizes))]


def plots(sizes):
    """kernel-size: bytes added per variant over the RSEQ=n one (or the first)."""
    base = next((r for r in sizes if r.get("rseq") == "n"), sizes[0] if sizes else {})
    name = base.get("variant", "") if base.get("rseq") == "n" else ""
    table = ["\t".join([r.get("variant", "")] + ["%g" % (num(r.get(c)) - num(base.get(c)))
                                                 for c in COLS]) for r in sizes]
    release = sizes[0].get("release", "") if sizes else ""
    return [Plot("kernel-size", """
set title "vmlinux size per variant, bytes more than %s (size(1); code = text symbols)\\n\
Linux %s x86-64"
set ylabel 'bytes vs %s'
set xlabel 'kernel variant'
set style data histogram; set style histogram clustered gap 1
set style fill solid 0.7 border -1
set xzeroaxis lt -1
plot '{work}/size.dat' using 2:xtic(1) title 'text', '' using 3 title 'data', '' using 4 \\
title 'bss', '' using 5 title 'code'""" % (name or "the first variant", release,
                                           name or "first variant"),
                 {"size.dat": table})]


def headline(runs, ab):
    """The README headline's row (labreport.headline): what CONFIG_RSEQ adds to vmlinux
    (text, data)."""
    run = latest_with(runs, "deltas.csv")
    if not run:
        return []
    for r in run.csv("deltas.csv"):
        if r.get("from") == "rseq-n" and r.get("to") == "rseq-y":
            return [("CONFIG_RSEQ=y: vmlinux text, data", "size(1)",
                     "%+d / %+d bytes" % (int(r["text"]), int(r["data"])), run.name)]
    return []
