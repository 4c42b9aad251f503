# SPDX-License-Identifier: MIT
"""rows: one benchmark row as the seed printed it (label, figure, speedup), with
what the seed left out: the spread of the figure (half the min-max range over the median)
and the interval of the speedup (from the two figures' min and max). Counts (instructions)
print without decimals; a label too long for the line gets a line of its own."""

import math

from labreport.fmt import num

# "- " + label + figure + unit + spread + speedup + its spread = 72 columns at most.
LABEL = 36


def spread(median, low, high):
    """Half the min-max range as a fraction of the median; None without min and max."""
    m, lo, hi = num(median), num(low), num(high)
    if not (m > 0 and low not in ("", None) and high not in ("", None) and hi >= lo):
        return None
    return (hi - lo) / 2 / m


def percent(fraction):
    """A spread as "±N%" (">99%" past that); empty when there is none."""
    if fraction is None:
        return ""
    if fraction == 0:
        return "±0%"
    return ">±99%" if fraction >= 0.995 else "±%.0f%%" % max(fraction * 100, 1)


def figure(value, unit):
    """A figure: counts whole, times with two decimals."""
    v = num(value)
    if unit == "insn" and v == int(v):
        return "%d" % v
    # Four significant figures at most past 1000: the column stays 7 wide.
    return "%.2f" % v if v < 1000 else "%.0f" % v


def speedup(base, row):
    """(ratio, relative half-width) of base / row, the interval from their extremes."""
    b, v = num(base["value"]), num(row["value"])
    if not (b > 0 and v > 0):
        return None, None
    r = b / v
    if spread(base["value"], base.get("min"), base.get("max")) is None or \
            spread(row["value"], row.get("min"), row.get("max")) is None:
        return r, None
    lo = num(base["min"]) / num(row["max"]) if num(row["max"]) > 0 else math.nan
    hi = num(base["max"]) / num(row["min"]) if num(row["min"]) > 0 else math.inf
    return r, (hi - lo) / 2 / r


def line(row, base, label_width=LABEL, ratio=None):
    """The row's line(s). row: label status value min max unit; base: the row speedups
    are taken against (None: no speedups), the base row itself shows none; ratio: the
    speedup and its interval's ends measured over units (lab-ab), in place of the
    extremes' bracket."""
    lab = row["label"] + ":"
    head = "- %-*s" % (label_width, lab)
    lines = []
    if len(lab) > label_width:
        lines, head = ["- " + lab], "  %-*s" % (label_width, "")
    if row["status"] != "ok" or row["value"] == "":
        return lines + [(head + " " + row["status"].split(":")[0][:24]).rstrip()]
    text = "%s %7s %-4s %5s" % (head, figure(row["value"], row["unit"]), row["unit"],
                                 percent(spread(row["value"], row.get("min"), row.get("max"))))
    if base is not None and base is not row:
        r, rs = speedup(base, row) if ratio is None else \
            (ratio[0], (ratio[2] - ratio[1]) / 2 / ratio[0])
        if r is not None:
            text += " %7.1fx %5s" % (r, percent(rs))
    return lines + [text.rstrip()]


def difference(a, b):
    """a - b with its interval from the extremes, and a verdict (instruction counts: the
    difference of two loops of different shapes, so never called exact);
    "unresolved" when the interval covers 0, else "resolved". None when either is missing."""
    if a is None or b is None or a["status"] != "ok" or b["status"] != "ok":
        return None
    d = num(a["value"]) - num(b["value"])
    if a["unit"] == "insn":
        return "%+g %s (two loops' difference: not exact)" % (d, a["unit"])
    if spread(a["value"], a.get("min"), a.get("max")) is None or \
            spread(b["value"], b.get("min"), b.get("max")) is None:
        return "%+.2f %s (no spread recorded: unresolved)" % (d, a["unit"])
    lo, hi = num(a["min"]) - num(b["max"]), num(a["max"]) - num(b["min"])
    verdict = "unresolved" if lo <= 0 <= hi else "resolved"
    return "%+.2f %s, range [%+.2f, %+.2f]: %s" % (d, a["unit"], lo, hi, verdict)


# Helpers for the sections bench folders bring (bench/*/report.py): their CSVs carry the lab's
# results columns (variant, accel, status, ns_per_op, ns_min, ns_max).

def newest_runs(runs, name):
    """{(variant, accel): run}: the newest run holding NAME.csv per environment."""
    found = {}
    for run in runs:
        # make strategy's runs time a user's strategies beside a few rows: not the lab's own.
        if run.has(name + ".csv") and not run.keyvalues(name + ".meta").first("strategy"):
            rows = run.csv(name + ".csv")
            if rows:
                found[(rows[0]["variant"], rows[0]["accel"])] = run
    return found


def newest_by_env(runs, name):
    """{(variant, accel): rows} from the newest run holding NAME.csv per environment."""
    return {k: run.csv(name + ".csv") for k, run in newest_runs(runs, name).items()}


def cell(r, col):
    """A row's cell as a number, None when absent or not one."""
    try:
        return float(r[col])
    except (KeyError, TypeError, ValueError):
        return None


def ns_text(r):
    """A row's ns/op as text, or why it has none ("-" without a row)."""
    if r is None:
        return "-"
    if r["status"] != "ok":
        return r["status"][:8]
    v = cell(r, "ns_per_op")
    return "%.1f" % v if v < 1000 else "%.0f" % v


def ns_speedup(a, b):
    """a's ns/op over b's, with the half-width of its interval from both rows' min and max."""
    if not (a and b and a["status"] == "ok" and b["status"] == "ok"):
        return "-"
    r, rs = speedup(*({"value": x["ns_per_op"], "min": x.get("ns_min", ""),
                       "max": x.get("ns_max", "")} for x in (a, b)))
    return "-" if r is None else "%.1fx%s" % (r, percent(rs))

