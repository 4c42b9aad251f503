# SPDX-License-Identifier: MIT
"""compare_lib: what the steps of scripts/compare share.

The benches a comparison may run (every bench whose meta declares figures), the figures each
declares, and every figure of a boot run in the long format (C1: bench, figure, side, accel,
unit, boot, rep, value). Figures are named BENCH.FIGURE across the compare chain.
"""

from pathlib import Path

import figures
import labdata

LAB = Path(__file__).resolve().parent.parent
FIGURES_HEADER = figures.HEADER
# The run variants compare boots, and the side each is in the comparison.
SIDES = {"cmp-base": "base", "cmp-test": "test"}


# --- Declared figures --------------------------------------------------------------------------

def meta(bench):
    """bench/BENCH/meta's key-value lines."""
    return labdata.read_keyvalues(LAB / "bench" / bench / "meta")


def declared(bench):
    """The figure names (BENCH.FIGURE) bench declares: its meta's `figure:` lines (C2), each
    with every other glibc state its meta names (figures.declared_by_kernel)."""
    return [qualified(bench, f) for f in figures.declared_by_kernel(LAB / "bench" / bench)]


def benches():
    """Every bench that declares figures, by name."""
    return sorted(p.name for p in (LAB / "bench").iterdir()
                  if (p / "meta").is_file() and declared(p.name))


def qualified(bench, figure):
    """A figure's name across the compare chain: BENCH.FIGURE."""
    return figure if figure.startswith(bench + ".") else f"{bench}.{figure}"


def status(name):
    """The exit status named name in scripts/statuses (the table lib.sh's lab_status reads)."""
    for line in (LAB / "scripts" / "statuses").read_text().splitlines():
        cols = line.split()
        if len(cols) >= 3 and not line.startswith("#") and cols[2] == name:
            return int(cols[1])
    raise KeyError(f"no exit status named '{name}' in scripts/statuses")


def matches(pattern, name):
    """Whether a FAIL_ABOVE figure names name: equal, or a prefix ending in '.' at its start."""
    return name == pattern or (pattern.endswith(".") and name.startswith(pattern))


# --- The figures of a run ----------------------------------------------------------------------

def run_benches(run):
    """The benches whose results run holds: a bench with figures and a parse, whose
    BENCH.meta or one of whose result files (its meta's `result:` lines) the run holds."""
    found = set()
    for p in sorted((LAB / "bench").iterdir()):
        m = meta(p.name) if (p / "meta").is_file() else None
        if not m or not m.all("figure") or not (p / "parse").is_file():
            continue
        files = {v.split()[0] for v in m.all("result") if v.split()} | {p.name + ".meta"}
        if any(run.has(f) for f in files):
            found.add(p.name)
    return sorted(found)


def run_figures(run, glibc_sides=False):
    """The C1 rows of one boot run, each bench's through its parse (loaded once into this
    process: figures.load_parse): side the kernel (cmp-base or cmp-test), a bench whose rows
    name glibc states with that state in the figure's name (parse --by-kernel), unless the
    sides are glibc's states themselves (glibc_sides: the same figure on both); a bench that
    does not, its figures.csv rows where the run has them. Nothing is written into the run."""
    rows = []
    own = run.csv("figures.csv") if run.has("figures.csv") else []
    for b in sorted(set(run_benches(run)) | {r.get("bench") for r in own if r.get("bench")}):
        by_kernel = bool(figures.glibc_states(LAB / "bench" / b)) and not glibc_sides
        mine = [r for r in own if r.get("bench") == b]
        if mine and not by_kernel:
            rows += mine
            continue
        run.by_kernel = by_kernel
        try:
            got = figures.extract_rows(b, figures.load_parse(b), run)
        except figures.ParseError as e:
            raise ValueError(f"bench/{b}/parse {run.path.name} failed: {e}") from None
        finally:
            run.by_kernel = False
        rows += [dict(zip(FIGURES_HEADER, map(str, r))) for r in got]
    return rows
