/* SPDX-License-Identifier: MIT */
/* Samples for lab-ab, read from number files or a CSV (no printing of results here). */
#ifndef LAB_AB_INPUT_H
#define LAB_AB_INPUT_H

/* One sample: the values of one variant under one key (e.g. "process,pipe"). */
struct lab_sample {
	char *key, *variant, *accel; /* accel "" when unknown */
	double *v;
	int n, cap;
	/* Per value, its --unit and --pair columns' values (NULL when not asked). */
	char **unit, **pair;
	/* After lab_samples_by_unit: v holds unit means; rows summarised, their sum of squares
	 * about their unit's mean and its degrees of freedom (rows - units). */
	int rows, dfw;
	double ssw;
};

struct lab_samples {
	struct lab_sample *s;
	int n, cap;
};

/* Column names of --csv input; key may name several columns, comma-separated, or be NULL;
 * unit and pair name one column each, or are NULL. */
struct lab_csv_cols {
	const char *variant, *value, *accel, *key, *unit, *pair;
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
/* Each sample's rows summarised per distinct unit value (in order of first appearance) by
 * their mean; a unit's rows must share one pair value. 0, or -1 with an error in err. */
int lab_samples_by_unit(struct lab_samples *ss, const struct lab_csv_cols *cols, char *err,
			int errlen);
void lab_samples_free(struct lab_samples *ss);

#endif
