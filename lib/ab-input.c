/* SPDX-License-Identifier: MIT */
/* lab-ab's input: number files and CSVs into samples (lab/ab-input.h). */
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
	*s = (struct lab_sample){ strdup(key), strdup(variant), strdup(accel), NULL, 0, 0 };
	return s;
}

static void sample_add(struct lab_sample *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = x;
}

/* A whole field as a finite number, or -1. */
static int parse_number(const char *f, double *x)
{
	char *end;

	errno = 0;
	*x = strtod(f, &end);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	return end == f || *end || errno || !isfinite(*x) ? -1 : 0;
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
	int lineno = 0, rc = 0;
	double x;
	struct lab_sample *s;
	/* Values first: the accel line may come anywhere. */
	struct lab_sample tmp = { 0 };

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *l = trim(line);

		lineno++;
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
	if (!rc) {
		s = sample_get(ss, "", variant, accel);
		for (int i = 0; i < tmp.n; i++)
			sample_add(s, tmp.v[i]);
	}
	free(tmp.v);
	return rc;
}

#define MAX_FIELDS 256

static int split(char *l, char **fields)
{
	int n = 0;

	for (char *p = l;; p++) {
		if (n == MAX_FIELDS)
			return -1;
		fields[n++] = p;
		p += strcspn(p, ",");
		if (!*p)
			break;
		*p = 0;
	}
	return n;
}

static int column(char **hdr, int nhdr, const char *name)
{
	for (int i = 0; i < nhdr; i++)
		if (!strcmp(hdr[i], name))
			return i;
	return -1;
}

int lab_read_csv(struct lab_samples *ss, const char *path, const struct lab_csv_cols *cols,
		 char *err, int errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, *hdrline = NULL, *hdr[MAX_FIELDS], *fld[MAX_FIELDS], key[1024];
	int keycol[16], nkey = 0, nhdr, cv, cx, ca, lineno = 1, rc = -1;
	size_t cap = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (getline(&hdrline, &cap, f) <= 0) {
		snprintf(err, errlen, "%s: empty file, no CSV header", path);
		goto out;
	}
	cap = 0;
	nhdr = split(trim(hdrline), hdr);
	cv = column(hdr, nhdr, cols->variant);
	cx = column(hdr, nhdr, cols->value);
	ca = cols->accel ? column(hdr, nhdr, cols->accel) : -1;
	if (cv < 0 || cx < 0) {
		snprintf(err, errlen, "%s: no column '%s' in the header", path,
			 cv < 0 ? cols->variant : cols->value);
		goto out;
	}
	if (cols->key) {
		char *k = strdup(cols->key), *save = NULL;

		for (char *t = strtok_r(k, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (nkey == 16 || (keycol[nkey++] = column(hdr, nhdr, t)) < 0) {
				snprintf(err, errlen, "%s: no key column '%s' in the header", path, t);
				free(k);
				goto out;
			}
		}
		free(k);
	}
	while (getline(&line, &cap, f) > 0) {
		char *l = trim(line);
		int n, len = 0;
		double x;

		lineno++;
		if (!*l)
			continue;
		n = split(l, fld);
		if (n != nhdr) {
			snprintf(err, errlen, "%s:%d: %d fields, the header has %d", path, lineno, n, nhdr);
			goto out;
		}
		if (parse_number(fld[cx], &x)) {
			snprintf(err, errlen, "%s:%d: %s is not a number: '%s'", path, lineno,
				 cols->value, fld[cx]);
			goto out;
		}
		key[0] = 0;
		for (int i = 0; i < nkey; i++)
			len += snprintf(key + len, sizeof(key) - len, "%s%s", i ? "," : "", fld[keycol[i]]);
		sample_add(sample_get(ss, key, fld[cv], ca >= 0 ? fld[ca] : ""), x);
	}
	rc = 0;
out:
	free(line);
	free(hdrline);
	if (f != stdin)
		fclose(f);
	return rc;
}

void lab_samples_free(struct lab_samples *ss)
{
	for (int i = 0; i < ss->n; i++) {
		free(ss->s[i].key);
		free(ss->s[i].variant);
		free(ss->s[i].accel);
		free(ss->s[i].v);
	}
	free(ss->s);
	ss->s = NULL;
	ss->n = ss->cap = 0;
}
