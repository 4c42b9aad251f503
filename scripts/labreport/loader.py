# SPDX-License-Identifier: MIT
"""loader: the sections bench folders bring. A bench/<name>/report.py defines
tables(runs) -> [Table] from the data/ runs (labdata.Run, oldest first) and may set ORDER
(a number, default 50: lower comes first). It imports labreport as any module would: the
report puts scripts/ on the import path once, here, so no section touches sys.path.
Adding a benchmark with a report section is adding that file: nothing here names it."""

import importlib.util
import os
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1]
LAB = SCRIPTS.parent
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


def bench_dir():
    """The bench folders' parent (tests point LAB_BENCH_DIR at a folder of their own)."""
    return Path(os.environ.get("LAB_BENCH_DIR") or LAB / "bench")


def load(path):
    """One report.py, loaded as its own module (named after its folder)."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location("section_" + path.parent.name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bench_sections():
    """Each bench/*/report.py, loaded, by ORDER then folder name."""
    mods = [load(p) for p in sorted(bench_dir().glob("*/report.py"))]
    return sorted(mods, key=lambda m: getattr(m, "ORDER", 50))


def fleet_section():
    """The LAVA fleet's section (lava/report.py), when there is one."""
    path = LAB / "lava" / "report.py"
    return [load(path)] if path.is_file() else []
