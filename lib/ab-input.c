/* SPDX-License-Identifier: MIT */
/* lab-ab's input: number files and the samples stream into samples (lab/ab-input.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ab-input.h"

static struct lab_sample *sample_get(struct lab_samples *ss, const char *key,
				     const char *variant, const char *accel)
{
	struct lab_sample *s;

	for (int i = 0; i < ss->n; i++) {
		s = &ss->s[i];
		if (!strcmp(s->key, key) && !strcmp(s->variant, variant) && !strcmp(s->accel, accel))
			return s;
	}
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 8;
		ss->s = realloc(ss->s, ss->cap * sizeof(*ss->s));
		if (!ss->s)
			abort();
	}
	s = &ss->s[ss->n++];
	*s = (struct lab_sample){ .key = strdup(key), .variant = strdup(variant),
				  .accel = strdup(accel) };
	return s;
}

/* A value, with its unit and pair labels (NULL when not asked for). */
static void sample_add_labelled(struct lab_sample *s, double x, const char *unit,
				const char *pair)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
		if (unit || s->unit)
			s->unit = realloc(s->unit, s->cap * sizeof(*s->unit));
		if (pair || s->pair)
			s->pair = realloc(s->pair, s->cap * sizeof(*s->pair));
		if ((unit && !s->unit) || (pair && !s->pair))
			abort();
	}
	if (s->unit)
		s->unit[s->n] = strdup(unit);
	if (s->pair)
		s->pair[s->n] = strdup(pair);
	s->v[s->n++] = x;
}

static void sample_add(struct lab_sample *s, double x)
{
	sample_add_labelled(s, x, NULL, NULL);
}

/* A whole field as a finite decimal number (blanks around it allowed; no hex, inf or nan, which
 * strtod takes), or -1. */
static int parse_number(const char *f, double *x)
{
	char *end;
	size_t n;

	while (*f == ' ')
		f++;
	/* a decimal number's characters, then blanks only */
	n = strspn(f, "0123456789+-.eE");
	if (f[n + strspn(f + n, " \r\n")])
		return -1;
	*x = strtod(f, &end);
	if (end == f)
		return -1; /* no number (before the blanks are skipped: "\r" alone is not 0) */
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	/* ERANGE: an overflow is inf, refused; an underflow is the nearest double, as Python's
	 * float() reads it (scripts/labdata.py) */
	return *end || !isfinite(*x) ? -1 : 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		*--e = 0;
	return s;
}

int lab_read_numbers(struct lab_samples *ss, const char *path, const char *variant,
		     char *err, int errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, accel[64] = "";
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	double x;
	struct lab_sample *s;
	/* Values first: the accel line may come anywhere. */
	struct lab_sample tmp = { 0 };

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		char *l;

		lineno++;
		if (memchr(line, 0, len)) {
			snprintf(err, errlen, "%s:%d: a NUL byte (not a text file)", path, lineno);
			rc = -1;
			break;
		}
		l = trim(line);
		if (sscanf(l, "# accel: %63s", accel) == 1 || *l == '#' || !*l)
			continue;
		/* ministat's format: the first whitespace-separated field is the value */
		l[strcspn(l, " \t")] = 0;
		if (parse_number(l, &x)) {
			snprintf(err, errlen, "%s:%d: not a number: '%s'", path, lineno, l);
			rc = -1;
			break;
		}
		sample_add(&tmp, x);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (!rc && !tmp.n) {
		snprintf(err, errlen, "%s: no values", path);
		rc = -1;
	}
	if (!rc) {
		s = sample_get(ss, "", variant, accel);
		for (int i = 0; i < tmp.n; i++)
			sample_add(s, tmp.v[i]);
	}
	free(tmp.v);
	return rc;
}

/* The stream's six fields of one line, split at tabs in place; their number, at most 7. */
static int split_tabs(char *l, char **f)
{
	int n = 0;

	for (char *p = l; n < 7; p++) {
		f[n++] = p;
		p += strcspn(p, "\t");
		if (!*p)
			break;
		*p = 0;
	}
	return n;
}

