/* SPDX-License-Identifier: MIT */
/*
 * The kernel's rseq event counters (our rseq-stats series: /sys/kernel/debug/rseq/stats,
 * "name: value" lines), read before and after a benchmark row so that the row can say what the
 * kernel did for it. Absent file: no figures, never zeros.
 */
#ifndef LAB_KSTATS_H
#define LAB_KSTATS_H

#include <stdint.h>

#define LAB_KSTATS_FILE "/sys/kernel/debug/rseq/stats"

/* The counters that get a CSV column (k_<name>_per_mop), in column order. */
#define LAB_KSTATS_N 10
extern const char *const lab_kstats_names[LAB_KSTATS_N];

struct lab_kstats {
	int ok; /* 1 when the file was read */
	uint64_t v[LAB_KSTATS_N];
};

/* Read the counters (LAB_RSEQ_STATS_FILE overrides the path, for tests); 0, or -1 if absent. */
int lab_kstats_read(struct lab_kstats *s);

/* 1 when the counters can be read here. */
int lab_kstats_available(void);

/* Add after - before to sum; returns 0, or -1 (sum untouched) unless both reads worked. */
int lab_kstats_add_delta(uint64_t *sum, const struct lab_kstats *before,
			 const struct lab_kstats *after);

#endif
