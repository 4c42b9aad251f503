# SPDX-License-Identifier: MIT
"""The LAVA fleet's section of the report (found by labreport.loader): every cell of
the latest lava-fleet run — variant x bench x rep on a device — with its state, so a failed,
cancelled or never-fetched job shows as a marked cell, never as a silent gap."""

from pathlib import Path

import labdata
from labreport.model import Table
from labreport.runs import latest_with


def mark(status):
    """"merged", or the failure in capitals so that it cannot be read past."""
    if status == "merged":
        return status
    if status.startswith("missing"):
        return "MISSING" + status[len("missing"):]
    return status if status.startswith("FAILED") else "FAILED: " + status


def table(run):
    """The fleet table's lines, at most 72 columns each."""
    text = Path(run.path, "fleet.tsv").read_text(**labdata.ENCODING)
    rows = labdata.parse_table(text, "\t")
    bad = sum(1 for r in rows if r["status"] != "merged")
    lines = ["run: %s; %d jobs, %d not merged" % (run.name, len(rows), bad),
             "%-12s %-9s %-7s %3s %-14s %s" % ("variant", "bench", "accel", "rep",
                                              "device", "state")]
    for r in rows:
        device = r["device"] or r["device_type"] or "-"
        lines.append(("%-12s %-9s %-7s %3s %-14s %s" % (
            r["variant"][:12], r["bench"][:9], r["accel"][:7], r["rep"][:3], device[:14],
            mark(r["status"])))[:72])
    return lines


def tables(runs):
    """The hook labreport calls."""
    run = latest_with(runs, "fleet.tsv")  # lava/merge writes one per merge
    if run is None:
        return []
    return [Table("LAVA fleet: jobs and their state", rows=table(run), runs=[run])]
