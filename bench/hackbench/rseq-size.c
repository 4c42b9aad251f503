/* SPDX-License-Identifier: MIT */
/*
 * lab-rseq-size [on|off|none]: print glibc's __rseq_size, i.e. whether glibc registered rseq
 * for this thread (0: not registered, because GLIBC_TUNABLES=glibc.pthread.rseq=0 or because
 * the kernel has no rseq). Built dynamically, like hackbench, so that it runs on the same
 * libc.so in the guest. With an argument, exit 1 unless the state is the expected one:
 * "on" wants > 0, "off" and "none" want 0.
 */
#include <stdio.h>
#include <string.h>
#include <sys/rseq.h>

int main(int argc, char **argv)
{
	int ok = 1;

	printf("%u\n", __rseq_size);
	if (argc > 1) {
		if (!strcmp(argv[1], "on"))
			ok = __rseq_size > 0;
		else if (!strcmp(argv[1], "off") || !strcmp(argv[1], "none"))
			ok = __rseq_size == 0;
		else
			ok = 0;
		if (!ok)
			fprintf(stderr, "lab-rseq-size: glibc rseq registration is not '%s' "
				"(__rseq_size %u)\n", argv[1], __rseq_size);
	}
	return !ok;
}
