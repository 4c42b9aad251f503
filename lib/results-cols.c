/* SPDX-License-Identifier: MIT */
/* Shared CSV columns plus a bench's own; see lab/results-cols.h. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/results-cols.h"

void lab_csv_field(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, "%.4f", v);
}

int lab_results_csv_cols(FILE *f, const struct lab_labels *l, const struct lab_result *r, int n,
			 int baseline, const char *extra_header,
			 void (*extra)(FILE *f, int row, void *arg), void *arg)
{
	char *buf = NULL, *line, *save;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);
	int row = -1;

	if (!m)
		return -1;
	/* results.c writes one line per row (newlines inside fields become spaces). */
	lab_results_csv(m, l, r, n, baseline);
	if (fclose(m))
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save), row++) {
		fputs(line, f);
		if (row < 0)
			fputs(extra_header, f);
		else if (row < n)
			extra(f, row, arg);
		fputc('\n', f);
	}
	free(buf);
	return ferror(f) ? -1 : 0;
}
