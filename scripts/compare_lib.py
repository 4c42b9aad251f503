# SPDX-License-Identifier: MIT
"""compare_lib: what the steps of scripts/compare share.

The benches a comparison may run (every bench whose meta declares figures), the figures each
declares, and every figure of a boot run in the long format (C1: bench, figure, side, accel,
unit, boot, rep, value). Figures are named BENCH.FIGURE across the compare chain.
"""

import itertools
import subprocess
from pathlib import Path

import labdata

LAB = Path(__file__).resolve().parent.parent
FIGURES_HEADER = ["bench", "figure", "side", "accel", "unit", "boot", "rep", "value"]
# The run variants compare boots, and the side each is in the comparison.
SIDES = {"cmp-base": "base", "cmp-test": "test"}

# --- Benches without a parse of their own yet -------------------------------------------------
# Their figures, as the Perl compare-figures named them. Drop a bench here once its meta
# declares `figure:` lines and it has a C1 parse; drop the table and LEGACY_ROWS with the last.
_GLIBC = ["", ".glibc-off", ".glibc-enosys"]
_CPUREAD = ["empty", "empty-dep", "gs-dummy", "gs-rseq", "gs-rseq-dep", "lsl", "lsl-dep",
            "rdpid", "rdtscp", "rdtscp-dep", "rseq-glibc", "rseq-glibc-dep", "rseq-lazy",
            "rseq-lazy-dep", "rseq-own", "rseq-own-dep", "sched_getcpu-rseq-off",
            "sched_getcpu-rseq-on", "syscall", "syscall-dep", "vdso", "vdso-dep"]
_PERCPU = ["counter-getcpu-atomic", "counter-global-atomic", "counter-mutex",
           "counter-rseq-cpuid-atomic", "counter-rseq", "counter-tls", "list-cas", "list-rseq",
           "list-spinlock", "lock-cmpxchg", "lock-rseq"]
LEGACY_FIGURES = {
    "cpu-read": [m + g for m, g in itertools.product(_CPUREAD, _GLIBC)],
    "percpu": [m + g + t for m, g, t in itertools.product(_PERCPU, _GLIBC, [".t1", ".t2", ".t4"])],
    "hackbench": [f"{m}-{i}{g}" for m, i, g in itertools.product(
        ["process", "thread"], ["pipe", "socket"], ["", ".glibc-on", ".glibc-off"])],
    "size": ["text", "data", "bss", "bzimage_bytes"],
}
# The CSV file each of them leaves in a run.
LEGACY_CSV = {"cpu-read": "cpu-read.csv", "percpu": "percpu.csv",
              "hackbench": "hackbench.csv", "size": "sizes.csv"}


LEGACY_COLUMNS = ["variant", "accel", "method", "glibc_rseq", "threads", "status", "ns_per_op",
                  "instructions_per_op"]


def _row(bench, figure, side, accel, unit, boot, rep, value):
    return dict(zip(FIGURES_HEADER, (bench, figure, side, accel, unit, boot, rep, value)))


