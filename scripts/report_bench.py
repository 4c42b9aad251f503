# SPDX-License-Identifier: MIT
"""report_bench: the sections a benchmark folder brings itself. A bench/<name>/report.py
defines section(runs, md) -> list of lines (text <= 72 columns; markdown when md), from the
data/ runs (labdata.Run objects, oldest first); it may use report_text's section() and pre().
Adding a benchmark with a report section is adding that file: nothing here names it."""

import importlib.util
import os
from pathlib import Path

LAB = Path(os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
# Tests point this at a folder of their own.
BENCH = Path(os.environ.get("LAB_BENCH_DIR") or LAB / "bench")


def modules():
    """Each bench/*/report.py, loaded, in folder order, then the fleet's (lava/report.py)."""
    found = []
    for path in sorted(BENCH.glob("*/report.py")) + sorted(LAB.glob("lava/report.py")):
        spec = importlib.util.spec_from_file_location("bench_report_" + path.parent.name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        found.append(mod)
    return found


def sections(runs, md):
    """The lines of every bench folder's own section."""
    lines = []
    for mod in modules():
        lines += mod.section(runs, md)
    return lines


def has_results(runs):
    """Whether any bench folder's section finds something to say."""
    return any(mod.section(runs, False) for mod in modules())
