/* SPDX-License-Identifier: MIT */
/* One timed, checked run of a lab-percpu case on N threads (percpu-run.c). */
#ifndef LAB_PERCPU_RUN_H
#define LAB_PERCPU_RUN_H

#include "lab/kstats.h"
#include "percpu.h"
#include "lab/results.h"

struct lab_pc_outcome {
	double wall_ns;
	uint64_t aborts, signals, ops;
	int has_kstats;
	uint64_t kstats[LAB_KSTATS_N]; /* kernel counter deltas over the run */
	char error[256];               /* "" when the run went well and its check was exact */
};

/* When set, each run first prints where every thread's state, node and slot lies (--layout). */
extern FILE *lab_pc_layout_out;

/* Run c with run->nthreads threads (pinned to run->cpus round-robin when pin); 0 or -1. */
int lab_pc_run_case(const struct lab_strategy *c, const struct lab_pc_run *run, int pin,
		    struct lab_pc_outcome *out);

/* The seed-format tables: single-thread rows by strategy with speedups, then the goals. */
void lab_pc_report(FILE *f, const struct lab_result *r, int n, int ncpus);

#endif
