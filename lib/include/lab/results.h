/* SPDX-License-Identifier: MIT */
/* A bench's rows: per-repetition figures in, CSV and the seed-format table out. */
#ifndef LAB_RESULTS_H
#define LAB_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#include "lab/kstats.h"

struct lab_result {
	const char *method, *label;
	char path[96];    /* how the row got its answer here ("" when nothing to say) */
	char status[256]; /* "ok", or why the row has no numbers ("ENOSYS", "unsupported: ...") */
	const char *glibc_rseq; /* glibc's rseq state in the process that ran the row */
	int threads, cpu, reps;
	uint64_t iters;   /* operations per repetition */
	double *ns;       /* per-repetition ns/op, reps of them */
	double *tsc;      /* per-repetition TSC ticks/op (not core cycles), or NULL when the TSC
			     is not invariant; PMU core cycles are pmu_cycles below */
	double seed_ns;   /* reference figure from the seed commit, 0 when none */
	/* Multi-threaded benches (percpu); left zero, these columns stay empty or derived. */
	const char *strategy; /* the row's family ("counter", "list", "lock"); NULL: none */
	uint64_t ops_total;   /* operations over all threads and reps; 0: iters * reps */
	int counts_aborts;    /* 1 when aborts below was counted (rseq rows) */
	uint64_t aborts;      /* rseq aborts (restarts) over ops_total */
	double wall_ns_total; /* wall time of all reps, for the throughput; 0: none */
	/* Kernel rseq events over the row (lab/kstats.h); has_kstats 0: the file was absent. */
	int has_kstats;
	uint64_t kstats[LAB_KSTATS_N];
	/* Counted figures per repetition; NULL: not counted, empty columns. */
	double *instr;      /* instructions/op: exact under QEMU icount, else from the PMU */
	const char *instr_source; /* "icount" or "pmu" */
	double *pmu_cycles; /* PMU core cycles/op */
};

struct lab_labels {
	const char *variant, *accel;
};

int lab_result_ok(const struct lab_result *r);

/*
 * Header and one line per row; baseline is the index of the empty loop, -1 if none. After the
 * CPU-read columns come strategy, ops_total, aborts_per_mop, mops_per_s and one
 * k_<counter>_per_mop per kernel counter (empty when not measured).
 */
void lab_results_csv(FILE *f, const struct lab_labels *l, const struct lab_result *r, int n,
		     int baseline);

/* Operations the row's figures cover: ops_total, else iters * reps; 0 when it has none. */
uint64_t lab_result_ops(const struct lab_result *r);

/* The seed's table: label, ns/op (median), ratio to the baseline, spread, seed figure.
 * Rows with instructions and no ns (QEMU icount) print instructions/op instead. */
void lab_results_table(FILE *f, const struct lab_result *r, int n, int baseline);

#endif
