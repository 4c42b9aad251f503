/* SPDX-License-Identifier: MIT */
/* Finding or registering this thread's rseq area at the size the kernel announces. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mm-cid-area.h"

/* Our own area, for a process where glibc did not register (GLIBC_TUNABLES=...rseq=0). */
static __thread struct mc_rseq *own;

void mc_area_probe(struct mc_info *in)
{
	unsigned long a;

	memset(in, 0, sizeof(*in));
	in->feature_size = getauxval(AT_RSEQ_FEATURE_SIZE);
	in->align = getauxval(AT_RSEQ_ALIGN);
	/* Before 6.3: no auxv entries, the original 32-byte area. */
	a = in->align ? in->align : 32;
	in->reg_size = in->feature_size > 32 ? (in->feature_size + a - 1) / a * a : 32;
	in->glibc_size = __rseq_size;
	in->glibc_offset = __rseq_offset;
	in->glibc = __rseq_size > 0;
}

volatile struct mc_rseq *mc_area_thread(const struct mc_info *in)
{
	size_t al = in->align > 32 ? in->align : 32;

	if (in->glibc)
		return (volatile struct mc_rseq *)((char *)__builtin_thread_pointer() +
						   in->glibc_offset);
	if (!own) {
		size_t sz = in->reg_size > sizeof(struct mc_rseq) ? in->reg_size : 32;

		if (posix_memalign((void **)&own, al, sz < 64 ? 64 : sz))
			return NULL;
		memset(own, 0, sz < 64 ? 64 : sz);
		own->cpu_id = (uint32_t)-1; /* RSEQ_CPU_ID_UNINITIALIZED */
		if (syscall(SYS_rseq, own, (uint32_t)in->reg_size, 0, RSEQ_SIG)) {
			int e = errno;

			free(own);
			own = NULL;
			errno = e;
			return NULL;
		}
	}
	return own;
}

void mc_area_thread_done(const struct mc_info *in)
{
	if (in->glibc || !own)
		return;
	syscall(SYS_rseq, own, (uint32_t)in->reg_size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
	free(own);
	own = NULL;
}
