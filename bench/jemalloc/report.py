# SPDX-License-Identifier: MIT
"""jemalloc's report section (found by labreport.loader): the real jemalloc with per-CPU
arenas, malloc+free through its thread cache and straight to the arena, glibc's rseq on and
off (labreport.rseq_sides)."""

from labreport import rseq_sides

ORDER = 26


def tables(runs):
    """The hook labreport calls."""
    return rseq_sides.tables(
        runs, "jemalloc", "jemalloc as it ships (Debian's jemalloc 5.3)",
        ["percpu_arena:percpu; jemalloc picks a thread's arena by CPU once",
         "(again only when another thread used it last): no getcpu an",
         "operation, so glibc's rseq should change nothing (the control)"],
        (("malloc+free 64 B, thread cache", "je-tcache"),
         ("mallocx+dallocx 64 B, no cache: the arena", "je-arena")),
        notes=rseq_sides.imitation(runs, "alloc", ("alloc-getcpu-cas", "alloc-rseq", "alloc-tcache"),
                                   "a per-CPU cache"))
