/* SPDX-License-Identifier: MIT */
/*
 * lab-lttng-ust: the real LTTng-UST (Debian's 2.13, a shared library: Debian ships no static
 * one, so the host only) writing one event of the seed's shape into a session's per-CPU ring
 * buffer, glibc's rseq registration on and off. LTTng-UST asks sched_getcpu() for the buffer
 * once an event, then reserves its slot with atomics: the rows measure "getcpu through the rseq
 * area or through the vDSO, plus the tracer's atomics", not the seed's rseq ring buffer. The
 * program's own sched_getcpu() (lib/getcpu-interpose.c) interposes on glibc's, so the
 * library's calls are counted. It needs a session with lab:event enabled:
 * bench/lttng-ust/session makes one.
 *   lab-lttng-ust --emit N: write N events and exit (the session's count check).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lab-tp.h"

#include "lab/real-lib.h"
#include "lab/options.h"

static const char *prepare(void)
{
	return lttng_ust_tracepoint_enabled(lab, event) ? NULL
		: "unsupported: no tracing session has lab:event enabled (bench/lttng-ust/run makes one)";
}

static __attribute__((noinline)) void loop_event(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		lttng_ust_tracepoint(lab, event, (uint32_t)i);
}

/* The syscall row's environment: LTTng-UST's getcpu plugin beside this program (the same
   folder, lab-lttng-getcpu-syscall.so), loaded by the library as the worker starts. */
static const char *plugin_env(void)
{
	static char env[4096 + 64];
	char exe[4096];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (k <= 0)
		return "LTTNG_UST_GETCPU_PLUGIN=lab-lttng-getcpu-syscall.so";
	exe[k] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(env, sizeof(env), "LTTNG_UST_GETCPU_PLUGIN=%s/lab-lttng-getcpu-syscall.so", exe);
	return env;
}

static const char *path_plugin(void)
{
	return getenv("LTTNG_UST_GETCPU_PLUGIN") ? "LTTng's getcpu plugin: the getcpu system call"
						 : "no plugin loaded";
}

/* The row that needs the plugin: refused unless this process loaded it. */
static const char *prepare_plugin(void)
{
	return getenv("LTTNG_UST_GETCPU_PLUGIN") ? prepare()
		: "unsupported: LTTNG_UST_GETCPU_PLUGIN not set in this process";
}

/* Seed x86-64: LTTng-UST's event write, getcpu + atomics 117.4 ns. */
static const struct lab_case cases[] = {
	LAB_CASE_EMPTY,
	LAB_CASE_GLIBC_ON_OFF("lttng-event", "LTTng-UST event, 32-bit header + uint32", prepare,
			      lab_getcpu_path, loop_event, 117.4, 0),
	{ .name = "lttng-event-syscall", .need = LAB_NEED_ANY, .prepare = prepare_plugin,
	  .label = "LTTng-UST event, 32-bit header + uint32 (getcpu plugin: the system call)",
	  .path = path_plugin, .loop = loop_event, .env = plugin_env },
};

/* The getcpu calls an event makes, over 1000 events. */
static void meta(FILE *f)
{
	fprintf(f, "getcpu_calls_per_op: lttng-event %.3f (counted by interposing sched_getcpu)\n",
		lab_getcpu_per_op(loop_event, 1000));
	fprintf(f, "lttng_ust: Debian's liblttng-ust-dev 2.13, shared; seed_row: the seed's "
		"x86-64 event write, 117.4 ns (getcpu + atomics) vs 98.0 ns (rseq)\n");
}

int main(int argc, char **argv)
{
	static const struct lab_case_bench b = {
		.name = "lttng-ust", .prog = "lab-lttng-ust",
		.title = "LTTng-UST: one event into a snapshot session's per-CPU buffer",
		.cases = cases, .ncases = sizeof(cases) / sizeof(cases[0]), .meta = meta,
	};

	if (argc == 3 && !strcmp(argv[1], "--emit")) {
		lab_usage_init(b.prog, "usage: lab-lttng-ust --emit N");
		if (prepare())
			lab_usage_error("%s", prepare() + strlen("unsupported: "));
		loop_event((uint64_t)lab_parse_long(argv[2], "--emit", 1, 100000000));
		return 0;
	}
	return lab_case_bench_main(&b, argc, argv);
}