def legacy_rows(run, bench):
    """C1 rows of a bench that has no parse yet, from its CSV in run (a labdata.Run)."""
    out = []
    rows = run.csv(LEGACY_CSV[bench])
    need = {"cpu-read": LEGACY_COLUMNS, "percpu": LEGACY_COLUMNS,
            "hackbench": ["kernel", "glibc_rseq", "accel", "round", "rep", "mode", "ipc",
                          "value", "unit"], "size": ["variant"]}[bench]
    missing = [c for c in need if rows and c not in rows[0]]
    if missing:
        raise ValueError(f"{run.name}/{LEGACY_CSV[bench]}: no column {', '.join(missing)}")
    if bench in ("cpu-read", "percpu"):
        for r in rows:
            if r.get("status") != "ok":
                continue
            icount = r.get("accel") == "icount"
            v = r.get("instructions_per_op" if icount else "ns_per_op", "")
            if v == "":
                continue
            g = "" if r.get("glibc_rseq") == "on" else ".glibc-" + r.get("glibc_rseq", "")
            t = r.get("threads", "1")
            t = f".t{t}" if bench == "percpu" or t != "1" else ""
            out.append(_row(bench, r["method"] + g + t, r.get("variant", ""), r.get("accel", ""),
                            "insn" if icount else "ns", "1", "", v))
    elif bench == "hackbench":
        for r in rows:
            g = "" if r.get("glibc_rseq") == "none" else ".glibc-" + r.get("glibc_rseq", "")
            out.append(_row(bench, f"{r['mode']}-{r['ipc']}{g}", r.get("kernel", ""),
                            r.get("accel", ""), r.get("unit", ""), r.get("round", "1"),
                            r.get("rep", ""), r.get("value", "")))
    else:
        for r in rows:
            for c in LEGACY_FIGURES["size"]:
                if r.get(c, "") != "":
                    out.append(_row(bench, c, r.get("variant", ""), "none", "bytes", "1", "",
                                    r[c]))
    return out


# --- Declared figures --------------------------------------------------------------------------

def meta(bench):
    """bench/BENCH/meta's key-value lines."""
    return labdata.read_keyvalues(LAB / "bench" / bench / "meta")


def declared(bench):
    """The figure names (BENCH.FIGURE) bench declares: its meta's `figure:` lines (C2)."""
    names = [qualified(bench, v.split()[0]) for v in meta(bench).all("figure") if v.split()]
    if not names and bench in LEGACY_FIGURES:
        names = [qualified(bench, f) for f in LEGACY_FIGURES[bench]]
    return names


def benches():
    """Every bench that declares figures, by name."""
    return sorted(p.name for p in (LAB / "bench").iterdir()
                  if (p / "meta").is_file() and declared(p.name))


def qualified(bench, figure):
    """A figure's name across the compare chain: BENCH.FIGURE."""
    return figure if figure.startswith(bench + ".") else f"{bench}.{figure}"


def matches(pattern, name):
    """Whether a FAIL_ABOVE figure names name: equal, or a prefix ending in '.' at its start."""
    return name == pattern or (pattern.endswith(".") and name.startswith(pattern))


# --- The figures of a run ----------------------------------------------------------------------

def run_benches(run):
    """The benches whose results run holds (a BENCH.meta of a bench with a C1 parse, or a
    legacy bench's CSV)."""
    found = set()
    for m in run.files("*.meta"):
        b = m[:-len(".meta")]
        if meta(b).all("figure") and (LAB / "bench" / b / "parse").is_file():
            found.add(b)
    for b, f in LEGACY_CSV.items():
        if b not in found and not meta(b).all("figure") and run.has(f):
            found.add(b)
    return sorted(found)


def run_figures(run):
    """The C1 rows of one boot run: its figures.csv, else written there by each bench's parse
    (the legacy extraction for benches without one)."""
    if run.has("figures.csv"):
        return run.csv("figures.csv")
    rows = []
    for b in run_benches(run):
        if b in LEGACY_CSV and not meta(b).all("figure"):
            rows += legacy_rows(run, b)
            continue
        p = subprocess.run([str(LAB / "bench" / b / "parse"), str(run.path)],
                           capture_output=True, text=True, check=False)
        if p.returncode != 0:
            raise ValueError(f"bench/{b}/parse {run.path.name} failed: "
                             + (p.stderr.strip().splitlines() or ["no message"])[-1])
        rows += labdata.parse_table(p.stdout)
    write_figures(run.path / "figures.csv", rows)
    return rows


def write_figures(path, rows):
    """Write C1 rows to path (CSV with the C1 header)."""
    import csv
    with open(path, "w", newline="", **labdata.ENCODING) as f:
        w = csv.DictWriter(f, FIGURES_HEADER, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
