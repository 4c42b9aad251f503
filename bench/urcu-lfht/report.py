# SPDX-License-Identifier: MIT
"""urcu-lfht's report section (found by labreport.loader): the real liburcu's hash table,
add+del with the per-CPU split count and without it, glibc's rseq on and off
(labreport.rseq_sides)."""

from labreport import rseq_sides

ORDER = 25


def tables(runs):
    """The hook labreport calls."""
    return rseq_sides.tables(
        runs, "urcu-lfht", "liburcu's hash table as it ships (Debian's liburcu 0.13)",
        ["one add and one delete an op; the split count asks",
         "sched_getcpu(), which reads the rseq area with glibc's rseq on",
         "and calls the vDSO with it off"],
        (("split count (sched_getcpu each add, each del)", "lfht-acct"),
         ("no count (no sched_getcpu: the control)", "lfht-plain")),
        notes=rseq_sides.imitation(runs, "percpu", ("lock-cmpxchg", "lock-rseq"),
                                   "a per-CPU lock"))
