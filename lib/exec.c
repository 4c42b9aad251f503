/* SPDX-License-Identifier: MIT */
/*
 * Run a case here or in a worker: this program re-executed with glibc's rseq registration the
 * other way round (GLIBC_TUNABLES), so that one run has rows from both states, interleaved.
 * Requests and replies are single lines on a pipe: "ok ..." or "no <why>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/harness.h"
#include "lab/icount.h"

extern char **environ;

void lab_exec_local(struct lab_exec *e)
{
	e->pid = 0;
	e->to = e->from = NULL;
	e->mode = lab_mode_now();
}

/* Send one request and read its reply; the reply's text after "ok " / "no " goes to out. */
static int ask(struct lab_exec *e, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int ask(struct lab_exec *e, char *out, size_t len, const char *fmt, ...)
{
	char *line = NULL;
	size_t cap = 0;
	va_list ap;
	int ok;

	va_start(ap, fmt);
	vfprintf(e->to, fmt, ap);
	va_end(ap);
	fputc('\n', e->to);
	if (fflush(e->to) || getline(&line, &cap, e->from) < 3) {
		snprintf(out, len, "worker (glibc rseq %s) stopped answering", lab_mode_name(e->mode));
		free(line);
		return -1;
	}
	line[strcspn(line, "\n")] = 0;
	ok = !strncmp(line, "ok", 2);
	snprintf(out, len, "%s", line[2] ? line + 3 : "");
	free(line);
	return ok ? 0 : -1;
}

int lab_exec_spawn(struct lab_exec *e, enum lab_mode want, char *msg, size_t len)
{
	return lab_exec_spawn_env(e, want, NULL, msg, len);
}

int lab_exec_spawn_env(struct lab_exec *e, enum lab_mode want, const char *extra, char *msg,
		       size_t len)
{
	int to[2], from[2], n = 0;
	char **env;
	char reply[64];

	for (char **v = environ; *v; v++)
		n++;
	env = calloc(n + 3, sizeof(*env));
	/* close-on-exec: a second worker must not hold the first one's pipes (it would never see
	   end of file); dup2 gives the child its stdin and stdout without the flag. */
	if (!env || pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		snprintf(msg, len, "cannot start a worker: %s", strerror(errno));
		return -1;
	}
	n = 0;
	for (char **v = environ; *v; v++)
		if (strncmp(*v, "GLIBC_TUNABLES=", 15))
			env[n++] = *v;
	env[n++] = want == LAB_MODE_OFF ? "GLIBC_TUNABLES=glibc.pthread.rseq=0"
					: "GLIBC_TUNABLES=glibc.pthread.rseq=1";
	if (extra)
		env[n++] = (char *)extra;
	signal(SIGPIPE, SIG_IGN); /* a dead worker shows up as a failed request instead */
	e->pid = fork();
	if (e->pid == 0) {
		char *argv[] = { "lab-worker", "--worker", NULL };

		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	free(env);
	close(to[0]);
	close(from[1]);
	if (e->pid < 0) {
		snprintf(msg, len, "cannot fork a worker: %s", strerror(errno));
		return -1;
	}
	e->to = fdopen(to[1], "w");
	e->from = fdopen(from[0], "r");
	e->mode = want;
	if (ask(e, reply, sizeof(reply), "m")) {
		snprintf(msg, len, "worker did not start");
		lab_exec_stop(e);
		return -1;
	}
	if (strcmp(reply, lab_mode_name(want))) {
		snprintf(msg, len, "worker has glibc rseq '%s', wanted '%s'", reply, lab_mode_name(want));
		lab_exec_stop(e);
		return -1;
	}
	return 0;
}

void lab_exec_stop(struct lab_exec *e)
{
	if (!e->pid)
		return;
	fclose(e->to);
	fclose(e->from);
	waitpid(e->pid, NULL, 0);
	e->pid = 0;
}

int lab_exec_pin(struct lab_exec *e, int cpu, char *msg, size_t len)
{
	if (e->pid)
		return ask(e, msg, len, "p %d", cpu);
	if (lab_pin(cpu) == 0)
		return 0;
	snprintf(msg, len, "cannot pin to CPU %d: %s", cpu, strerror(errno));
	return -1;
}

int lab_exec_prepare(struct lab_exec *e, const struct lab_case *cases, int idx,
		     char *path, size_t plen, char *msg, size_t len)
{
	const struct lab_case *c = &cases[idx];
	const char *why;

	if (e->pid) {
		if (ask(e, msg, len, "s %d", idx))
			return -1;
		snprintf(path, plen, "%s", msg);
		return 0;
	}
	why = c->prepare ? c->prepare() : NULL;
	if (why) {
		snprintf(msg, len, "%s", why);
		return -1;
	}
	snprintf(path, plen, "%s", c->path ? c->path() : "");
	return 0;
}

int lab_exec_verify(struct lab_exec *e, const struct lab_case *cases, int idx,
		    const cpu_set_t *cpus, int home, int *checked, char *msg, size_t len)
{
	if (e->pid) {
		char *req = malloc(16 * CPU_SETSIZE + 64);
		int at, ret;

		at = sprintf(req, "v %d %d", idx, home);
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, cpus))
				at += sprintf(req + at, " %d", cpu);
		ret = ask(e, msg, len, "%s", req);
		free(req);
		if (ret == 0)
			*checked = atoi(msg);
		return ret;
	}
	*checked = lab_verify(&cases[idx], cpus, home, msg, len);
	return *checked < 0 ? -1 : 0;
}

int lab_exec_calibrate(struct lab_exec *e, const struct lab_case *cases, int idx,
		       uint64_t target_ns, uint64_t *iters, char *msg, size_t len)
{
	if (e->pid) {
		if (ask(e, msg, len, "c %d %" PRIu64, idx, target_ns))
			return -1;
		*iters = strtoull(msg, NULL, 10);
		return 0;
	}
	*iters = lab_calibrate(&cases[idx], target_ns);
	return 0;
}

int lab_exec_measure(struct lab_exec *e, const struct lab_case *cases, int idx,
		     uint64_t iters, struct lab_sample *s, char *msg, size_t len)
{
	if (e->pid) {
		if (ask(e, msg, len, "r %d %" PRIu64, idx, iters))
			return -1;
		return sscanf(msg, "%lf %lf %lf %lf", &s->ns, &s->ticks, &s->pmu_cycles,
			      &s->pmu_instructions) == 4 ? 0 : -1;
	}
	*s = lab_measure(&cases[idx], iters);
	return 0;
}

int lab_exec_icount(struct lab_exec *e, const struct lab_case *cases, int idx,
		    uint64_t iters, double *instr, char *msg, size_t len)
{
	if (e->pid) {
		if (ask(e, msg, len, "i %d %" PRIu64, idx, iters))
			return -1;
		return sscanf(msg, "%lf", instr) == 1 ? 0 : -1;
	}
	*instr = lab_icount_per_op(&cases[idx], iters);
	return 0;
}
