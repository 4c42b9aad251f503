/* SPDX-License-Identifier: MIT */
/*
 * turner-abi.h: the user side of the 2015 restartable_sequences() interface as our series
 * kernel/patches/turner-2015 implements it (CONFIG_RSEQ_TURNER, x86-64 only), and of the
 * sequences in turner-seq.S.
 *
 * System call: restartable_sequences(int op, int flags, long val1, long val2, long val3),
 * number 500 (free in 6.1, above every upstream number). flags must be 0.
 *   SYS_RSEQ_SET_CRITICAL     val1 = region start, val2 = region end (exclusive),
 *                             val3 = restart handler, outside [start, end). Once per process.
 *   SYS_RSEQ_SET_CPU_POINTER  val1 = address of this thread's u32 CPU number (4-aligned),
 *                             0 to drop it. Per thread; a thread without one never restarts.
 * Errors: EINVAL (flags, op, end <= start, handler inside the region, pointer unaligned),
 *         EFAULT (region or handler beyond user space, pointer not writable),
 *         EBUSY (the process already has a region: a second library cannot have its own).
 *
 * Restart convention: a thread preempted, migrated or sent a signal with its IP inside the
 * region resumes at the handler with the interrupted IP in r10; every other register is as it
 * was. r10 is thus clobbered by any sequence (it is call-clobbered in the SysV ABI anyway).
 *
 * Region layout (turner-seq.S): every sequence lives in the section "turner_rseq", bounded
 * by turner_region_start/turner_region_end. A sequence is a function: it starts at its
 * restart point, reads the CPU from turner_cpu, prepares with loads and private stores, and
 * commits with one store; what follows the commit (the ret) is its tail. turner_seqtab lists
 * {start, end-of-commit} per sequence in address order. The handler turner_restart finds the
 * sequence holding r10: before its commit ended it restarts it (turner_restarts++), in its
 * tail it resumes at r10 (turner_resumes++). Flags are not preserved across a resume, so
 * tails must not read them.
 */
#ifndef TURNER_ABI_H
#define TURNER_ABI_H

#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#define TURNER_NR			500
#define SYS_RSEQ_SET_CRITICAL		0
#define SYS_RSEQ_SET_CPU_POINTER	1

/* Per-CPU data: one 64-byte slot per CPU, as the sequences index it (cpu << 6). */
#define TURNER_MAX_CPUS	256
struct turner_slot {
	uint64_t v;	/* counter, or list head (struct turner_node *) */
	char pad[56];
} __attribute__((aligned(64)));

struct turner_node {
	struct turner_node *next;
	uint32_t owner;		/* for the integrity check */
	uint32_t seen;
};

static inline long turner_syscall(int op, int flags, long v1, long v2, long v3)
{
	return syscall(TURNER_NR, op, flags, v1, v2, v3);
}

/* turner-seq.S */
extern __thread uint32_t turner_cpu;		/* kept equal to the CPU by the kernel */
extern __thread uint64_t turner_restarts;	/* sequences restarted by turner_restart */
extern __thread uint64_t turner_resumes;	/* interrupted in a tail, resumed */
extern const char turner_region_start[], turner_region_end[];
void turner_restart(void);			/* the handler: never call it */

void turner_counter_inc(struct turner_slot *slots);			/* slot += 1 */
void turner_counter_add_slow(struct turner_slot *slots, long spins);	/* load, spin, store */
void turner_list_push(struct turner_slot *heads, struct turner_node *n);
struct turner_node *turner_list_pop(struct turner_slot *heads);
void turner_list_push_slow(struct turner_slot *heads, struct turner_node *n, long spins);
struct turner_node *turner_list_pop_slow(struct turner_slot *heads, long spins);

/* A second "library" with a region of its own: the interface has room for one only. */
extern const char lib2_region_start[], lib2_region_end[];
void lib2_restart(void);

/* Register the region (once per process) and this thread's CPU pointer. */
static inline long turner_register_region(void)
{
	return turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, (long)turner_region_start,
			      (long)turner_region_end, (long)turner_restart);
}

static inline long turner_register_thread(void)
{
	return turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)&turner_cpu, 0, 0);
}

#endif
