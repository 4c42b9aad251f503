/* SPDX-License-Identifier: MIT */
/*
 * The kernel's rseq event counters, /sys/kernel/debug/rseq/stats (CONFIG_RSEQ_STATS): upstream's
 * since Linux 6.19, and our backport of them to 6.1 and 6.12 (kernel/patches/rseq-stats*), in
 * upstream's format, one "name: value" line each, values that only grow (no reset). A bench
 * reads them before and after a row and records the differences. An absent file gives no
 * figures, never zeros; a file with none of the expected names is an error, said on stderr.
 */
#ifndef LAB_KSTATS_H
#define LAB_KSTATS_H

#include <stdint.h>

#define LAB_KSTATS_FILE "/sys/kernel/debug/rseq/stats"

/* The counters that get a CSV column (k_<name>_per_mop), in column order: upstream's names. */
enum lab_kstat {
	LAB_KS_EXIT,	/* returns to user mode, every task */
	LAB_KS_SIGNAL,	/* rseq slow-path work on signal delivery */
	LAB_KS_SLOWP,	/* other rseq slow-path (notify-resume) work */
	LAB_KS_FASTP,	/* rseq fast-path work on exit (6.19+; 0 on the backport) */
	LAB_KS_IDS,	/* cpu_id/node_id/mm_cid stores to user space */
	LAB_KS_CS,	/* critical section descriptors evaluated */
	LAB_KS_CLEAR,	/* rseq_cs cleared, ip outside the section */
	LAB_KS_FIXUP,	/* ip moved to the abort handler */
	LAB_KSTATS_N
};
extern const char *const lab_kstats_names[LAB_KSTATS_N];

struct lab_kstats {
	int ok;			/* 1 when the file was read and had expected names */
	unsigned have;		/* bit i: counter i was in the file */
	uint64_t v[LAB_KSTATS_N];
};

/*
 * Read the counters (LAB_RSEQ_STATS_FILE overrides the path, for tests): 0; -1 if the file is
 * absent (quietly) or has none of the expected names (one line on stderr, errno EPROTO).
 */
int lab_kstats_read(struct lab_kstats *s);

/* 1 when the counters can be read here. */
int lab_kstats_available(void);

/*
 * Add after - before to sum for the counters both reads had; returns 0, or -1 (sum untouched)
 * unless both reads worked. A counter that went down (a file that was reset) counts 0.
 */
int lab_kstats_add_delta(uint64_t *sum, const struct lab_kstats *before,
			 const struct lab_kstats *after);

#endif
