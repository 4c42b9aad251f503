/* SPDX-License-Identifier: MIT */
/* Command-line errors shared by the bench programs (see lab/options.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab/options.h"

static const char *usage_prog = "lab", *usage_text = "";

void lab_usage_init(const char *prog, const char *usage)
{
	usage_prog = prog;
	usage_text = usage;
}

void lab_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", usage_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; %s\n", usage_text);
	exit(2);
}

long lab_parse_long(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		lab_usage_error("%s must be a number from %ld to %ld, not '%s'", what, min, max, s);
	return v;
}
