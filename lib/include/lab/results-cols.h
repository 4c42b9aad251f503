/* SPDX-License-Identifier: MIT */
/*
 * A bench's own columns after the shared ones: lab_results_csv's header and rows, each line
 * followed by the bench's extra fields. The shared columns stay exactly as results.c writes them.
 */
#ifndef LAB_RESULTS_COLS_H
#define LAB_RESULTS_COLS_H

#include <stdio.h>

#include "lab/results.h"

/* extra_header: ",col1,col2..." (with the leading comma); extra(f, i, arg) prints row i's
 * fields the same way (",v1,v2", empty fields for no figure). 0, or -1 on a write error. */
int lab_results_csv_cols(FILE *f, const struct lab_labels *l, const struct lab_result *r, int n,
			 int baseline, const char *extra_header,
			 void (*extra)(FILE *f, int row, void *arg), void *arg);

/* A number field with its leading comma, empty for NaN. */
void lab_csv_field(FILE *f, double v);

#endif
