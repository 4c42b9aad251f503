/* SPDX-License-Identifier: MIT */
/*
 * What the benches' rseq rows share around the kernel tree's own selftests rseq helpers
 * (tools/testing/selftests/rseq/rseq.h and rseq-ARCH.h, compiled in place from the unpacked
 * tree, with its rseq.c linked for the registration and glibc co-existence; nothing copied).
 * rseq_available() may be called from any file; the helpers below it are there only in files
 * compiled with the tree's include paths, after <rseq.h>.
 */
#ifndef LAB_SELFTESTS_RSEQ_H
#define LAB_SELFTESTS_RSEQ_H

#include <stddef.h>

/* In the selftests' rseq.c, which 6.1's rseq.h does not declare: 1 when the kernel has rseq. */
int rseq_available(void);

#ifdef RSEQ_H /* the tree's rseq.h was included */
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Register the calling thread (a no-op when glibc registered it: rseq.c then uses glibc's
 * area) and see the kernel's CPU number in the area: 0, or -1 with why in msg. */
static inline int lab_st_rseq_register(char *msg, size_t len)
{
	if (rseq_register_current_thread()) {
		snprintf(msg, len, "rseq registration failed: %s", strerror(errno));
		return -1;
	}
	if (rseq_current_cpu_raw() < 0) {
		snprintf(msg, len, "rseq cpu_id is %d after registration", rseq_current_cpu_raw());
		return -1;
	}
	return 0;
}

/* A row's path: the helpers, and whose rseq area they work on. */
static inline const char *lab_st_rseq_path(void)
{
	extern unsigned int __rseq_size __attribute__((weak));

	return &__rseq_size && __rseq_size ? "selftests rseq.h, glibc's rseq area"
					   : "selftests rseq.h, own rseq area";
}
#endif

#endif
