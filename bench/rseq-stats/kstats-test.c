/* SPDX-License-Identifier: MIT */
/*
 * kstats-test FIXTURE_DIR: lib/kstats.c against files in upstream's rseq/stats format (6.19,
 * the first posted form without fastp, a later one with slice-extension lines, our backport)
 * and against our pre-upstream format, which must be refused loudly rather than read as zeros.
 * TAP on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kstats.h"
#include "lab/tap.h"

static char dir[512];

static int read_fixture(const char *name, struct lab_kstats *s)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	setenv("LAB_RSEQ_STATS_FILE", path, 1);
	return lab_kstats_read(s);
}

int main(int argc, char **argv)
{
	struct lab_kstats a, b, c;
	uint64_t sum[LAB_KSTATS_N] = { 0 };
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: kstats-test FIXTURE_DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);

	r = read_fixture("upstream-6.19.txt", &a);
	tap_ok(r == 0 && a.ok && a.have == (1u << LAB_KSTATS_N) - 1,
	       "6.19 format: read, all %d counters found (have %#x)", LAB_KSTATS_N, a.have);
	tap_ok(a.v[LAB_KS_EXIT] == 1843921 && a.v[LAB_KS_SIGNAL] == 212 &&
	       a.v[LAB_KS_SLOWP] == 1031 && a.v[LAB_KS_FASTP] == 39480 && a.v[LAB_KS_IDS] == 7210 &&
	       a.v[LAB_KS_CS] == 2115 && a.v[LAB_KS_CLEAR] == 1860 && a.v[LAB_KS_FIXUP] == 255,
	       "6.19 format: each value under its name (exit %llu, slowp %llu, fixup %llu)",
	       (unsigned long long)a.v[LAB_KS_EXIT], (unsigned long long)a.v[LAB_KS_SLOWP],
	       (unsigned long long)a.v[LAB_KS_FIXUP]);

	r = read_fixture("upstream-early.txt", &b);
	tap_ok(r == 0 && !(b.have & (1u << LAB_KS_FASTP)) && b.v[LAB_KS_EXIT] == 52,
	       "the first posted format (no fastp line): read, fastp marked absent");

	r = read_fixture("upstream-slice.txt", &b);
	tap_ok(r == 0 && b.v[LAB_KS_FIXUP] == 3 && b.v[LAB_KS_FASTP] == 400,
	       "slice-extension lines (sgrant, ...) are ignored, the rest read");

	r = read_fixture("backport-6.1.txt", &b);
	tap_ok(r == 0 && b.have == (1u << LAB_KSTATS_N) - 1 && b.v[LAB_KS_FASTP] == 0 &&
	       b.v[LAB_KS_SLOWP] == 40511, "our backport's file reads with the same names");

	/* Differences: backport-6.1 minus 6.19 where it grows, a shrinking counter counts 0. */
	r = lab_kstats_add_delta(sum, &a, &b);
	tap_ok(r == 0 && sum[LAB_KS_EXIT] == 0 &&
	       sum[LAB_KS_SLOWP] == 40511 - 1031 && sum[LAB_KS_FASTP] == 0 &&
	       sum[LAB_KS_CS] == 38115 - 2115,
	       "add_delta: after - before per counter (slowp %llu), none negative",
	       (unsigned long long)sum[LAB_KS_SLOWP]);

	errno = 0;
	r = read_fixture("pre-upstream-lab.txt", &c);
	tap_ok(r == -1 && errno == EPROTO && !c.ok,
	       "our pre-upstream format (notify_resume, ...) is refused, not read as zeros");
	memset(sum, 0, sizeof(sum));
	tap_ok(lab_kstats_add_delta(sum, &a, &c) == -1 && sum[LAB_KS_EXIT] == 0,
	       "and a delta with it is refused, the sum untouched");

	errno = 0;
	r = read_fixture("no-such-file.txt", &c);
	tap_ok(r == -1 && errno == ENOENT, "an absent file: -1, ENOENT (no figures)");
	return tap_done();
}