int lab_read_samples(struct lab_samples *ss, const char *path, const struct lab_ab_cols *cols,
		     char *err, int errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, *fld[7];
	int lineno = 0, rc = -1;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		double x;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = 0;
		if (memchr(line, 0, len)) {
			snprintf(err, errlen, "%s:%d: a NUL byte (not a text file)", path, lineno);
			goto out;
		}
		if (split_tabs(line, fld) != 6) {
			snprintf(err, errlen, "%s:%d: not a samples line (key, variant, accel, unit, "
				 "pair, value: six tab-separated fields)", path, lineno);
			goto out;
		}
		if (parse_number(fld[5], &x)) {
			snprintf(err, errlen, "%s:%d: value is not a number: '%s'", path, lineno, fld[5]);
			goto out;
		}
		sample_add_labelled(sample_get(ss, fld[0], fld[1], fld[2]), x,
				    cols->unit ? fld[3] : NULL, cols->pair ? fld[4] : NULL);
	}
	rc = 0;
out:
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

static void free_labels(char **l, int n)
{
	for (int j = 0; l && j < n; j++)
		free(l[j]);
	free(l);
}

int lab_samples_by_unit(struct lab_samples *ss, const struct lab_ab_cols *cols, char *err,
			int errlen)
{
	for (int i = 0; i < ss->n; i++) {
		struct lab_sample *s = &ss->s[i];
		int nu = 0, n = s->n ? s->n : 1, *of, *first, *cnt;
		double *mean;
		char **unit, **pair = NULL;

		if (!s->unit)
			continue;
		of = malloc(n * sizeof(*of));
		first = malloc(n * sizeof(*first));
		/* of[j]: the unit of row j, numbered in order of first appearance */
		for (int j = 0; j < s->n; j++) {
			int u = 0;

			while (u < nu && strcmp(s->unit[first[u]], s->unit[j]))
				u++;
			if (u == nu)
				first[nu++] = j;
			of[j] = u;
			if (s->pair && strcmp(s->pair[j], s->pair[first[u]])) {
				snprintf(err, errlen, "variant %s%s%s: %s %s has rows with %s %s and %s",
					 s->variant, *s->key ? ", key " : "", s->key, cols->unit,
					 s->unit[j], cols->pair, s->pair[first[u]], s->pair[j]);
				free(of);
				free(first);
				return -1;
			}
		}
		cnt = calloc(n, sizeof(*cnt));
		mean = calloc(n, sizeof(*mean));
		for (int j = 0; j < s->n; j++) {
			cnt[of[j]]++;
			mean[of[j]] += s->v[j];
		}
		for (int u = 0; u < nu; u++)
			mean[u] /= cnt[u];
		s->ssw = 0;
		for (int j = 0; j < s->n; j++)
			s->ssw += (s->v[j] - mean[of[j]]) * (s->v[j] - mean[of[j]]);
		s->rows = s->n;
		s->dfw = s->n - nu;
		unit = malloc(n * sizeof(*unit));
		if (s->pair)
			pair = malloc(n * sizeof(*pair));
		for (int u = 0; u < nu; u++) {
			unit[u] = strdup(s->unit[first[u]]);
			if (pair)
				pair[u] = strdup(s->pair[first[u]]);
		}
		free_labels(s->unit, s->n);
		free_labels(s->pair, s->n);
		free(s->v);
		s->v = mean;
		s->unit = unit;
		s->pair = pair;
		s->n = s->cap = nu;
		free(of);
		free(first);
		free(cnt);
	}
	return 0;
}

void lab_samples_free(struct lab_samples *ss)
{
	for (int i = 0; i < ss->n; i++) {
		free_labels(ss->s[i].unit, ss->s[i].n);
		free_labels(ss->s[i].pair, ss->s[i].n);
		free(ss->s[i].key);
		free(ss->s[i].variant);
		free(ss->s[i].accel);
		free(ss->s[i].v);
	}
	free(ss->s);
	ss->s = NULL;
	ss->n = ss->cap = 0;
}
