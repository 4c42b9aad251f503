# SPDX-License-Identifier: MIT
"""plots: draws the plots the sections' tables ask for (model.Plot), each as PLOTS/NAME.png
and PLOTS/NAME.svg by gnuplot; the scripts and data files go to a work folder
(LAB_PLOT_WORK keeps them, for tests that read what a plot shows). Plots of an earlier
report are removed first, so none is left stale."""

import shutil
import subprocess
from pathlib import Path

TERMINALS = {
    "png": "set terminal pngcairo size 1100,600 font ',10'",
    "svg": "set terminal svg size 1100,600 font 'sans,10' dynamic",
}


class PlotError(Exception):
    """gnuplot is missing or failed (the message says which)."""


def script(plot, plots, work, kind):
    """The whole gnuplot script drawing one plot as PLOTS/NAME.KIND."""
    return "\n".join([
        TERMINALS[kind],
        "set output '%s/%s.%s'" % (plots, plot.name, kind),
        "set datafile separator '\\t'; set datafile missing '?'",
        "set key outside right top; set grid ytics; set termoption noenhanced",
        plot.body.replace("{work}", str(work))]) + "\n"


def draw(plot, plots, work):
    """One plot's data files, then its PNG and SVG."""
    for name, lines in plot.data.items():
        Path(work, name).write_text("".join(line + "\n" for line in lines))
    for kind in TERMINALS:
        gp = Path(work) / ("%s.%s.gp" % (plot.name, kind))
        gp.write_text(script(plot, plots, work, kind))
        with open(gp) as src:
            done = subprocess.run(["gnuplot"], stdin=src, stderr=subprocess.PIPE,
                                  text=True, errors="replace")
        if done.returncode != 0:
            first = " ".join(done.stderr.splitlines()[:3])
            raise PlotError("gnuplot failed on %s: %s" % (plot.name, first))


def remove_old(plots):
    """Plots of an earlier report."""
    for old in list(Path(plots).glob("*.png")) + list(Path(plots).glob("*.svg")):
        if not old.name.startswith(".") and not old.is_dir():
            old.unlink()


def draw_all(tables, plots, work):
    """Every plot the tables ask for, into plots (a path as given), scripts into work."""
    remove_old(plots)
    wanted = [p for t in tables for p in t.plots]
    if wanted and not shutil.which("gnuplot"):
        raise PlotError("gnuplot not found (apt-get install gnuplot-nox)")
    for plot in wanted:
        draw(plot, plots, work)
    return [p.name for p in wanted]
