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


def harness(run, name, bench, threads, suffix=lambda r: ""):
    """Rows of a lab-harness CSV (cpu-read, percpu, alloc, ringbuf): one per row whose status
    is ok, figure = method, then suffix(row), then ".tN" when threads counts; ns/op, which
    under icount (one instruction per virtual ns) is instructions/op, as instructions_per_op
    says where the program fills it; the value the median of the repetitions, so boot 1 and
    no rep."""
    out = []
    for r in run.csv(name):
        if r.get("status") != "ok":
            continue
        icount = r.get("accel") == "icount"
        value = (icount and r.get("instructions_per_op")) or r.get("ns_per_op", "")
        if value == "":
            continue
        figure = r["method"] + suffix(r) + (".t%s" % r["threads"] if threads else "")
        out.append([bench, figure, r["variant"], r["accel"], "insn" if icount else "ns",
                    "1", "", value])
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


def time_unit(accel):
    """A figure in virtual ns per operation is instructions under icount: "insn", else "ns"."""
    return "insn" if accel == "icount" else "ns"
