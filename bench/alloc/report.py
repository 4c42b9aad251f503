# SPDX-License-Identifier: MIT
"""The allocator's section of the report (found by labreport.loader): the newest
alloc.csv of the host and of each guest: alloc+free pairs in the seed's "getcpu+CAS vs rseq,
speedup" form, and request latency (p50, p99, mean) with 95 % intervals."""

import statistics

import labdata
from labreport.fmt import fold
from labreport.model import Table
from labreport.rows import cell as num, newest_by_env as newest, newest_runs
from labreport.rows import ns_speedup as speedup, ns_text as fig


SHORT = {"getcpu-cas": "getcpu+CAS", "percpu-lock": "pcpu lock"}


def ci(r, k, width):
    """A figure and its interval across reps (or units); one rep has no interval, and says so.
    A latency is never below 0: a Student t interval over few, skewed reps whose lower end
    falls below 0 is cut there (the part cut off holds no possible value, so the coverage is
    the same)."""
    if r.get(k + "_lo", "") == "" or r.get(k + "_hi", "") == "":
        return ("%.0f [1 rep]" % num(r, k + "_ns")).rjust(width)
    return ("%.0f [%.0f,%.0f]" % (num(r, k + "_ns"), max(0.0, num(r, k + "_lo")),
                                  num(r, k + "_hi"))).rjust(width)


def p99_vs_cas(run):
    """{(threads, method): (median, lo, hi)} of each process's p99 over its own getcpu+CAS
    p99 - 1, in %: paired by process, the range over processes; {} for a run of one process
    (a guest's boot, an older host run)."""
    ratios = {}
    for path in sorted(run.path.glob("procs/*/alloc.csv")):
        rows = [r for r in labdata.read_csv(path)
                if r.get("strategy") == "alloc-request" and r.get("status") == "ok"]
        cas = {r["threads"]: num(r, "req_p99_ns") for r in rows
               if r["method"] == "alloc-getcpu-cas"}
        for r in rows:
            base, v = cas.get(r["threads"]), num(r, "req_p99_ns")
            if base and v is not None and r["method"] != "alloc-getcpu-cas":
                ratios.setdefault((r["threads"], r["method"]), []).append(100 * (v / base - 1))
    return {k: (statistics.median(v), min(v), max(v)) for k, v in ratios.items() if len(v) > 1}


def clock_pairs(runs):
    """Each environment's clock-pair cost (req_clock_ns), the range over its rows, "ns"."""
    out = []
    for (variant, accel), rows in sorted(runs.items()):
        vs = sorted(num(r, "req_clock_ns") for r in rows if r.get("req_clock_ns"))
        if vs:
            name = "%s/%s" % (variant, accel) if accel != "none" else variant
            out.append("%s %.0f ns" % (name, vs[0]) if round(vs[0]) == round(vs[-1]) else
                       "%s %.0f-%.0f ns" % (name, vs[0], vs[-1]))
    return out or ["not recorded"]


def tables(runs):
    """The hook labreport calls."""
    used = sorted(newest_runs(runs, "alloc").values(), key=lambda r: r.name)
    by_env = newest_runs(runs, "alloc")
    runs = newest(runs, "alloc")
    if not runs:
        return []
    title = "Per-CPU allocator cache: alloc+free pair (ns/pair)"
    out = []
    out.append("%-8s %-6s %3s %6s %6s %9s %6s %6s %6s %6s" % (
        "variant", "accel", "thr", "CAS", "rseq", "speed", "lock", "tcache", "arena", "glibc"))
    for (variant, accel), rows in sorted(runs.items()):
        by = {}
        for r in rows:
            if r["strategy"] == "alloc-pair":
                by.setdefault(int(r["threads"]), {})[r["method"][6:]] = r
        for thr in sorted(by):
            b = by[thr]
            out.append("%-8s %-6s %3d %6s %6s %9s %6s %6s %6s %6s" % (
                variant[:8], accel[:6], thr, fig(b.get("getcpu-cas")), fig(b.get("rseq")),
                speedup(b.get("getcpu-cas"), b.get("rseq")), fig(b.get("percpu-lock")),
                fig(b.get("tcache")), fig(b.get("arena")), fig(b.get("glibc"))))
    out += ["CAS: getcpu+CAS, lock: getcpu + per-CPU lock; speed: CAS over rseq",
            "(the seed's form), same threads, +-half its range from min and max;",
            "TCG rows are emulator ns, icount rows virtual time per pair",
            "(ticks included: not an exact instruction count)"]
    first, out = out, []
    out += ["seed (jemalloc at Facebook): rseq caches 1-2 % lower average,",
            "2-3 % lower P99 latency",
            "%-11s %2s %-10s %19s %21s" % ("run", "th", "strategy", "p50", "p99")]
    means = ["%-11s %2s %-10s %21s %18s" % ("run", "th", "strategy", "mean", "p99 vs CAS")]
    for (variant, accel), rows in sorted(runs.items()):
        paired = p99_vs_cas(by_env[(variant, accel)])
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
            pv = paired.get((r["threads"], r["method"]))
            if pv:
                vs = "%+.1f%% [%+.0f,%+.0f]" % pv
            else:
                vs = "%+.1f%% (1 unit)" % (100 * (num(r, "req_p99_ns") / num(rp, "req_p99_ns") - 1)) \
                    if rp and rp is not r else ""
            means.append("%-11s %2s %-10s %21s %18s" % (run, r["threads"], who,
                                                        ci(r, "req_mean", 21), vs))
    out += [""] + means
    out += ["intervals: on the host, a quantile (mean) per process, the figure",
            "the median process's, [ ] the range over processes (94 % for the",
            "median process with 5); p99 vs CAS per process, paired, its range.",
            "A guest row (or an older host run, [1 unit]): order statistics",
            "(p50, p99), normal approx. (mean) over samples pooled in one boot:",
            "the boot's interval, not a rerun's"]
    clock = clock_pairs(runs)
    out += ["clock pair inside every latency above (two clock reads, the median",
            "of 1001 empty requests): " + clock[0]]
    out += fold("  " + ", ".join(clock[1:])) if clock[1:] else []
    return [Table(title, rows=first, runs=used),
            Table("Allocator request latency (ns, 95 % CI)", rows=out)]
