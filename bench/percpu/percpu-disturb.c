/* SPDX-License-Identifier: MIT */
/*
 * Disturbances for the correctness runs: yields and self-migrations between operations, and a
 * per-thread high-resolution timer whose SIGALRM lands wherever the thread is, often
 * inside an rseq critical section, which the kernel must then abort.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/harness.h"
#include "percpu.h"

static __thread volatile uint64_t signals;
static __thread timer_t timer;
static __thread int timer_on;

void lab_pc_disturb(struct lab_pc_thread *t)
{
	const struct lab_pc_run *r = t->run;

	t->countdown = r->every;
	if (r->disturb & LAB_PC_YIELD)
		sched_yield();
	if ((r->disturb & LAB_PC_MIGRATE) && r->ncpus > 1) {
		t->next_cpu = (t->next_cpu + 1) % r->ncpus;
		lab_pin(r->cpus[t->next_cpu]);
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	signals++;
}

int lab_pc_signals_start(long interval_us, char *msg, size_t len)
{
	struct sigevent ev;
	struct itimerspec its;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGALRM;
	ev._sigev_un._tid = gettid();
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer)) {
		snprintf(msg, len, "timer_create: %s", strerror(errno));
		return -1;
	}
	its.it_interval.tv_sec = its.it_value.tv_sec = interval_us / 1000000;
	its.it_interval.tv_nsec = its.it_value.tv_nsec = (interval_us % 1000000) * 1000;
	timer_settime(timer, 0, &its, NULL);
	timer_on = 1;
	signals = 0;
	return 0;
}

void lab_pc_signals_stop(void)
{
	if (timer_on)
		timer_delete(timer);
	timer_on = 0;
}

uint64_t lab_pc_signals_received(void)
{
	return signals;
}
