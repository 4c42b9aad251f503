# SPDX-License-Identifier: MIT
"""compare_lib: what the steps of scripts/compare share.

The benches a comparison may run (every bench whose meta declares figures), the figures each
declares, and every figure of a boot run in the long format (C1: bench, figure, side, accel,
unit, boot, rep, value). Figures are named BENCH.FIGURE across the compare chain.
"""

import itertools
import subprocess
from pathlib import Path

import figures
import labdata

LAB = Path(__file__).resolve().parent.parent
FIGURES_HEADER = ["bench", "figure", "side", "accel", "unit", "boot", "rep", "value"]
# The run variants compare boots, and the side each is in the comparison.
SIDES = {"cmp-base": "base", "cmp-test": "test"}

# --- Benches compare keys itself ----------------------------------------------------------------
# A figure of these is one bench row keyed on everything but the kernel (method, glibc state,
# threads): their own parse keys on the variant column, which under compare names the kernel
# and its glibc state together. Their figure names, for FAIL_ABOVE.
_GLIBC = ["", ".glibc-off", ".glibc-enosys"]
_CPUREAD = ["empty", "empty-dep", "gs-dummy", "gs-rseq", "gs-rseq-dep", "lsl", "lsl-dep",
            "rdpid", "rdtscp", "rdtscp-dep", "rseq-glibc", "rseq-glibc-dep", "rseq-lazy",
            "rseq-lazy-dep", "rseq-own", "rseq-own-dep", "sched_getcpu-rseq-off",
            "sched_getcpu-rseq-on", "syscall", "syscall-dep", "vdso", "vdso-dep"]
_PERCPU = ["counter-getcpu-atomic", "counter-global-atomic", "counter-mutex",
           "counter-rseq-cpuid-atomic", "counter-rseq", "counter-tls", "list-cas", "list-rseq",
           "list-spinlock", "lock-cmpxchg", "lock-rseq"]
KEYED_FIGURES = {
    "cpu-read": [m + g for m, g in itertools.product(_CPUREAD, _GLIBC)],
    "percpu": [m + g + t for m, g, t in itertools.product(_PERCPU, _GLIBC, [".t1", ".t2", ".t4"])],
    "hackbench": [f"{m}-{i}{g}" for m, i, g in itertools.product(
        ["process", "thread"], ["pipe", "socket"], ["", ".glibc-on", ".glibc-off"])],
    "size": ["text", "data", "bss", "bzimage_bytes"],
}
# The CSV file each of them leaves in a run.
KEYED_CSV = {"cpu-read": "cpu-read.csv", "percpu": "percpu.csv",
              "hackbench": "hackbench.csv", "size": "sizes.csv"}


KEYED_COLUMNS = ["variant", "accel", "method", "glibc_rseq", "threads", "status", "ns_per_op",
                  "instructions_per_op"]


def _row(bench, figure, side, accel, unit, boot, rep, value):
    return dict(zip(FIGURES_HEADER, (bench, figure, side, accel, unit, boot, rep, value)))


def keyed_rows(run, bench):
    """C1 rows of a bench that has no parse yet, from its CSV in run (a labdata.Run)."""
    out = []
    rows = run.csv(KEYED_CSV[bench])
    need = {"cpu-read": KEYED_COLUMNS, "percpu": KEYED_COLUMNS,
            "hackbench": ["kernel", "glibc_rseq", "accel", "round", "rep", "mode", "ipc",
                          "value", "unit"], "size": ["variant"]}[bench]
    missing = [c for c in need if rows and c not in rows[0]]
    if missing:
        raise ValueError(f"{run.name}/{KEYED_CSV[bench]}: no column {', '.join(missing)}")
    if bench in ("cpu-read", "percpu"):
        for r in rows:
            if r.get("status") != "ok":
                continue
            v, unit = figures.op_figure(r)
            if v == "":
                continue
            g = "" if r.get("glibc_rseq") == "on" else ".glibc-" + r.get("glibc_rseq", "")
            t = r.get("threads", "1")
            t = f".t{t}" if bench == "percpu" or t != "1" else ""
            out.append(_row(bench, r["method"] + g + t, r.get("variant", ""), r.get("accel", ""),
                            unit, "1", "", v))
    elif bench == "hackbench":
        for r in rows:
            g = "" if r.get("glibc_rseq") == "none" else ".glibc-" + r.get("glibc_rseq", "")
            out.append(_row(bench, f"{r['mode']}-{r['ipc']}{g}", r.get("kernel", ""),
                            r.get("accel", ""), r.get("unit", ""), r.get("round", "1"),
                            r.get("rep", ""), r.get("value", "")))
    else:
        for r in rows:
            for c in KEYED_FIGURES["size"]:
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
    if bench in KEYED_FIGURES:
        return [qualified(bench, f) for f in KEYED_FIGURES[bench]]
    return [qualified(bench, v.split()[0]) for v in meta(bench).all("figure") if v.split()]


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
    """The benches whose results run holds: a CSV compare keys itself (KEYED_CSV), or a
    BENCH.meta of a bench with figures and a parse."""
    found = {b for b, f in KEYED_CSV.items() if run.has(f)}
    for m in run.files("*.meta"):
        b = m[:-len(".meta")]
        if b not in KEYED_CSV and meta(b).all("figure") and (LAB / "bench" / b / "parse").is_file():
            found.add(b)
    return sorted(found)


def run_figures(run):
    """The C1 rows of one boot run. The benches in KEYED_CSV are keyed here, on everything
    but the kernel (side = the kernel, cmp-base or cmp-test; the glibc state, threads and
    method in the figure's name), since their own parse keys on the variant column; every
    other bench through its figures.csv or its parse. Nothing is written into the run."""
    rows = []
    own = run.csv("figures.csv") if run.has("figures.csv") else []
    for b in sorted(set(run_benches(run)) | {r.get("bench") for r in own if r.get("bench")}):
        if b in KEYED_CSV and run.has(KEYED_CSV[b]):
            rows += keyed_rows(run, b)
            continue
        mine = [r for r in own if r.get("bench") == b]
        if mine:
            rows += mine
            continue
        p = subprocess.run([str(LAB / "bench" / b / "parse"), str(run.path)],
                           capture_output=True, text=True, check=False)
        if p.returncode != 0:
            raise ValueError(f"bench/{b}/parse {run.path.name} failed: "
                             + (p.stderr.strip().splitlines() or ["no message"])[-1])
        rows += labdata.parse_table(p.stdout)
    return rows
