/* SPDX-License-Identifier: MIT */
/*
 * Every way user space can learn its CPU, as bench cases. Each read is one inline function;
 * its loop (LAB_LOOP_OF) calls exactly that function, so what is verified is what is timed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lab/arch.h"
#include "cpu-read.h"
#include "lab/rseq-abi.h"
#include "lab/vdso.h"

#define READ_ONCE_U32(x) (*(volatile uint32_t *)&(x))

/* --- the baseline: the loop and its sink, nothing read ------------------------------------ */

static __attribute__((noinline)) void loop_empty(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		lab_sink(i);
}

/* --- rseq: our own area (eager and lazy registration share it; one area per thread) ------- */

static __thread struct rseq own_area __attribute__((aligned(32))) = {
	.cpu_id = (uint32_t)RSEQ_CPU_ID_UNINITIALIZED,
};
static __thread int own_registered;

static const char *own_unavailable(void)
{
	enum lab_mode m = lab_mode_now();

	if (m == LAB_MODE_ENOSYS)
		return "ENOSYS";
	if (m == LAB_MODE_ON)
		return "glibc registered rseq; needs GLIBC_TUNABLES=glibc.pthread.rseq=0";
	return NULL;
}

static int own_register(void)
{
	if (!own_registered && lab_rseq_register(&own_area) == 0)
		own_registered = 1;
	return own_registered ? 0 : -1;
}

static const char *prepare_rseq_own(void)
{
	const char *why = own_unavailable();

	if (why)
		return why;
	return own_register() ? strerror(errno) : NULL;
}

static inline int read_rseq_own(void)
{
	return (int)READ_ONCE_U32(own_area.cpu_id);
}

/* Start unregistered, so that the first read (in verification) does the registering. */
static const char *prepare_rseq_lazy(void)
{
	const char *why = own_unavailable();

	if (why)
		return why;
	if (own_registered && lab_rseq_unregister(&own_area) == 0)
		own_registered = 0;
	return (int)own_area.cpu_id < 0 ? NULL : "cannot unregister to start lazily";
}

static __attribute__((noinline)) int lazy_register_slow(void)
{
	if (own_register())
		return -1;
	return (int)READ_ONCE_U32(own_area.cpu_id);
}

static inline int read_rseq_lazy(void)
{
	int cpu = (int)READ_ONCE_U32(own_area.cpu_id);

	if (__builtin_expect(cpu < 0, 0))
		cpu = lazy_register_slow();
	return cpu;
}

/* --- rseq: glibc's area, found from the thread pointer as glibc's own code does ----------- */

static const char *prepare_rseq_glibc(void)
{
	enum lab_mode m = lab_mode_now();

	if (m == LAB_MODE_ENOSYS)
		return "ENOSYS";
	return m == LAB_MODE_OFF ? "glibc did not register rseq (glibc.pthread.rseq=0)" : NULL;
}

static inline int read_rseq_glibc(void)
{
	struct rseq *area = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);

	return (int)READ_ONCE_U32(area->cpu_id);
}

/* --- glibc sched_getcpu(): reads glibc's rseq area when registered (2.35+), else the vDSO -- */

static const char *sched_getcpu_path(void)
{
	if (__rseq_size > 0)
		return "glibc's rseq area";
	if (lab_mode_now() == LAB_MODE_ENOSYS)
		return "vDSO getcpu (kernel has no rseq)";
	return "vDSO getcpu (glibc's rseq off)";
}

static inline int read_sched_getcpu(void)
{
	return sched_getcpu();
}

/* --- the vDSO's getcpu, called directly ---------------------------------------------------- */

typedef long (*vdso_getcpu_fn)(unsigned int *cpu, unsigned int *node, void *unused);
static vdso_getcpu_fn vdso_getcpu;

static const char *prepare_vdso(void)
{
	if (!vdso_getcpu)
		vdso_getcpu = (vdso_getcpu_fn)lab_vdso_sym("__vdso_getcpu");
	return vdso_getcpu ? NULL : "unsupported: no __vdso_getcpu in the vDSO";
}

static inline int read_vdso(void)
{
	unsigned int cpu;

	return vdso_getcpu(&cpu, NULL, NULL) ? -1 : (int)cpu;
}

/* --- instructions: the per-CPU segment limit, RDPID, RDTSCP (arch file) ------------------- */

