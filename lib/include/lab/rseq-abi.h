/* SPDX-License-Identifier: MIT */
/* The rseq system call and glibc's own registration, as the ABI (uapi + glibc 2.35+) defines them. */
#ifndef LAB_RSEQ_ABI_H
#define LAB_RSEQ_ABI_H

#include <stdint.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RSEQ_FLAG_UNREGISTER
#define RSEQ_FLAG_UNREGISTER 1
#endif

/* The signature our own abort handlers are preceded by (glibc uses the same value). */
#define LAB_RSEQ_SIG RSEQ_SIG

static inline int lab_sys_rseq(struct rseq *area, uint32_t len, int flags, uint32_t sig)
{
	return (int)syscall(__NR_rseq, area, len, flags, sig);
}

static inline int lab_rseq_register(struct rseq *area)
{
	return lab_sys_rseq(area, sizeof(*area), 0, LAB_RSEQ_SIG);
}

static inline int lab_rseq_unregister(struct rseq *area)
{
	return lab_sys_rseq(area, sizeof(*area), RSEQ_FLAG_UNREGISTER, LAB_RSEQ_SIG);
}

/* glibc's area for this thread, or NULL when glibc did not register (tunable off, ENOSYS). */
static inline struct rseq *lab_glibc_rseq(void)
{
	if (__rseq_size == 0)
		return NULL;
	return (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
}

#endif
