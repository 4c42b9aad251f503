/* SPDX-License-Identifier: MIT */
/*
 * What the multi-threaded per-CPU benches (percpu, ringbuf, alloc) share around their cases:
 * the options they all take, the CPUs they run on, their rows calibrated and timed with N
 * threads (R repetitions interleaved across rows), and their CSV + metadata files. Each bench
 * keeps its cases, its own options, its --check output and its table.
 */
#ifndef LAB_MT_BENCH_H
#define LAB_MT_BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "lab/disturb.h"
#include "lab/results.h"

#define LAB_MT_MAX_COUNTS 64 /* counts in a --threads list */
#define LAB_MT_MAX_CASES 32

/* 2^40, or LONG_MAX where long is 32 bits (arm): 1L << 40 would be 0 there. */
#define LAB_OPS_MAX ((long)((1ULL << 40) < (unsigned long long)LONG_MAX ? (1ULL << 40) : LONG_MAX))

/* The bench, as the shared parts name and check it. */
struct lab_mt_bench {
	const char *prog, *name, *usage; /* "lab-alloc", "alloc" (alloc.csv, alloc.meta), usage */
	int ncases;
	const char *(*case_name)(int i); /* --method names */
	int max_count;                   /* a --threads or --check-threads count: 1 to this */
	long check_ops, max_check_ops;   /* --check-ops: default, largest */
};

/* The options every one of them takes. */
struct lab_mt_options {
	const struct lab_mt_bench *b;
	int selected[LAB_MT_MAX_CASES];  /* --method; every case when it is not given */
	int threads[LAB_MT_MAX_COUNTS], nthreads; /* --threads; none: lab_mt_timing_start's */
	int reps, cpu, check, list, pin, check_threads;
	long duration_ms, signal_us;
	uint64_t every, check_ops;
	unsigned disturb;                /* LAB_DIS_*: none for timing, all for --check, unless given */
	const char *out, *variant, *accel;
};

/* The bench's own options have values below this; the shared ones are above. */
#define LAB_MT_OWN_MAX 0x100

/* Defaults (LAB_VARIANT, LAB_ACCEL from the environment); names PROG for usage errors. */
void lab_mt_options_init(struct lab_mt_options *o, const struct lab_mt_bench *b);

/*
 * getopt_long over the shared options and own (the bench's, NULL-terminated): handles the
 * shared ones, returns each of the bench's own (its val, optarg set), -1 at the end, when the
 * shared defaults that depend on others (--method, --disturb) are set. Bad input: a usage error.
 */
int lab_mt_getopt(int argc, char **argv, const struct option *own, struct lab_mt_options *o);

/* A comma-separated list of counts (1 to max) into out (LAB_MT_MAX_COUNTS); the count. */
int lab_mt_parse_counts(char *list, int *out, const char *option, int max);

/* The CPUs the process may run on: --cpu (default: the current one) first, the others after. */
struct lab_mt_cpus {
	int cpus[CPU_SETSIZE], ncpu;
	int nslots; /* highest allowed CPU + 1: the size of per-CPU arrays */
};

/* Fill c and o->cpu; a --cpu the process may not run on is a usage error. 0, or -1 after a
 * message. */
int lab_mt_cpus(struct lab_mt_options *o, struct lab_mt_cpus *c);

/* The disturbances of a run: --disturb, --every, --signal-us; migrations walk c's CPUs. */
struct lab_disturb lab_mt_disturb(const struct lab_mt_options *o, const struct lab_mt_cpus *c);

/* The --check runs' thread count: --check-threads, or 6 x NCPU. */
int lab_mt_check_threads(const struct lab_mt_options *o, const struct lab_mt_cpus *c);

/* Before the timed rows: the guard on unfinished --out files, the default thread counts (1, 2,
 * 4, ... plus NCPU and 2 x NCPU, up to 2 x NCPU) when --threads was not given. */
void lab_mt_timing_start(struct lab_mt_options *o, const struct lab_mt_cpus *c);

/* A row's shared columns, for one case on threads threads; ENOSYS when the case needs rseq and
 * the kernel has none (have_rseq 0), else its path. The figures are lab_mt_time's. */
struct lab_mt_case {
	const char *name, *label, *strategy;
	int rseq;
	double seed_ns; /* the seed's figure, for its one-thread rows; 0: none */
	const char *(*path)(void);
};
void lab_mt_row(struct lab_result *r, const struct lab_mt_options *o, int threads, int have_rseq,
		const struct lab_mt_case *c);

/* One run of a row, as the bench makes it. */
struct lab_mt_outcome {
	double wall_ns;
	uint64_t ops, aborts; /* over all threads */
	char error[256];
};

/* The bench's rows (an array of n, size bytes each, each starting with its struct lab_result)
 * and how one is run. */
struct lab_mt_rows {
	void *rows;
	size_t size;
	int n;
	/* Run row with iters operations per thread, its threads pinned to pin[i] (NULL: not
	 * pinned); timed 0 while calibrating. 0, or -1 with why in out->error. */
	int (*run)(void *row, const int *pin, uint64_t iters, int timed, struct lab_mt_outcome *out);
	uint64_t first_iters, probe_iters, max_iters; /* calibration: start, growth's end, cap */
	const char *lost; /* said of a timed run that failed (" lost operations"), or "" */
};

/* Calibrate every runnable row to --duration ms, then time R rounds over them, each round
 * starting one row further on: the rows' ns, iters, totals and aborts. 0, or -1 after a
 * message. */
int lab_mt_time(const struct lab_mt_options *o, const struct lab_mt_cpus *c,
		const struct lab_mt_rows *rows);

/*
 * In --out: NAME.csv, the shared columns then the bench's (extra_header and extra as
 * lab_results_csv_cols, its arg the bench's rows; NULL: none), and NAME.meta, the system, the
 * shared lines of the run, then the bench's (meta(f, arg); may be NULL), whole or not at all.
 * 0, or -1 after a message.
 */
int lab_mt_write(const struct lab_mt_options *o, const struct lab_mt_cpus *c,
		 const struct lab_mt_rows *rows, const char *extra_header,
		 void (*extra)(FILE *f, int row, void *arg), void (*meta)(FILE *f, void *arg),
		 void *arg);

/* The row k of rows. */
static inline struct lab_result *lab_mt_result(const struct lab_mt_rows *rows, int k)
{
	return (struct lab_result *)((char *)rows->rows + (size_t)k * rows->size);
}

#endif
