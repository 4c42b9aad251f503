/* SPDX-License-Identifier: MIT */
/*
 * lab-vtime: the guest clock at nanosecond resolution, for hackbench under icount, where
 * hackbench's own "Time:" (milliseconds) is too coarse to tell an exact repeat from a near one.
 *   lab-vtime                      print CLOCK_MONOTONIC in ns
 *   lab-vtime FILE CMD [ARG...]    run CMD, write "vtime_ns: N" (CLOCK_MONOTONIC from just
 *                                  before fork to just after wait) to FILE; exit as CMD did
 *   lab-vtime --spin N             spin N iterations (a reproducible shift of everything after
 *                                  it: under deterministic icount, the seed of a trajectory)
 * Under icount with shift=0 one ns is one guest instruction, plus any idle warp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	FILE *f;
	pid_t pid;
	int st;

	if (argc == 1) {
		printf("%lld\n", now_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--spin")) {
		char *end;
		unsigned long long n = strtoull(argv[2], &end, 10);
		volatile unsigned long long i;

		if (*end || end == argv[2]) {
			fprintf(stderr, "lab-vtime: --spin wants a number, not '%s'\n", argv[2]);
			return 2;
		}
		for (i = 0; i < n; i++)
			;
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: lab-vtime [FILE CMD [ARG...]]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("lab-vtime: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("lab-vtime: exec");
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid) {
		perror("lab-vtime: waitpid");
		return 2;
	}
	t1 = now_ns();
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "vtime_ns: %lld\n", t1 - t0) < 0 || fclose(f)) {
		perror(argv[1]);
		return 2;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
