/* SPDX-License-Identifier: MIT */
/* Pinning, timing and CPU verification of bench cases; see lab/harness.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "lab/arch.h"
#include "lab/harness.h"
#include "lab/pmu.h"
#include "lab/rseq-abi.h"

enum lab_mode lab_mode_now(void)
{
	if (__rseq_size > 0)
		return LAB_MODE_ON;
	/* A NULL area is refused with EINVAL by a kernel that has rseq, ENOSYS by one without. */
	if (lab_sys_rseq(NULL, 0, 0, 0) == -1 && errno == ENOSYS)
		return LAB_MODE_ENOSYS;
	return LAB_MODE_OFF;
}

const char *lab_mode_name(enum lab_mode m)
{
	return m == LAB_MODE_ON ? "on" : m == LAB_MODE_OFF ? "off" : "enosys";
}

int lab_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

uint64_t lab_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct lab_sample lab_measure(const struct lab_case *c, uint64_t iters)
{
	struct lab_sample s;
	uint64_t t0, t1;
	unsigned long long k0, k1;

	if (c->enter)
		c->enter();
	lab_pmu_open(); /* counters outside the timed span, so they cost no time */
	lab_pmu_start();
	t0 = lab_now_ns();
	k0 = lab_ticks();
	c->loop(iters);
	k1 = lab_ticks();
	t1 = lab_now_ns();
	lab_pmu_stop(&s.pmu_cycles, &s.pmu_instructions);
	s.ns = (double)(t1 - t0);
	s.ticks = (double)(k1 - k0);
	return s;
}

uint64_t lab_calibrate(const struct lab_case *c, uint64_t target_ns)
{
	/* Grow the count until a loop lasts a tenth of the target, then scale it up. */
	uint64_t probe = target_ns / 10 > 1000000 ? target_ns / 10 : 1000000;
	uint64_t n = 16;
	double ns;

	for (;;) {
		ns = lab_measure(c, n).ns;
		if (ns >= (double)probe || n >= (1ull << 40))
			break;
		n *= 2;
	}
	if (ns < 1)
		ns = 1;
	n = (uint64_t)((double)n * (double)target_ns / ns);
	return n ? n : 1;
}

int lab_verify(const struct lab_case *c, const cpu_set_t *cpus, int home, char *msg, size_t len)
{
	int checked = 0, ret = 0;

	if (c->enter)
		c->enter();
	for (int cpu = 0; cpu < CPU_SETSIZE && ret == 0; cpu++) {
		if (!CPU_ISSET(cpu, cpus))
			continue;
		if (lab_pin(cpu)) {
			snprintf(msg, len, "cannot pin to CPU %d: %s", cpu, strerror(errno));
			ret = -1;
			break;
		}
		/* A few reads: the first may be the one that registers (lazy); a yield between
		   them lets a context switch happen, which per-thread state must survive. */
		for (int k = 0; k < 3 && ret == 0; k++) {
			int ref, got;

			if (k)
				sched_yield();
			ref = sched_getcpu();
			got = c->read ? c->read() : cpu;
			if (ref != cpu) {
				snprintf(msg, len, "sched_getcpu() says %d while pinned to CPU %d", ref, cpu);
				ret = -1;
			} else if (got != cpu) {
				snprintf(msg, len, "%s read CPU %d while pinned to CPU %d", c->name, got, cpu);
				ret = -1;
			}
		}
		checked++;
	}
	if (lab_pin(home) && ret == 0) {
		snprintf(msg, len, "cannot pin back to CPU %d: %s", home, strerror(errno));
		ret = -1;
	}
	return ret ? -1 : checked;
}
