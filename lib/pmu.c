/* SPDX-License-Identifier: MIT */
/*
 * perf_event_open counting around each loop (see lab/pmu.h). In the harness rather than
 * through perf(1) so that the same code counts on the host and in a guest (no perf binary to
 * build per kernel), and counts exactly the timed loop, not the process around it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lab/pmu.h"

static int group = -1, opened;
static char why[160];

static int open_counter(uint64_t config, int leader)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = leader < 0;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, leader, 0);
}

int lab_pmu_open(void)
{
	int fd;

	if (opened)
		return group >= 0 ? 0 : -1;
	opened = 1;
	group = open_counter(PERF_COUNT_HW_CPU_CYCLES, -1);
	if (group < 0) {
		snprintf(why, sizeof(why), "no PMU: cycles counter: %s", strerror(errno));
		return -1;
	}
	fd = open_counter(PERF_COUNT_HW_INSTRUCTIONS, group);
	if (fd < 0) {
		snprintf(why, sizeof(why), "no PMU: instructions counter: %s", strerror(errno));
		close(group);
		group = -1;
		return -1;
	}
	return 0;
}

const char *lab_pmu_why(void)
{
	lab_pmu_open();
	return group >= 0 ? NULL : why;
}

void lab_pmu_start(void)
{
	if (group < 0)
		return;
	ioctl(group, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(group, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

void lab_pmu_stop(double *cycles, double *instructions)
{
	uint64_t words[5];
	ssize_t got;

	*cycles = *instructions = NAN;
	if (group < 0)
		return;
	ioctl(group, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	got = read(group, words, sizeof(words));
	if (got > 0)
		lab_pmu_decode(words, (size_t)got / sizeof(words[0]), cycles, instructions);
}

void lab_pmu_decode(const uint64_t *w, size_t n, double *cycles, double *instructions)
{
	double scale;

	*cycles = *instructions = NAN;
	if (n < 5 || w[0] != 2 || w[2] == 0 || w[1] < w[2])
		return;
	scale = (double)w[1] / (double)w[2];
	*cycles = (double)w[3] * scale;
	*instructions = (double)w[4] * scale;
}
