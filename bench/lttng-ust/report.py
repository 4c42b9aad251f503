# SPDX-License-Identifier: MIT
"""lttng-ust's report section (found by labreport.loader): the real tracer's event write,
glibc's rseq on and off (labreport.rseq_sides), beside the seed's figures and the lab's own
ring buffer (bench/ringbuf) on the same host, each saying what it measures."""

from labreport import headline as H
from labreport import rseq_sides
from labreport import stats
from labreport.rows import ns_text

ORDER = 24


def checked(run):
    """The run's count check (events written against babeltrace2's count) and its syscall
    row (LTTng's getcpu plugin)."""
    m = run.keyvalues("lttng-ust.meta")
    written = m.first("lttng_events_written").split(" ")[0]
    read = m.first("lttng_events_read").split(" ")[0]
    plugin = next((r for r in run.csv("lttng-ust.csv") if r["method"] == "lttng-event-syscall"),
                  None)
    return ["  events counted by babeltrace2: %s of %s written" % (read or "?", written or "?"),
            "  getcpu plugin calling the getcpu system call: %s ns" % (
                ns_text(plugin) if plugin else "-")]


def tables(runs):
    """The hook labreport calls."""
    return rseq_sides.tables(
        runs, "lttng-ust", "LTTng-UST as it ships (Debian's 2.13), beside the seed",
        ["one event, a 32-bit header and a uint32 payload, into a snapshot",
         "session's per-CPU buffer; LTTng-UST asks sched_getcpu() once an",
         "event (rseq cpu_id with glibc's rseq on, the vDSO off), then",
         "reserves with atomics: not the seed's rseq ring buffer",
         "seed x86-64 (its tracer): getcpu + atomics 117.4 ns, rseq 98.0 ns"],
        (("event write", "lttng-event"),), more=checked,
        notes=rseq_sides.imitation(runs, "ringbuf", ("ringbuf-getcpu-atomic", "ringbuf-rseq"),
                                   "the seed's buffer"))


def headline(runs, ab):
    """The README headline's row (labreport.headline): the real tracer's event write, glibc's
    rseq off and on, off - on with its interval over the processes, the seed's beside it."""
    rows, run = H.host_rows(runs, "lttng-ust")
    by = H.by_method(rows)
    on, off = by.get("lttng-event-rseq-on"), by.get("lttng-event-rseq-off")
    if run is None or not (on and off):
        return []
    p = stats.paired_methods(stats.lab_ab_path(), run, "lttng-ust.csv",
                             "lttng-event-rseq-off", "lttng-event-rseq-on")
    change = ""
    if p and "nan" not in (p["diff_lo"] + p["diff_hi"]).lower():
        change = "; off - on %+.1f ns [%+.1f, %+.1f]" % (
            float(p["diff"]), float(p["diff_lo"]), float(p["diff_hi"]))
    return [("LTTng-UST 2.13 event (the real tracer): glibc rseq off / on",
             H.host_label(run, "lttng-ust.meta"),
             "%.1f / %.1f ns%s (seed's own tracer 117.4 / 98.0)" % (
                 float(off["ns_per_op"]), float(on["ns_per_op"]), change), run.name)]
