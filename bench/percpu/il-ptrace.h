/* SPDX-License-Identifier: MIT */
/* The checks' hands on a traced child (il-ptrace.c), for --interleave and --explore alike: its
 * memory, its stops, its threads' CPUs. */
#ifndef LAB_IL_PTRACE_H
#define LAB_IL_PTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int il_mem_read(pid_t pid, uint64_t addr, void *buf, size_t len);
int il_mem_write(pid_t pid, uint64_t addr, const void *buf, size_t len);
/* Several reads in one call: n pieces. */
int il_mem_readv(pid_t pid, const uint64_t *addr, void *const *buf, const size_t *len, int n);
/* Wait for tid's next stop: its signal, (event << 8 | signal) for a ptrace event; -1 gone;
 * 0 when ms (>= 0) passed first. */
int il_wait(pid_t tid, int ms);
/* Pin thread tid (0: the caller) to cpu. */
void il_pin(pid_t tid, int cpu);

#endif
