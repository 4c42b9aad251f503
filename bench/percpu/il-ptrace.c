/* SPDX-License-Identifier: MIT */
/* The checks' hands on a traced child (il-ptrace.h): its memory (process_vm_readv/writev, or word by
 * word through ptrace on a kernel without CONFIG_CROSS_MEMORY_ATTACH, as the lab's guests),
 * its stops, its threads' CPUs. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "il-ptrace.h"

static int no_vm_rw;

static int peek_rw(pid_t pid, uint64_t addr, void *buf, size_t len, int write)
{
	uint64_t a0 = addr & ~7ull;

	for (uint64_t a = a0; a < addr + len; a += 8) {
		long w;
		uint64_t lo = a < addr ? addr : a, hi = a + 8 > addr + len ? addr + len : a + 8;

		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)a, NULL);
		if (errno)
			return -1;
		if (!write) {
			memcpy((char *)buf + (lo - addr), (char *)&w + (lo - a), hi - lo);
			continue;
		}
		memcpy((char *)&w + (lo - a), (const char *)buf + (lo - addr), hi - lo);
		if (ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)a, (void *)w))
			return -1;
	}
	return 0;
}

int il_mem_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)addr, len };

	if (!no_vm_rw) {
		if (process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)len)
			return 0;
		if (errno != ENOSYS)
			return peek_rw(pid, addr, buf, len, 0);
		no_vm_rw = 1;
	}
	return peek_rw(pid, addr, buf, len, 0);
}

int il_mem_write(pid_t pid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec l = { (void *)buf, len }, r = { (void *)(uintptr_t)addr, len };

	if (!no_vm_rw && process_vm_writev(pid, &l, 1, &r, 1, 0) == (ssize_t)len)
		return 0;
	/* a whole aligned word: one poke */
	if (len == 8 && !(addr & 7))
		return ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)addr,
			      (void *)*(const long *)buf) ? -1 : 0;
	return peek_rw(pid, addr, (void *)buf, len, 1);
}

int il_mem_readv(pid_t pid, const uint64_t *addr, void *const *buf, const size_t *len, int n)
{
	struct iovec l[16] = { { 0 } }, r[16] = { { 0 } };
	size_t total = 0;

	if (!no_vm_rw && n <= 16) {
		for (int i = 0; i < n; i++) {
			l[i] = (struct iovec){ buf[i], len[i] };
			r[i] = (struct iovec){ (void *)(uintptr_t)addr[i], len[i] };
			total += len[i];
		}
		if (process_vm_readv(pid, l, n, r, n, 0) == (ssize_t)total)
			return 0;
	}
	for (int i = 0; i < n; i++)
		if (il_mem_read(pid, addr[i], buf[i], len[i]))
			return -1;
	return 0;
}

int il_wait(pid_t tid, int ms)
{
	struct timespec ts = { 0, 50000 }, t0, t;
	int st, flags = __WALL | (ms >= 0 ? WNOHANG : 0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t p = waitpid(tid, &st, flags);

		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0 || (p > 0 && (WIFEXITED(st) || WIFSIGNALED(st))))
			return -1;
		if (p > 0)
			return st >> 8;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
			return 0;
		nanosleep(&ts, NULL);
	}
}

void il_pin(pid_t tid, int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(tid, sizeof(s), &s);
}
