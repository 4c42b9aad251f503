# SPDX-License-Identifier: MIT
"""stats: the report's A/B statistics, all from the lab's one implementation, the C tool
lab-ab. A bench's meta says its experimental unit (`unit: COL ...`, one boot) and what
pairs the two sides (`pair: COL ...` or `pair: none`); lab-ab gets --unit/--pair from
there. Its TSV is read by column name. lab-ab is this tree's own build (make lib-tests), so
nothing here asks it which options it has."""

import math
import os
import subprocess
from pathlib import Path

import labdata
from labreport import loader
from labreport.fmt import number

LAB = Path(__file__).resolve().parents[2]


class StatsError(Exception):
    """lab-ab is missing or refused the input (the message says which)."""


def lab_ab_path(lab=LAB):
    """The lab-ab binary: $AB, else $BUILD/host/bin/lab-ab ($BUILD relative to the lab)."""
    build = os.path.join(str(lab), os.environ.get("BUILD") or "build")
    return os.environ.get("AB") or os.path.join(build, "host", "bin", "lab-ab")


def design_of(bench, bench_dir=None):
    """(unit column, pair column) a bench's meta declares; None for each it does not
    (`pair: none` is None)."""
    m = labdata.read_keyvalues(Path(bench_dir or loader.bench_dir()) / bench / "meta")
    unit = (m.first("unit").split() or [None])[0]
    pair = (m.first("pair").split() or [None])[0]
    return unit, None if pair == "none" else pair


def compare(ab, csv_path, key="mode,ipc", bench=None):
    """lab-ab's comparison of a CSV per the columns key names, with the unit and pairing
    bench's meta declares: its TSV rows as dicts."""
    if not os.access(ab, os.X_OK):
        raise StatsError("no %s (run: make %s)" % (ab, ab))
    cmd = [ab, "--samples", "-", "--format", "tsv"]
    unit, pair = design_of(bench) if bench else (None, None)
    header = labdata.read_header(csv_path)
    design = {}
    for option, col in (("--unit", unit), ("--pair", pair)):
        if col and col in header:
            cmd += [option, col]
            design[option[2:]] = col
    # lab-ab reads no CSV: labdata hands it the rows as its samples stream.
    try:
        samples = labdata.ab_samples(csv_path, key=key, **design)
    except labdata.SamplesError as e:
        raise StatsError(str(e)) from None
    # lab-ab's own complaint goes to stderr as it is; a refusal is reported, not hidden.
    done = subprocess.run(cmd, input=samples, stdout=subprocess.PIPE, **labdata.ENCODING)
    if done.returncode != 0:
        raise StatsError("lab-ab refused %s" % csv_path)
    return labdata.parse_table(done.stdout, delimiter="\t")


def _chi2_cdf(x, df):
    """P(X <= x) for X chi-square with df degrees of freedom (the regularised lower gamma
    function by its series; df is small here, a handful of boots)."""
    if x <= 0:
        return 0.0
    a, z = df / 2.0, x / 2.0
    term = total = 1.0 / a
    k = 1
    while term > total * 1e-15 and k < 10000:
        term *= z / (a + k)
        total += term
        k += 1
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * total)


def chi2_quantile(p, df):
    """The p quantile of the chi-square distribution with df degrees of freedom."""
    lo, hi = 0.0, max(10.0, 10.0 * df)
    while _chi2_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _chi2_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def boots_needed_text(boots, units):
    """"needs 42 boots (95 %: 9 to 30000)": a count of boots that scales with a between-boot
    variance estimated from `units` boots, with the range that variance's 95 % interval
    (chi-square, units - 1 degrees of freedom) gives it; from 2 boots or fewer the range spans
    more than a thousandfold and the count is not given."""
    try:
        b, n = float(boots), int(float(units))
    except (TypeError, ValueError):
        return "boots needed unknown"
    if n <= 2:
        return "boots needed cannot be estimated from %d boots" % n
    df = n - 1
    lo = b * df / chi2_quantile(0.975, df)
    hi = b * df / chi2_quantile(0.025, df)
    return "needs %d boots (95 %%: %d to %d, from %d boots)" % (
        round(b), max(2, math.ceil(lo)), math.ceil(hi), n)


