/* SPDX-License-Identifier: MIT */
/*
 * An LTTng-UST getcpu plugin (loaded by the library from LTTNG_UST_GETCPU_PLUGIN as a process
 * starts): the CPU from the getcpu system call, the slowest way there is, as LTTng-UST's own
 * example plugin shows how to hand it one. lab-lttng-ust's syscall row runs with it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <lttng/ust-getcpu.h>

static int getcpu_syscall(void)
{
	unsigned int cpu;

	return syscall(SYS_getcpu, &cpu, NULL, NULL) ? -1 : (int)cpu;
}

void lttng_ust_getcpu_plugin_init(void);
void lttng_ust_getcpu_plugin_init(void)
{
	int err = lttng_ust_getcpu_override(getcpu_syscall);

	if (err) {
		fprintf(stderr, "lab getcpu plugin: cannot override getcpu: %s\n", strerror(-err));
		exit(EXIT_FAILURE);
	}
}
