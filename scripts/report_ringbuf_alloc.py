# SPDX-License-Identifier: MIT
"""The ring-buffer and allocator sections of the report (issue 17), from data/ alone: the
newest ringbuf.csv and alloc.csv of the host and of each guest variant, in the seed's
"getcpu+atomic vs rseq, speedup" form, and request latency with 95 % intervals. Lines fit
72 columns. sections(data, md) returns the lines; no runs: no lines."""
import csv
import glob
import os


def newest(data, name):
    """{(variant, accel): rows} from the newest run directory holding NAME.csv."""
    found = {}
    for path in sorted(glob.glob(os.path.join(data, "*", name + ".csv"))):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
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
    x, y = (num(r, "ns_per_op") if r and r["status"] == "ok" else None for r in (a, b))
    return "%.2fx" % (x / y) if x and y else "-"


def head(title, md):
    return ["", "### " + title, "", "```"] if md else ["", title, "-" * len(title)]


def ringbuf(data, md):
    runs = newest(data, "ringbuf")
    if not runs:
        return []
    out = head("Tracer event write, per-CPU ring buffer (ns/event)", md)
    out += ["seed x86-64: getcpu+atomic 117.4 ns, rseq 98.0 ns: 1.2x",
            "seed arm32: 2502 vs 2250 ns",
            "%-8s %-6s %3s %13s %8s %10s %8s" % ("variant", "accel", "thr", "getcpu+atomic",
                                                 "rseq", "per-thread", "speedup")]
    for (variant, accel), rows in sorted(runs.items()):
        by = {}
        for r in rows:
            by.setdefault(int(r["threads"]), {})[r["method"]] = r
        for thr in sorted(by):
            g, s, p = (by[thr].get("ringbuf-" + m) for m in ("getcpu-atomic", "rseq", "per-thread"))
            out.append("%-8s %-6s %3d %13s %8s %10s %8s" % (variant[:8], accel[:6], thr, fig(g),
                                                            fig(s), fig(p), speedup(g, s)))
    out += ["speedup: getcpu+atomic over rseq, same threads; host: no",
            "noise control; TCG rows are emulator timings"]
    return out + (["```"] if md else [])


SHORT = {"getcpu-cas": "getcpu+CAS", "percpu-lock": "pcpu lock"}


def ci(r, k, width):
    return ("%.0f [%.0f,%.0f]" % (num(r, k + "_ns"), num(r, k + "_lo"), num(r, k + "_hi"))).rjust(width)


def alloc(data, md):
    runs = newest(data, "alloc")
    if not runs:
        return []
    out = head("Per-CPU allocator cache: alloc+free pair (ns/pair)", md)
    out.append("%-8s %-6s %3s %6s %6s %6s %6s %6s %6s %6s" % (
        "variant", "accel", "thr", "CAS", "rseq", "speed", "lock", "tcache", "arena", "glibc"))
    for (variant, accel), rows in sorted(runs.items()):
        by = {}
        for r in rows:
            if r["strategy"] == "alloc-pair":
                by.setdefault(int(r["threads"]), {})[r["method"][6:]] = r
        for thr in sorted(by):
            b = by[thr]
            out.append("%-8s %-6s %3d %6s %6s %6s %6s %6s %6s %6s" % (
                variant[:8], accel[:6], thr, fig(b.get("getcpu-cas")), fig(b.get("rseq")),
                speedup(b.get("getcpu-cas"), b.get("rseq")), fig(b.get("percpu-lock")),
                fig(b.get("tcache")), fig(b.get("arena")), fig(b.get("glibc"))))
    out += ["CAS: getcpu+CAS, lock: getcpu + per-CPU lock; speed: CAS over rseq",
            "(the seed's form), same threads"]
    out += ([] if not md else ["```"]) + head("Allocator request latency (ns, 95 % CI)", md)
    out += ["seed (jemalloc at Facebook): rseq caches 1-2 % lower average,",
            "2-3 % lower P99 latency",
            "%-11s %2s %-10s %19s %21s" % ("run", "th", "strategy", "p50", "p99")]
    means = ["%-11s %2s %-10s %21s %10s" % ("run", "th", "strategy", "mean", "p99 vs CAS")]
    for (variant, accel), rows in sorted(runs.items()):
        ref = {r["threads"]: r for r in rows if r["strategy"] == "alloc-request"
               and r["method"] == "alloc-getcpu-cas" and r["status"] == "ok"}
        for r in rows:
            if r["strategy"] != "alloc-request":
                continue
            run = ("%s/%s" % (variant, accel) if accel != "none" else variant)[:11]
            who = SHORT.get(r["method"][6:], r["method"][6:])[:10]
            if r["status"] != "ok":
                out.append("%-11s %2s %-10s %s" % (run, r["threads"], who, r["status"][:20]))
                continue
            out.append("%-11s %2s %-10s %19s %21s" % (run, r["threads"], who, ci(r, "req_p50", 19),
                                                       ci(r, "req_p99", 21)))
            rp = ref.get(r["threads"])
            vs = "%+.1f%%" % (100 * (num(r, "req_p99_ns") / num(rp, "req_p99_ns") - 1)) \
                if rp and rp is not r else ""
            means.append("%-11s %2s %-10s %21s %10s" % (run, r["threads"], who,
                                                        ci(r, "req_mean", 21), vs))
    out += [""] + means
    out += ["intervals: order statistics (p50, p99), normal approx. (mean),",
            "samples pooled over reps and threads, assumed independent"]
    return out + (["```"] if md else [])


def sections(data, md=False):
    return ringbuf(data, md) + alloc(data, md)
