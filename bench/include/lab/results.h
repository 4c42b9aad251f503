/* SPDX-License-Identifier: MIT */
/* A bench's rows: per-repetition figures in, CSV and the seed-format table out. */
#ifndef LAB_RESULTS_H
#define LAB_RESULTS_H

#include <stdint.h>
#include <stdio.h>

struct lab_result {
	const char *method, *label;
	char path[96];    /* how the row got its answer here ("" when nothing to say) */
	char status[256]; /* "ok", or why the row has no numbers ("ENOSYS", "unsupported: ...") */
	const char *glibc_rseq; /* glibc's rseq state in the process that ran the row */
	int threads, cpu, reps;
	uint64_t iters;   /* operations per repetition */
	double *ns;       /* per-repetition ns/op, reps of them */
	double *cycles;   /* per-repetition TSC ticks/op, or NULL when the TSC is not invariant */
	double seed_ns;   /* reference figure from the seed commit, 0 when none */
};

struct lab_labels {
	const char *variant, *accel;
};

int lab_result_ok(const struct lab_result *r);

/* Header and one line per row; baseline is the index of the empty loop, -1 if none. */
void lab_results_csv(FILE *f, const struct lab_labels *l, const struct lab_result *r, int n,
		     int baseline);

/* The seed's table: label, ns/op (median), ratio to the baseline, spread, seed figure. */
void lab_results_table(FILE *f, const struct lab_result *r, int n, int baseline);

#endif