def unit_rows(run, csv_name):
    """{unit: rows} of a run whose units left their own CSV (procs/NN/ on the host, boots/NN/
    in a guest: scripts/bench-lib.sh's host_procs and guest_boots); {} for a run of one."""
    out = {}
    for sub in ("procs", "boots"):
        for path in sorted((run.path / sub).glob("*/" + csv_name)):
            out[path.parent.name] = labdata.read_csv(path)
    return out


def paired_methods(ab, run, csv_name, a, b, value="ns_per_op"):
    """a - b over the run's units, paired by unit (both methods are measured in every
    process or boot): lab-ab's row for a against the base b, or None for a run of fewer than
    two units or without both methods in each."""
    units = unit_rows(run, csv_name)
    lines = []
    for unit, rows in units.items():
        by = {r.get("method"): r for r in rows if r.get("status") == "ok"
              and r.get("threads", "1") in ("", "1")}
        if a not in by or b not in by:
            return None
        for m in (b, a):
            v = by[m].get(value) or by[m].get("instructions_per_op")
            if not v:
                return None
            lines.append("%s-%s\t%s\t\t\t%s\t%s\n" % (a, b, m, unit, v))
    if len(units) < 2 or not os.access(ab, os.X_OK):
        return None
    done = subprocess.run([ab, "--samples", "-", "--format", "tsv", "--pair", "unit",
                           "--base", b], input="".join(lines), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, **labdata.ENCODING)
    if done.returncode != 0:
        return None
    rows = [r for r in labdata.parse_table(done.stdout, delimiter="\t") if r.get("variant") == a]
    return dict(rows[0], units=str(len(units))) if rows else None


def speedup(ab, run, csv_name, base, method, value="ns_per_op"):
    """(base / method, the low and high end of its 95 % interval) over the run's units, paired
    by unit: lab-ab's change of the base against the method (Fieller's interval of the ratio
    of their means); None for a run of fewer than two units or without an interval."""
    r = paired_methods(ab, run, csv_name, base, method, value)
    if r is None:
        return None
    m, d, iv = number(r.get("mean")), number(r.get("diff")), interval(r)
    if m is None or d is None or not (m - d > 0 and iv):
        return None
    return m / (m - d), 1 + iv[0] / 100, 1 + iv[1] / 100


def interval(r):
    """The % change's interval: Fieller's (rel_lo, rel_hi) when lab-ab gives it, else
    pct_lo/pct_hi; None when there is none."""
    for lo, hi in (("rel_lo", "rel_hi"), ("pct_lo", "pct_hi")):
        a, b = number(r.get(lo)), number(r.get(hi))
        if a is not None and b is not None:
            return a, b
    return None


def precision_words(r):
    """What the interval resolves, two different claims: "+-1 % precision" (its
    half-width is <= 1 %) and "within +-1 %" (the whole interval lies inside +-1 %). Empty
    when lab-ab says nothing (no interval)."""
    words = []
    if r.get("precision"):
        words.append("+-1 % precision" if r["precision"] == "yes" else "not +-1 % precision")
        if r.get("within") == "yes":
            words.append("within +-1 %")
    return words


def adjusted(r):
    """The Holm-consistent adjusted % interval as " Holm [lo, hi]", or ""."""
    a, b = number(r.get("adj_lo")), number(r.get("adj_hi"))
    return "" if a is None or b is None else " Holm [%+.1f, %+.1f]" % (a, b)


def design_text(ab, rows, key_cols=("mode", "ipc")):
    """How the comparison was designed, from lab-ab's design column and the CSV rows:
    "3 boots x 8 reps per kernel, paired by round"; "" when lab-ab gave no row."""
    with_design = [r for r in ab if r.get("design")]
    if not with_design:
        return ""
    r = with_design[0]
    design = r["design"]
    units = int(number(r.get("units")) or 0)
    per = {}
    for row in rows:
        k = (row.get("variant"),) + tuple(row.get(c) for c in key_cols)
        per[k] = per.get(k, 0) + 1
    reps = max(per.values()) // units if per and units else 0
    how = design.split(",")[0]
    if units and reps:
        return "%d boots x %d rep%s per variant, %s" % (units, reps, "s"[:reps != 1], how)
    return design
