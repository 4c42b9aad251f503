/* SPDX-License-Identifier: MIT */
/* Shared start-up of the rseq ABI tests: own the registration, and skip cleanly without rseq. */
#ifndef LAB_RSEQ_TEST_H
#define LAB_RSEQ_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/rseq-abi.h"

#define LAB_GLIBC_RSEQ_OFF "glibc.pthread.rseq=0"

/*
 * The tests register areas of their own, which the kernel refuses while glibc's registration
 * is in place: if glibc registered, run this program again with its registration turned off.
 */
static inline void lab_rseq_take_over(char **argv)
{
	const char *t = getenv("GLIBC_TUNABLES");

	if (__rseq_size == 0)
		return;
	if (t && strstr(t, LAB_GLIBC_RSEQ_OFF)) {
		printf("Bail out! glibc registered rseq although " LAB_GLIBC_RSEQ_OFF " is set\n");
		exit(1);
	}
	setenv("GLIBC_TUNABLES", LAB_GLIBC_RSEQ_OFF, 1);
	execv("/proc/self/exe", argv);
	printf("Bail out! cannot re-exec /proc/self/exe: %s\n", strerror(errno));
	exit(1);
}

/* A kernel without rseq answers ENOSYS to anything; that is a skip, not a failure. */
static inline void lab_rseq_skip_if_absent(void)
{
	if (lab_sys_rseq(NULL, 0, 0, 0) == -1 && errno == ENOSYS) {
		printf("1..0 # SKIP rseq: ENOSYS\n");
		exit(0);
	}
}

#endif
