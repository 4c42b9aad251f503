/* SPDX-License-Identifier: MIT */
/*
 * lab-check: run in a guest by the harness tests. Checks that the guest is the kernel and
 * machine that were asked for, and that rseq is there or not as the variant says.
 * usage: lab-check RELEASE CPUS yes|no     (TAP on stdout, exit 0 only if all pass)
 * Run it with GLIBC_TUNABLES=glibc.pthread.rseq=0 so that the area it registers is fresh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lab/rseq-abi.h"
#include "lab/tap.h"

static __thread struct rseq area __attribute__((aligned(32)));

int main(int argc, char **argv)
{
	struct utsname u;
	long want_cpus, online;
	int want_rseq, ret;

	if (argc != 4 || (strcmp(argv[3], "yes") && strcmp(argv[3], "no"))) {
		fprintf(stderr, "usage: lab-check RELEASE CPUS yes|no\n");
		return 2;
	}
	want_cpus = strtol(argv[2], NULL, 10);
	want_rseq = !strcmp(argv[3], "yes");

	uname(&u);
	tap_ok(!strcmp(u.release, argv[1]), "uname -r is %s (got %s)", argv[1], u.release);
	online = sysconf(_SC_NPROCESSORS_ONLN);
	tap_ok(online == want_cpus, "%ld CPUs online (got %ld)", want_cpus, online);

	if (!tap_ok(lab_glibc_rseq() == NULL, "glibc left rseq unregistered (__rseq_size %u)", __rseq_size))
		tap_diag("run with GLIBC_TUNABLES=glibc.pthread.rseq=0");
	ret = lab_rseq_register(&area);
	if (want_rseq) {
		tap_ok(ret == 0, "rseq registers a fresh area (%s)", ret ? strerror(errno) : "0");
		tap_ok(ret == 0 && (int)area.cpu_id == sched_getcpu(),
		       "cpu_id %d matches sched_getcpu %d", (int)area.cpu_id, sched_getcpu());
		tap_ok(ret == 0 && lab_rseq_unregister(&area) == 0, "rseq unregisters it");
	} else {
		tap_ok(ret == -1 && errno == ENOSYS, "rseq returns ENOSYS (%s)",
		       ret ? strerror(errno) : "registered!");
	}
	return tap_done();
}
