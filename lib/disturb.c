/* SPDX-License-Identifier: MIT */
/* Disturbances for correctness runs; see lab/disturb.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/disturb.h"
#include "lab/harness.h"

static __thread volatile uint64_t signals;
static __thread timer_t timer;
static __thread int timer_on;

unsigned lab_disturb_parse(const char *text, char *bad, size_t len)
{
	char buf[128], *w, *save;
	unsigned d = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "yield"))
			d |= LAB_DIS_YIELD;
		else if (!strcmp(w, "migrate"))
			d |= LAB_DIS_MIGRATE;
		else if (!strcmp(w, "signal"))
			d |= LAB_DIS_SIGNAL;
		else if (!strcmp(w, "all"))
			d |= LAB_DIS_ALL;
		else if (strcmp(w, "none")) {
			snprintf(bad, len, "%s", w);
			return (unsigned)-1;
		}
	}
	return d;
}

void lab_disturb_name(unsigned d, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", d & LAB_DIS_YIELD ? "yield," : "",
		 d & LAB_DIS_MIGRATE ? "migrate," : "", d & LAB_DIS_SIGNAL ? "signal," : "",
		 d ? "" : "none");
	if (d)
		buf[strlen(buf) - 1] = 0;
}

void lab_disturb_now(struct lab_disturb_thread *t)
{
	const struct lab_disturb *d = t->d;

	t->countdown = d->every;
	if (d->what & LAB_DIS_YIELD)
		sched_yield();
	if ((d->what & LAB_DIS_MIGRATE) && d->ncpus > 1) {
		t->next_cpu = (t->next_cpu + 1) % d->ncpus;
		lab_pin(d->cpus[t->next_cpu]);
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	signals++;
}

int lab_disturb_start(struct lab_disturb_thread *t, const struct lab_disturb *d, int tid,
		      char *msg, size_t len)
{
	struct sigevent ev;
	struct itimerspec its;
	struct sigaction sa;

	t->d = d;
	t->countdown = d->every ? d->every : 1;
	t->next_cpu = d->ncpus ? tid % d->ncpus : 0;
	signals = 0;
	if (!(d->what & LAB_DIS_SIGNAL))
		return 0;
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
	its.it_interval.tv_sec = its.it_value.tv_sec = d->signal_us / 1000000;
	its.it_interval.tv_nsec = its.it_value.tv_nsec = (d->signal_us % 1000000) * 1000;
	timer_settime(timer, 0, &its, NULL);
	timer_on = 1;
	return 0;
}

uint64_t lab_disturb_stop(void)
{
	if (timer_on)
		timer_delete(timer);
	timer_on = 0;
	return signals;
}
