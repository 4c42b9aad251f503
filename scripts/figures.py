# SPDX-License-Identifier: MIT
"""figures: the long format every figures.csv holds, and what the bench parsers share.

A figure row is bench,figure,side,accel,unit,boot,rep,value: side the run's variant label,
boot the key that pairs the sides (the round; "1" for one boot or a host run), rep the
repetition inside that boot (empty for a per-boot summary). Each bench/<name>/parse reads its
own CSV through labdata and prints its rows here.
"""

import csv
import sys
from pathlib import Path

import labdata

HEADER = ["bench", "figure", "side", "accel", "unit", "boot", "rep", "value"]


def declared(bench_dir):
    """The figure names bench_dir/meta declares ("figure: NAME UNIT text")."""
    meta = labdata.read_keyvalues(Path(bench_dir) / "meta")
    return [v.split()[0] for v in meta.all("figure") if v.split()]


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
    is ok, figure = method, then suffix(row), then ".tN" when threads counts; its value and
    unit op_figure's; the value the median of the repetitions, so boot 1 and no rep."""
    out = []
    for r in run.csv(name):
        if r.get("status") != "ok":
            continue
        value, unit = op_figure(r)
        if value == "":
            continue
        figure = r["method"] + suffix(r) + (".t%s" % r["threads"] if threads else "")
        out.append([bench, figure, r["variant"], r["accel"], unit, "1", "", value])
    return out


def main(bench, extract):
    """parse RUNDIR: print RUNDIR's figures (extract(run) -> rows) as CSV with the header.
    A run without the bench's CSV, or a CSV without a needed column, is one error line."""
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        sys.exit("usage: bench/%s/parse RUNDIR" % bench)
    run = labdata.Run(sys.argv[1])
    try:
        rows = extract(run)
    except FileNotFoundError as e:
        sys.exit("error: %s: no %s" % (run.path, Path(e.filename).name))
    except KeyError as e:
        sys.exit("error: %s: no column %s in the %s CSV" % (run.path, e, bench))
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows)


def run_key(run, name, key):
    """The first word of a "key: value" line of the run's file called name ("" if none):
    the run's variant or accelerator where its CSV has no such column."""
    return (run.keyvalues(name).first(key).split() or [""])[0]
