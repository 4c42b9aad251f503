# SPDX-License-Identifier: MIT
"""The ring buffer's section of the report (found by labreport.loader): the newest
ringbuf.csv of the host and of each guest, in the seed's "getcpu+atomic vs rseq, speedup"
form. Lines fit 72 columns."""

from labreport.model import Table
from labreport.rows import newest_by_env as newest, newest_runs
from labreport.rows import ns_speedup as speedup, ns_text as fig


def tables(runs):
    """The hook labreport calls."""
    used = sorted(newest_runs(runs, "ringbuf").values(), key=lambda r: r.name)
    runs = newest(runs, "ringbuf")
    if not runs:
        return []
    rows = []
    for (variant, accel), found in sorted(runs.items()):
        by = {}
        for r in found:
            by.setdefault(int(r["threads"]), {})[r["method"]] = r
        for thr in sorted(by):
            g, s, p = (by[thr].get("ringbuf-" + m) for m in ("getcpu-atomic", "rseq", "per-thread"))
            rows.append((variant[:8], accel[:6], "%d" % thr, fig(g), fig(s), fig(p), speedup(g, s)))
    return [Table("Tracer event write, per-CPU ring buffer (ns/event)",
                  intro=["seed x86-64: getcpu+atomic 117.4 ns, rseq 98.0 ns: 1.2x",
                         "seed arm32: 2502 vs 2250 ns"],
                  fmt="%-8s %-6s %3s %13s %8s %10s %10s",
                  header=[("variant", "accel", "thr", "getcpu+atomic", "rseq", "per-thread",
                           "speedup")], rows=rows,
                  notes=["speedup: getcpu+atomic over rseq, same threads, +-half its range",
                         "from the reps' min and max; host: no noise control; TCG rows are",
                         "emulator timings; icount rows are virtual time per event (ticks",
                         "included: not an exact instruction count)"],
                  runs=used)]
