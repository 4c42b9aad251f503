/* SPDX-License-Identifier: MIT */
/*
 * A bench that is a table of cases (lab/harness.h), run by one shared main: cpu-read's ways of
 * reading the CPU, and the real libraries' operations. A bench names itself and its table;
 * everything else (options, verification, the worker with glibc's rseq the other way round,
 * timing or icount, CSV and metadata) is lib/case-bench.c's.
 */
#ifndef LAB_CASE_BENCH_H
#define LAB_CASE_BENCH_H

#include <stdio.h>

#include "lab/harness.h"
#include "lab/results.h"

struct lab_case_bench {
	const char *name;  /* NAME.csv and NAME.meta in --out, "bench: NAME" */
	const char *prog;  /* the program, in its messages and usage */
	const char *title; /* the table's title on stdout */
	const struct lab_case *cases; /* the first is the baseline every ratio is against */
	int ncases;
	/* After the table of a timed run: the bench's goals; NULL: none. */
	void (*goals)(FILE *f, const struct lab_result *r, int n);
	/* More metadata lines for NAME.meta; NULL: none. */
	void (*meta)(FILE *f);
};

/* The program's main: argc and argv as main has them; returns its exit status. */
int lab_case_bench_main(const struct lab_case_bench *b, int argc, char **argv);

#endif
