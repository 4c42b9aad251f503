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
    with every other glibc state its meta names (figures.declared_by_kernel), and each
    within-kernel contrast (contrast_names)."""
    names = figures.declared_by_kernel(LAB / "bench" / bench)
    names += contrast_names(bench, figures.declared(LAB / "bench" / bench))
    return [qualified(bench, f) for f in names]


def how(bench):
    """(mode, rest) of bench's meta "compare: MODE REST" line: boot (one boot per round
    through scripts/bench-run), own (its run compares the two kernels itself, REST its
    design) or no (REST the reason); ("", "") without the line."""
    words = meta(bench).first("compare").split(None, 1)
    return (words + ["", ""])[0], (words[1] if len(words) > 1 else "")


def benches():
    """Every bench make compare can run: it declares figures and its meta says how."""
    return sorted(p.name for p in (LAB / "bench").iterdir()
                  if (p / "meta").is_file() and how(p.name)[0] in ("boot", "own")
                  and declared(p.name))


def refused():
    """{bench: why} for every bench with figures that make compare cannot run: its meta says
    no, or says nothing (a bench that is new and has not said how it compares)."""
    out = {}
    for p in sorted((LAB / "bench").iterdir()):
        if not (p / "meta").is_file() or not figures.declared(p):
            continue
        mode, rest = how(p.name)
        if mode == "no":
            out[p.name] = rest or "its meta says so"
        elif mode not in ("boot", "own"):
            out[p.name] = f"bench/{p.name}/meta has no 'compare: boot|own|no' line"
    return out


def qualified(bench, figure):
    """A figure's name across the compare chain: BENCH.FIGURE."""
    return figure if figure.startswith(bench + ".") else f"{bench}.{figure}"


def contrast(bench):
    """(name, a, b) of bench's meta "compare-contrast: NAME A B": under compare, each figure
    measured in glibc states A and B also gives FIGURE.NAME, its A minus its B per kernel and
    round; None without the line."""
    words = meta(bench).first("compare-contrast").split()
    return tuple(words) if len(words) == 3 else None


def contrast_names(bench, names):
    """The contrast figures of the declared names (before any glibc suffix)."""
    c = contrast(bench)
    return [figures.with_glibc(n, "." + c[0]) for n in names] if c else []


def contrasts(bench, rows):
    """The contrast rows of one run's by-kernel rows of bench: per figure, side and boot with
    both states, the mean over reps of state A minus that of state B (no rep)."""
    c = contrast(bench)
    if not c:
        return []
    name, a, b = c
    states = figures.glibc_states(LAB / "bench" / bench)
    suffixes = {figures.glibc_suffix(states, a): a, figures.glibc_suffix(states, b): b}
    others = [figures.glibc_suffix(states, g) for g in states]
    vals, first = {}, {}
    for r in rows:
        for suf, st in suffixes.items():
            base = unsuffixed(r["figure"], suf, others)
            if base is None:
                continue
            key = (base, r["side"], r["boot"])
            vals.setdefault(key, {}).setdefault(st, []).append(float(r["value"]))
            first.setdefault(key, r)
    out = []
    for key, got in vals.items():
        if a in got and b in got:
            base, side, boot = key
            v = sum(got[a]) / len(got[a]) - sum(got[b]) / len(got[b])
            out.append(dict(first[key], figure=figures.with_glibc(base, "." + name), rep="",
                            value=f"{v:.6f}"))
    return out


def unsuffixed(figure, suffix, others):
    """figure without suffix (figures.with_glibc's place: before a ".tN"), or None when the
    figure does not carry it; suffix "" (the default state) matches a figure that carries
    none of the others."""
    if not suffix:
        return None if any(o and o in figure for o in others) else figure
    base = figure.replace(suffix, "", 1)
    return base if suffix in figure and figures.with_glibc(base, suffix) == figure else None


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
        mine = [dict(zip(FIGURES_HEADER, map(str, r))) for r in got]
        rows += mine + (contrasts(b, mine) if by_kernel else [])
    return rows
