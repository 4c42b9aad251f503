# SPDX-License-Identifier: MIT
"""figures: the long format every figures.csv holds, and what the bench parsers share.

A figure row is bench,figure,side,accel,unit,boot,rep,value: side the run's variant label,
boot the key that pairs the sides (the round; "1" for one boot or a host run), rep the
repetition inside that boot (empty for a per-boot summary). Each bench/<name>/parse reads its
own CSV through labdata and prints its rows here.
"""

import csv
import re
import runpy
import sys
from pathlib import Path

import labdata

LAB = Path(__file__).resolve().parent.parent
HEADER = ["bench", "figure", "side", "accel", "unit", "boot", "rep", "value"]


def declared(bench_dir):
    """The figure names bench_dir/meta declares ("figure: NAME UNIT text")."""
    meta = labdata.read_keyvalues(Path(bench_dir) / "meta")
    return [v.split()[0] for v in meta.all("figure") if v.split()]


def glibc_states(bench_dir):
    """The glibc rseq states a bench's rows name (its meta's "compare-glibc: DEFAULT OTHER..."),
    the default first; [] for a bench whose figures do not depend on glibc."""
    meta = labdata.read_keyvalues(Path(bench_dir) / "meta")
    return meta.first("compare-glibc").split()


def glibc_suffix(states, state):
    """What a row's glibc state adds to its figure's name when the side is the kernel: nothing
    for the bench's default state, ".glibc-STATE" for any other."""
    return "" if not states or state == states[0] else ".glibc-" + state


def with_glibc(name, suffix):
    """name with suffix before its thread count (".tN"), where it has one."""
    m = re.match(r"^(.*?)((\.t[0-9]+)?)$", name)
    return m.group(1) + suffix + m.group(2)


def declared_by_kernel(bench_dir):
    """The names a bench's figures take when the side is the kernel (parse --by-kernel, as
    compare runs it): each declared name, and with every other glibc state."""
    states = glibc_states(bench_dir)
    return [with_glibc(n, glibc_suffix(states, g)) for n in declared(bench_dir)
            for g in (states or [""])]


def op_figure(r):
    """(value, unit) of one lab-harness CSV row: the one place that decides a per-op figure's
    unit. Under icount the counted instructions/op where the program proved its count exact
    (a linearity check filled instructions_per_op): "insn"; else the timed loop's virtual ns,
    one per instruction with the loop's overhead included, not exact: "vns". Elsewhere ns/op:
    "ns". The value is "" when the row has none."""
    if r.get("accel") == "icount":
        if r.get("instructions_per_op", "") != "":
            return r["instructions_per_op"], "insn"
        return r.get("ns_per_op", ""), "vns"
    return r.get("ns_per_op", ""), "ns"


def harness(run, name, bench, threads, suffix=lambda r: ""):
    """Rows of a lab-harness CSV (cpu-read, percpu, alloc, ringbuf): one per row whose status
    is ok, figure = method, then suffix(row), then (parse --by-kernel) its glibc state, then
    ".tN" when threads is true or the row ran more than one thread; its value and unit
    op_figure's; the value the median of the repetitions, so boot 1 and no rep."""
    states = glibc_states(LAB / "bench" / bench) if run.by_kernel else []
    need = ["variant", "accel", "method", "status", "ns_per_op"] + ["glibc_rseq"] * bool(states)
    header = labdata.read_header(run.path / name)
    for c in need:
        if c not in header:
            raise KeyError(c)
    out = []
    for r in run.csv(name):
        if r.get("status") != "ok":
            continue
        value, unit = op_figure(r)
        if value == "":
            continue
        t = r.get("threads", "1") or "1"
        figure = r["method"] + suffix(r) + glibc_suffix(states, r.get("glibc_rseq", "")) + (
            ".t" + t if threads or t != "1" else "")
        out.append([bench, figure, r["variant"], r["accel"], unit, "1", "", value])
    return out


class ParseError(ValueError):
    """A run a bench's parse cannot read: its message is the one line the parse prints."""


def extract_rows(bench, extract, run):
    """extract(run)'s rows; a run without the bench's CSV, or a CSV without a needed column,
    is a ParseError of one line."""
    try:
        return extract(run)
    except FileNotFoundError as e:
        raise ParseError("error: %s: no %s" % (run.path, Path(e.filename).name)) from None
    except KeyError as e:
        raise ParseError("error: %s: no column %s in the %s CSV" % (run.path, e, bench)) from None


# While load_parse runs a parse, the extract function it hands main, by bench.
_loading = None
_loaded = {}


def load_parse(bench):
    """bench/BENCH/parse's extract function, loaded once into this process: compare reads
    every boot's figures, and a Python start for each would cost more than the parse."""
    global _loading
    if bench not in _loaded:
        _loading = {}
        try:
            runpy.run_path(str(LAB / "bench" / bench / "parse"), run_name="parse_" + bench)
            _loaded[bench] = _loading[bench]
        finally:
            _loading = None
    return _loaded[bench]


def main(bench, extract):
    """parse [--by-kernel] RUNDIR: print RUNDIR's figures (extract(run) -> rows) as CSV with
    the header. --by-kernel (compare's figures): the side is the kernel and a row's glibc state
    goes into its figure's name (run.by_kernel, for extract). A run without the bench's CSV,
    or a CSV without a needed column, is one error line. Under load_parse, main only hands
    extract over."""
    if _loading is not None:
        _loading[bench] = extract
        return
    args = sys.argv[1:]
    by_kernel = args[:1] == ["--by-kernel"]
    args = args[1:] if by_kernel else args
    if len(args) != 1 or not Path(args[0]).is_dir():
        sys.exit("usage: bench/%s/parse [--by-kernel] RUNDIR" % bench)
    run = labdata.Run(args[0])
    run.by_kernel = by_kernel
    try:
        rows = extract_rows(bench, extract, run)
    except ParseError as e:
        sys.exit(str(e))
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows)


def run_key(run, name, key):
    """The first word of a "key: value" line of the run's file called name ("" if none):
    the run's variant or accelerator where its CSV has no such column."""
    return (run.keyvalues(name).first(key).split() or [""])[0]
