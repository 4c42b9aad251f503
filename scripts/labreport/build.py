# SPDX-License-Identifier: MIT
"""build: the report of a data/ folder as tables: the machine block, then each bench
folder's section (by ORDER), the axes (architectures, kernel releases), the LAVA fleet.
The report is a function of the runs alone: its lead line names the newest run used,
never the time it was made."""

import os
from pathlib import Path

import labdata
from labreport import axis_arch, axis_kernels, header, loader
from labreport import runs as R


class NothingToReport(Exception):
    """data/ holds no benchmark results (the message says why)."""


def sections(runs):
    """Every section's tables, in report order."""
    mods = loader.bench_sections() + [axis_arch, axis_kernels] + loader.fleet_section()
    return [t for mod in mods for t in mod.tables(runs)]


def build(data):
    """(lead lines, tables) of the runs under data (a path as given, for messages)."""
    if not Path(data).is_dir():
        raise NothingToReport("nothing to report: %s does not exist" % data)
    runs = R.pick(labdata.runs(data), os.environ.get("RUNS", ""))
    tables = sections(runs)
    if not tables:
        raise NothingToReport("nothing to report: no benchmark results in %s" % data)
    used = header.used_runs(tables)
    name = os.path.basename(data.rstrip("/")) or data[:1]
    lead = ["From %d runs of %s/ alone (nothing rerun); the newest:" % (len(used), name),
            "  " + (used[-1].name if used else "none")]
    return lead, [header.machine(tables)] + tables
