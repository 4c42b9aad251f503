/* SPDX-License-Identifier: MIT */
/* Samples for lab-ab, read from number files or a samples stream (no printing of results here).
 * CSV is not read here: scripts/ab-csv (labdata) turns a CSV into the stream. */
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

/* What --unit and --pair call the stream's unit and pair fields (e.g. "round"), NULL when not
 * asked: only then are those fields used. */
struct lab_ab_cols {
	const char *unit, *pair;
};

/* Read a file of numbers, one per line ('#' lines and blank lines skipped; a "# accel: X"
 * line sets the accelerator) as one sample labelled variant. 0, or -1 with a one-line error
 * in err. */
int lab_read_numbers(struct lab_samples *ss, const char *path, const char *variant,
		     char *err, int errlen);
/* Read a samples stream: one value a line, "key<TAB>variant<TAB>accel<TAB>unit<TAB>pair<TAB>value"
 * (every label may be empty, none holds a tab or a newline; no quoting, no header, no comments);
 * values are grouped by key, variant and accel in order of first appearance. 0, or -1 with an
 * error in err. */
int lab_read_samples(struct lab_samples *ss, const char *path, const struct lab_ab_cols *cols,
		     char *err, int errlen);
/* Each sample's rows summarised per distinct unit value (in order of first appearance) by
 * their mean; a unit's rows must share one pair value. 0, or -1 with an error in err. */
int lab_samples_by_unit(struct lab_samples *ss, const struct lab_ab_cols *cols, char *err,
			int errlen);
void lab_samples_free(struct lab_samples *ss);

#endif
