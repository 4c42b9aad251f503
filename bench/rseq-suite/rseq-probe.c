/* SPDX-License-Identifier: MIT */
/*
 * rseq-probe: is the rseq system call there? Exit 0 if it is, 1 if the kernel answers
 * ENOSYS, 2 for anything else. The guest suite asks once and skips everything on ENOSYS.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lab/rseq-abi.h"

int main(void)
{
	/* A NULL area with length 0 can never register: EINVAL means the call exists. */
	if (lab_sys_rseq(NULL, 0, 0, 0) == 0)
		return 2;
	if (errno == ENOSYS) {
		printf("rseq: ENOSYS\n");
		return 1;
	}
	if (errno == EINVAL)
		return 0;
	printf("rseq: unexpected %s\n", strerror(errno));
	return 2;
}
