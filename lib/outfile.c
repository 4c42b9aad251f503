/* SPDX-License-Identifier: MIT */
/* Whole-or-nothing results files; see lab/outfile.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/outfile.h"

/* Temporary names still to remove if a signal ends the run (read by the handler). */
#define MAX_OPEN 8
static const char *volatile pending[MAX_OPEN];

static void remove_pending(int sig)
{
	for (int i = 0; i < MAX_OPEN; i++)
		if (pending[i])
			unlink(pending[i]);
	/* Die of the signal itself, so that a calling shell sees what happened. */
	signal(sig, SIG_DFL);
	raise(sig);
}

void lab_outfile_guard_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_pending;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void track(const char *tmp, int on)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		if (on && !pending[i]) {
			pending[i] = tmp;
			return;
		}
		if (!on && pending[i] == tmp)
			pending[i] = NULL;
	}
}

FILE *lab_outfile_open(struct lab_outfile *o, const char *dir, const char *name)
{
	snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp.%d", dir, name, (int)getpid());
	track(o->tmp, 1);
	o->f = fopen(o->tmp, "w");
	if (!o->f)
		track(o->tmp, 0);
	return o->f;
}

void lab_outfile_abandon(struct lab_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
	track(o->tmp, 0);
}

int lab_outfile_commit(struct lab_outfile *o, int n)
{
	sigset_t block, old;
	int ret = 0;

	for (int i = 0; i < n && ret == 0; i++) {
		ret = fclose(o[i].f);
		o[i].f = NULL;
	}
	/* All renamed or none: a signal arriving meanwhile waits until the set is complete. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (int i = 0; i < n && ret == 0; i++)
		ret = rename(o[i].tmp, o[i].path);
	if (ret) {
		int err = errno;

		for (int i = 0; i < n; i++)
			lab_outfile_abandon(&o[i]);
		errno = err;
	}
	for (int i = 0; i < n; i++)
		track(o[i].tmp, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret ? -1 : 0;
}
