/* SPDX-License-Identifier: MIT */
/*
 * lab-jemalloc: the real jemalloc (Debian's 5.3, linked statically: it is this program's
 * malloc) with per-CPU arenas (percpu_arena:percpu), glibc's rseq registration on and off: a
 * 64-byte malloc+free through the thread cache (what an application's small allocations do),
 * and with the cache bypassed (MALLOCX_TCACHE_NONE: every operation goes to the arena, where
 * the per-CPU choice lives). The program's sched_getcpu() is wrapped (-Wl,--wrap) to count the
 * calls jemalloc makes: it picks a thread's arena by CPU once, and again only when another
 * thread used that arena last, so a single thread's operations make none, and glibc's rseq
 * cannot change their cost; the metadata gives the counts that say so.
 */
#include <stdint.h>
#include <stdlib.h>
#include <jemalloc/jemalloc.h>

#include "lab/real-lib.h"

/* Read by jemalloc as it starts: per-CPU arenas, as the seed's jemalloc row has them. */
const char *malloc_conf = "percpu_arena:percpu";

#define SIZE 64

static __attribute__((noinline)) void loop_tcache(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		void *p = malloc(SIZE);

		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
	}
}

static __attribute__((noinline)) void loop_arena(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		void *p = mallocx(SIZE, MALLOCX_TCACHE_NONE);

		__asm__ volatile("" : : "r"(p) : "memory");
		dallocx(p, MALLOCX_TCACHE_NONE);
	}
}

/*
 * jemalloc's periodic work (thread-cache garbage collection and decay, run every so many
 * events) makes a loop's instructions not linear in n: under icount its rows are timed
 * (virtual ns), never counted.
 */
static const struct lab_case cases[] = {
	LAB_CASE_EMPTY,
	LAB_CASE_GLIBC_ON_OFF("je-tcache", "jemalloc malloc+free 64 B, thread cache", NULL,
			      lab_getcpu_path, loop_tcache, 0, 1),
	LAB_CASE_GLIBC_ON_OFF("je-arena", "jemalloc mallocx+dallocx 64 B, per-CPU arena", NULL,
			      lab_getcpu_path, loop_arena, 0, 1),
};

/* jemalloc's settings as it reports them, and the getcpu calls an operation makes, over 100000
   of each loop's. */
static void meta(FILE *f)
{
	const char *pa = "unknown";
	unsigned narenas = 0;
	size_t sz = sizeof(pa);

	mallctl("opt.percpu_arena", &pa, &sz, NULL, 0);
	sz = sizeof(narenas);
	mallctl("arenas.narenas", &narenas, &sz, NULL, 0);
	fprintf(f, "jemalloc: %s, Debian's libjemalloc-dev, static; percpu_arena %s, %u arenas\n",
		JEMALLOC_VERSION, pa, narenas);
	fprintf(f, "getcpu_calls_per_op: je-tcache %.3f, je-arena %.3f (counted by wrapping "
		"sched_getcpu)\n", lab_getcpu_per_op(loop_tcache, 100000),
		lab_getcpu_per_op(loop_arena, 100000));
}

int main(int argc, char **argv)
{
	static const struct lab_case_bench b = {
		.name = "jemalloc", .prog = "lab-jemalloc",
		.title = "jemalloc with per-CPU arenas: malloc+free, glibc rseq on and off",
		.cases = cases, .ncases = sizeof(cases) / sizeof(cases[0]), .meta = meta,
	};

	return lab_case_bench_main(&b, argc, argv);
}
