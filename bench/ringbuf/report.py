# SPDX-License-Identifier: MIT
"""The ring buffer's section of the report (found by scripts/report_bench): the newest
ringbuf.csv of the host and of each guest, in the seed's "getcpu+atomic vs rseq, speedup"
form. Lines fit 72 columns."""

import report_rows


def newest(runs, name):
    """{(variant, accel): rows} from the newest run holding NAME.csv (read by labdata)."""
    found = {}
    for run in runs:
        if run.has(name + ".csv"):
            rows = run.csv(name + ".csv")
            if rows:
                found[(rows[0]["variant"], rows[0]["accel"])] = rows
    return found


def num(r, col):
    try:
        return float(r[col])
    except (KeyError, TypeError, ValueError):
        return None


def fig(r):
    """A row's ns/op as text, or why it has none."""
    if r is None:
        return "-"
    if r["status"] != "ok":
        return r["status"][:8]
    v = num(r, "ns_per_op")
    return "%.1f" % v if v < 1000 else "%.0f" % v


def speedup(a, b):
    """a over b with the half-width of its interval from both rows' min and max."""
    if not (a and b and a["status"] == "ok" and b["status"] == "ok"):
        return "-"
    r, rs = report_rows.speedup(*({"value": x["ns_per_op"], "min": x.get("ns_min", ""),
                                   "max": x.get("ns_max", "")} for x in (a, b)))
    return "-" if r is None else "%.1fx%s" % (r, report_rows.percent(rs))


def head(title, md):
    return ["", "### " + title, "", "```"] if md else ["", title, "-" * len(title)]


def section(runs, md):
    """The hook scripts/report_bench calls."""
    runs = newest(runs, "ringbuf")
    if not runs:
        return []
    out = head("Tracer event write, per-CPU ring buffer (ns/event)", md)
    out += ["seed x86-64: getcpu+atomic 117.4 ns, rseq 98.0 ns: 1.2x",
            "seed arm32: 2502 vs 2250 ns",
            "%-8s %-6s %3s %13s %8s %10s %10s" % ("variant", "accel", "thr", "getcpu+atomic",
                                                  "rseq", "per-thread", "speedup")]
    for (variant, accel), rows in sorted(runs.items()):
        by = {}
        for r in rows:
            by.setdefault(int(r["threads"]), {})[r["method"]] = r
        for thr in sorted(by):
            g, s, p = (by[thr].get("ringbuf-" + m) for m in ("getcpu-atomic", "rseq", "per-thread"))
            out.append("%-8s %-6s %3d %13s %8s %10s %10s" % (variant[:8], accel[:6], thr, fig(g),
                                                            fig(s), fig(p), speedup(g, s)))
    out += ["speedup: getcpu+atomic over rseq, same threads, +-half its range",
            "from the reps' min and max; host: no noise control; TCG rows are",
            "emulator timings"]
    return out + (["```"] if md else [])
