/* SPDX-License-Identifier: MIT */
/* Test Anything Protocol output for the lab's C tests, read by prove(1). */
#ifndef LAB_TAP_H
#define LAB_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

/* tap_ok(cond, fmt, ...): one numbered "ok"/"not ok" line; returns cond. */
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

static inline void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

#define tap_diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

/* Print the plan at the end and return the exit status: 0 only if all passed. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