static const char *prepare_segment(void)
{
	if (!lab_has_segment())
		return "unsupported: no per-CPU segment on " LAB_ARCH_NAME;
	return lab_cpu_segment() < 0 ? "unsupported: per-CPU segment selector not valid" : NULL;
}

static inline int read_segment(void)
{
	return lab_cpu_segment();
}

static const char *prepare_rdpid(void)
{
	return lab_has_rdpid() ? NULL : "unsupported: CPUID has no RDPID";
}

static inline int read_rdpid(void)
{
	return lab_cpu_rdpid();
}

static const char *prepare_rdtscp(void)
{
	return lab_has_rdtscp() ? NULL : "unsupported: CPUID has no RDTSCP";
}

static inline int read_rdtscp(void)
{
	return lab_cpu_rdtscp();
}

/* --- the getcpu system call ---------------------------------------------------------------- */

static inline int read_syscall(void)
{
	unsigned int cpu;

	return syscall(SYS_getcpu, &cpu, NULL, NULL) ? -1 : (int)cpu;
}

LAB_LOOP_OF(read_rseq_own)
LAB_LOOP_OF(read_rseq_glibc)
LAB_LOOP_OF(read_rseq_lazy)
LAB_LOOP_OF(read_sched_getcpu)
LAB_LOOP_OF(read_vdso)
LAB_LOOP_OF(read_segment)
LAB_LOOP_OF(read_rdpid)
LAB_LOOP_OF(read_rdtscp)
LAB_LOOP_OF(read_syscall)

static const char *path_own(void) { return "own rseq area"; }
static const char *path_lazy(void) { return "own rseq area (registered on first use)"; }
static const char *path_glibc(void) { return "glibc's rseq area (__rseq_offset)"; }

/* Seed figures: x86-64 E5-2630 v3 (its "glibc 2.19 getcpu" went through the vDSO). */
const struct lab_case lab_cpu_read_cases[] = {
	{ "empty", "Baseline (empty loop)", LAB_NEED_ANY, NULL, NULL, NULL, loop_empty, 0.8 },
	{ "rseq-own", "Read CPU from rseq cpu_id", LAB_NEED_GLIBC_RSEQ_OFF, prepare_rseq_own,
	  path_own, read_rseq_own, loop_read_rseq_own, 0.8 },
	{ "rseq-glibc", "Read CPU from glibc's rseq cpu_id", LAB_NEED_GLIBC_RSEQ_ON,
	  prepare_rseq_glibc, path_glibc, read_rseq_glibc, loop_read_rseq_glibc, 0 },
	{ "rseq-lazy", "Read CPU from rseq cpu_id (lazy register)", LAB_NEED_GLIBC_RSEQ_OFF,
	  prepare_rseq_lazy, path_lazy, read_rseq_lazy, loop_read_rseq_lazy, 0.8 },
	{ "sched_getcpu-rseq-on", "glibc sched_getcpu (glibc rseq on)", LAB_NEED_GLIBC_RSEQ_ON,
	  NULL, sched_getcpu_path, read_sched_getcpu, loop_read_sched_getcpu, 0 },
	{ "sched_getcpu-rseq-off", "glibc sched_getcpu (glibc rseq off)", LAB_NEED_GLIBC_RSEQ_OFF,
	  NULL, sched_getcpu_path, read_sched_getcpu, loop_read_sched_getcpu, 16.6 },
	{ "vdso", "vDSO __vdso_getcpu", LAB_NEED_ANY, prepare_vdso, NULL, read_vdso,
	  loop_read_vdso, 0 },
	{ "lsl", "\"lsl\" inline assembly", LAB_NEED_ANY, prepare_segment, NULL, read_segment,
	  loop_read_segment, 13.0 },
	{ "rdpid", "RDPID", LAB_NEED_ANY, prepare_rdpid, NULL, read_rdpid, loop_read_rdpid, 0 },
	{ "rdtscp", "RDTSCP (TSC_AUX)", LAB_NEED_ANY, prepare_rdtscp, NULL, read_rdtscp,
	  loop_read_rdtscp, 0 },
	{ "syscall", "getcpu system call", LAB_NEED_ANY, NULL, NULL, read_syscall,
	  loop_read_syscall, 53.9 },
};
const int lab_cpu_read_ncases = sizeof(lab_cpu_read_cases) / sizeof(lab_cpu_read_cases[0]);
