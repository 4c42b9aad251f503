/* SPDX-License-Identifier: MIT */
/* Samples for lab-ab, read from number files or a CSV (no printing of results here). */
#ifndef LAB_AB_INPUT_H
#define LAB_AB_INPUT_H

/* One sample: the values of one variant under one key (e.g. "process,pipe"). */
struct lab_sample {
	char *key, *variant, *accel; /* accel "" when unknown */
	double *v;
	int n, cap;
};

struct lab_samples {
	struct lab_sample *s;
	int n, cap;
};

/* Column names of --csv input; key may name several columns, comma-separated, or be NULL. */
struct lab_csv_cols {
	const char *variant, *value, *accel, *key;
};

/* Read a file of numbers, one per line ('#' lines and blank lines skipped; a "# accel: X"
 * line sets the accelerator) as one sample labelled variant. 0, or -1 with a one-line error
 * in err. */
int lab_read_numbers(struct lab_samples *ss, const char *path, const char *variant,
		     char *err, int errlen);
/* Read a CSV with a header line; rows are grouped by key and variant in order of first
 * appearance. Fields are split at commas (no quoting). 0, or -1 with an error in err. */
int lab_read_csv(struct lab_samples *ss, const char *path, const struct lab_csv_cols *cols,
		 char *err, int errlen);
void lab_samples_free(struct lab_samples *ss);

#endif
