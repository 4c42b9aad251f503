#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real jemalloc on the host (rseq_sides_host: one run, every row measured with glibc's rseq
# on and off as named, figures, the report's off - on with its interval, bad options refused),
# with per-CPU arenas as configured, and no sched_getcpu() call an operation: jemalloc picks a
# thread's arena once, which is why glibc's rseq cannot change these figures.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-jemalloc
rseq_sides_host jemalloc je-tcache je-arena
trap 'rm -rf "$t"' EXIT
like "$(cat "$d/jemalloc.meta")" "^jemalloc: 5\.[0-9.]+-.*percpu_arena percpu, [0-9]+ arenas$" \
	"jemalloc 5 with percpu_arena percpu"
like "$(cat "$d/jemalloc.meta")" "^getcpu_calls_per_op: je-tcache 0\.000, je-arena 0\.000 " \
	"sched_getcpu counted: none an operation"
done_testing
