/* SPDX-License-Identifier: MIT */
/*
 * Every way user space can learn its CPU, as bench cases. Each read is one inline function;
 * its loop (LAB_LOOP_OF) calls exactly that function, so what is verified is what is timed.
 *
 * Two forms of each read that takes an input (an address, a pointer, a selector):
 * - throughput (the seed's form): independent reads, which the CPU overlaps; the cost of a
 *   read in a pipeline;
 * - dependent ("-dep" rows): each read's result feeds the next read's address or operand
 *   (CHAIN_OF), so reads cannot overlap; the cost of a read on a critical path. Their check
 *   runs the timed chain itself and compares its last result with the pinned CPU.
 * RDPID, RDTSCP and sched_getcpu() take no input, so nothing can make one wait for the last
 * one's result: they have no dependent row.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lab/arch.h"
#include "cpu-read.h"
#include "lab/rseq-abi.h"
#include "lab/vdso.h"

#define READ_ONCE_U32(x) (*(volatile uint32_t *)&(x))
/* The 32-bit word add bytes past &x (add is 0 in practice; the dependent reads chain it). */
#define READ_U32_AT(x, add) (*(volatile uint32_t *)((uintptr_t)&(x) + (add)))

/*
 * 0 for any CPU number (< 2^20), computed from it by a real instruction (a shift): the empty
 * asm makes the compiler forget what it knows of v (a read masked to 12 bits, say), so it
 * cannot fold the shift away, and whatever uses the result waits for v. The test
 * cpu-read-chain.t finds this shift in every chain's code and the use of its result.
 */
#define CHAIN_SHIFT 20
static inline uintptr_t chain_step(uint32_t v)
{
	__asm__("" : "+r"(v));
	return v >> CHAIN_SHIFT;
}

/*
 * The dependent form of read_at(add): n reads, each at the add the last one's result gave;
 * returns the last result. loop_dep_X times it; read_dep_X (the check) runs it for 3 reads.
 */
#define CHAIN_OF(read_at)                                                              \
	static __attribute__((noinline)) int chain_##read_at(uint64_t n)               \
	{                                                                              \
		uintptr_t add = 0;                                                     \
		int cpu = -1;                                                          \
		for (uint64_t i = 0; i < n; i++) {                                     \
			cpu = read_at(add);                                            \
			add = chain_step((uint32_t)cpu);                               \
		}                                                                      \
		return cpu;                                                            \
	}                                                                              \
	static void loop_dep_##read_at(uint64_t n)                                     \
	{                                                                              \
		lab_sink(chain_##read_at(n));                                          \
	}                                                                              \
	static __attribute__((unused)) int read_dep_##read_at(void)                    \
	{                                                                              \
		return chain_##read_at(3);                                             \
	}

/* --- the baseline: the loop and its sink, nothing read ------------------------------------ */

static __attribute__((noinline)) void loop_empty(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		lab_sink(i);
}

/* The dependent baseline: the chain's own step alone, each feeding the next. */
static inline int read_empty_at(uintptr_t add)
{
	return (int)add;
}
CHAIN_OF(read_empty_at)

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

static inline int read_rseq_own_at(uintptr_t add)
{
	return (int)READ_U32_AT(own_area.cpu_id, add);
}
CHAIN_OF(read_rseq_own_at)

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

static inline int read_rseq_lazy_at(uintptr_t add)
{
	int cpu = (int)READ_U32_AT(own_area.cpu_id, add);

	if (__builtin_expect(cpu < 0, 0))
		cpu = lazy_register_slow();
	return cpu;
}
CHAIN_OF(read_rseq_lazy_at)

static inline int read_rseq_lazy(void)
{
	return read_rseq_lazy_at(0);
}

/* --- rseq: glibc's area, found from the thread pointer as glibc's own code does ----------- */

static const char *prepare_rseq_glibc(void)
{
	enum lab_mode m = lab_mode_now();

	if (m == LAB_MODE_ENOSYS)
		return "ENOSYS";
	return m == LAB_MODE_OFF ? "glibc did not register rseq (glibc.pthread.rseq=0)" : NULL;
}

static inline struct rseq *glibc_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
}

static inline int read_rseq_glibc(void)
{
	return (int)READ_ONCE_U32(glibc_area()->cpu_id);
}

static inline int read_rseq_glibc_at(uintptr_t add)
{
	return (int)READ_U32_AT(glibc_area()->cpu_id, add);
}
CHAIN_OF(read_rseq_glibc_at)

/* --- glibc sched_getcpu(): reads glibc's rseq area when registered (2.35+), else the vDSO -- */

static const char *sched_getcpu_path(void)
{
	if (__rseq_size > 0)
		return "glibc's rseq area";
	/* arm64 and arm have no getcpu in the vDSO: glibc makes the system call there. */
	if (!lab_vdso_sym("__vdso_getcpu"))
		return lab_mode_now() == LAB_MODE_ENOSYS ? "getcpu system call (kernel has no rseq)"
							  : "getcpu system call (glibc's rseq off)";
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
	return vdso_getcpu ? NULL : "unsupported: no __vdso_getcpu in the vDSO (none on " LAB_ARCH_NAME ")";
}

static inline int read_vdso(void)
{
	unsigned int cpu;

	return vdso_getcpu(&cpu, NULL, NULL) ? -1 : (int)cpu;
}

/* Dependent: the last result moves the pointer the vDSO stores through (then we load it). */
static inline int read_vdso_at(uintptr_t add)
{
	unsigned int cpu, *p = (unsigned int *)((uintptr_t)&cpu + add);

	return vdso_getcpu(p, NULL, NULL) ? -1 : (int)*p;
}
CHAIN_OF(read_vdso_at)

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

/* Dependent: the last result is added to the selector lsl reads. */
static inline int read_segment_at(uintptr_t add)
{
	return lab_cpu_segment_sel(LAB_CPU_SEGMENT_SELECTOR + add);
}
CHAIN_OF(read_segment_at)

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

/* --- a GS base of our own (x86-64): the rseq area, or the seed's dummy word ---------------- */

/* The thread's rseq area: glibc's where glibc registered, else our own. */
static struct rseq *thread_area(void)
{
	return __rseq_size > 0 ? glibc_area() : &own_area;
}

static const char *gs_how(void)
{
	return lab_gs_by_wrgsbase() ? "wrgsbase" : "arch_prctl(ARCH_SET_GS)";
}

static void enter_gs_rseq(void)
{
	lab_gs_set(thread_area());
}

static const char *prepare_gs_rseq(void)
{
	enum lab_mode m = lab_mode_now();

	if (!lab_has_gs())
		return "unsupported: no GS base of our own on " LAB_ARCH_NAME;
	if (m == LAB_MODE_ENOSYS)
		return "ENOSYS";
	if (m == LAB_MODE_OFF && own_register())
		return strerror(errno);
	return lab_gs_set(thread_area()) ? strerror(errno) : NULL;
}

static const char *path_gs_rseq(void)
{
	static char path[96];

	snprintf(path, sizeof(path), "GS base = %s rseq area, set by %s",
		 __rseq_size > 0 ? "glibc's" : "own", gs_how());
	return path;
}

#define GS_CPU_ID offsetof(struct rseq, cpu_id)

static inline int read_gs_rseq(void)
{
	return (int)lab_gs_load32_const(GS_CPU_ID);
}

static inline int read_gs_rseq_at(uintptr_t add)
{
	return (int)lab_gs_load32(GS_CPU_ID, add);
}
CHAIN_OF(read_gs_rseq_at)

/*
 * The seed's row (compudj/rseq-test benchmark-cpuid.c, CONFIG_GETCPU_GS): GS base set to a
 * dummy word, `mov %gs:0` timed. It reads no CPU number: cost only, checked for running only.
 */
static __thread uint32_t gs_dummy_word;

static void enter_gs_dummy(void)
{
	lab_gs_set(&gs_dummy_word);
}

static const char *prepare_gs_dummy(void)
{
	if (!lab_has_gs())
		return "unsupported: no GS base of our own on " LAB_ARCH_NAME;
	return lab_gs_set(&gs_dummy_word) ? strerror(errno) : NULL;
}

static const char *path_gs_dummy(void)
{
	static char path[96];

	snprintf(path, sizeof(path), "GS base = a dummy word, set by %s; no CPU number", gs_how());
	return path;
}

static inline int read_gs_dummy(void)
{
	return (int)lab_gs_load32_const(0);
}

/* --- the getcpu system call ---------------------------------------------------------------- */

static inline int read_syscall(void)
{
	unsigned int cpu;

	return syscall(SYS_getcpu, &cpu, NULL, NULL) ? -1 : (int)cpu;
}

static inline int read_syscall_at(uintptr_t add)
{
	unsigned int cpu, *p = (unsigned int *)((uintptr_t)&cpu + add);

	return syscall(SYS_getcpu, p, NULL, NULL) ? -1 : (int)*p;
}
CHAIN_OF(read_syscall_at)

LAB_LOOP_OF(read_rseq_own)
LAB_LOOP_OF(read_rseq_glibc)
LAB_LOOP_OF(read_rseq_lazy)
LAB_LOOP_OF(read_sched_getcpu)
LAB_LOOP_OF(read_vdso)
LAB_LOOP_OF(read_segment)
LAB_LOOP_OF(read_rdpid)
LAB_LOOP_OF(read_rdtscp)
LAB_LOOP_OF(read_gs_rseq)
LAB_LOOP_OF(read_gs_dummy)
LAB_LOOP_OF(read_syscall)

static const char *path_own(void) { return "own rseq area"; }
static const char *path_lazy(void) { return "own rseq area (registered on first use)"; }
static const char *path_glibc(void) { return "glibc's rseq area (__rseq_offset)"; }

#define DEP " (dependent)"
#define RSEQ_OFF LAB_NEED_GLIBC_RSEQ_OFF
#define RSEQ_ON LAB_NEED_GLIBC_RSEQ_ON

/* Seed figures: x86-64 E5-2630 v3 (its "glibc 2.19 getcpu" went through the vDSO). Each
 * dependent row follows its throughput twin; the seed measured throughput only. */
const struct lab_case lab_cpu_read_cases[] = {
	LAB_CASE("empty", "Baseline (empty loop)", LAB_NEED_ANY, NULL, NULL, NULL, loop_empty, 0.8, NULL, 0),
	LAB_CASE("empty-dep", "Baseline, dependent (the chain's shift alone)", LAB_NEED_ANY, NULL, NULL,
	  NULL, loop_dep_read_empty_at, 0, NULL, 0),
	LAB_CASE("rseq-own", "Read CPU from rseq cpu_id", RSEQ_OFF, prepare_rseq_own, path_own,
	  read_rseq_own, loop_read_rseq_own, 0.8, NULL, 0),
	LAB_CASE("rseq-own-dep", "Read CPU from rseq cpu_id" DEP, RSEQ_OFF, prepare_rseq_own, path_own,
	  read_dep_read_rseq_own_at, loop_dep_read_rseq_own_at, 0, NULL, 0),
	LAB_CASE("rseq-glibc", "Read CPU from glibc's rseq cpu_id", RSEQ_ON, prepare_rseq_glibc,
	  path_glibc, read_rseq_glibc, loop_read_rseq_glibc, 0, NULL, 0),
	LAB_CASE("rseq-glibc-dep", "Read CPU from glibc's rseq cpu_id" DEP, RSEQ_ON, prepare_rseq_glibc,
	  path_glibc, read_dep_read_rseq_glibc_at, loop_dep_read_rseq_glibc_at, 0, NULL, 0),
	LAB_CASE("rseq-lazy", "Read CPU from rseq cpu_id (lazy register)", RSEQ_OFF, prepare_rseq_lazy,
	  path_lazy, read_rseq_lazy, loop_read_rseq_lazy, 0.8, NULL, 0),
	LAB_CASE("rseq-lazy-dep", "Read CPU from rseq cpu_id (lazy register)" DEP, RSEQ_OFF,
	  prepare_rseq_lazy, path_lazy, read_dep_read_rseq_lazy_at, loop_dep_read_rseq_lazy_at, 0,
	  NULL, 0),
	LAB_CASE("sched_getcpu-rseq-on", "glibc sched_getcpu (glibc rseq on)", RSEQ_ON, NULL,
	  sched_getcpu_path, read_sched_getcpu, loop_read_sched_getcpu, 0, NULL, 0),
	LAB_CASE("sched_getcpu-rseq-off", "glibc sched_getcpu (glibc rseq off)", RSEQ_OFF, NULL,
	  sched_getcpu_path, read_sched_getcpu, loop_read_sched_getcpu, 16.6, NULL, 0),
	LAB_CASE("vdso", "vDSO __vdso_getcpu", LAB_NEED_ANY, prepare_vdso, NULL, read_vdso,
	  loop_read_vdso, 0, NULL, 0),
	LAB_CASE("vdso-dep", "vDSO __vdso_getcpu" DEP, LAB_NEED_ANY, prepare_vdso, NULL,
	  read_dep_read_vdso_at, loop_dep_read_vdso_at, 0, NULL, 0),
	LAB_CASE("lsl", "\"lsl\" inline assembly", LAB_NEED_ANY, prepare_segment, NULL, read_segment,
	  loop_read_segment, 13.0, NULL, 0),
	LAB_CASE("lsl-dep", "\"lsl\" inline assembly" DEP, LAB_NEED_ANY, prepare_segment, NULL,
	  read_dep_read_segment_at, loop_dep_read_segment_at, 0, NULL, 0),
	LAB_CASE("rdpid", "RDPID", LAB_NEED_ANY, prepare_rdpid, NULL, read_rdpid, loop_read_rdpid, 0, NULL, 0),
	LAB_CASE("rdtscp", "RDTSCP (TSC_AUX)", LAB_NEED_ANY, prepare_rdtscp, NULL, read_rdtscp,
	  loop_read_rdtscp, 0, NULL, 0),
	LAB_CASE("gs-rseq", "gs-relative load of the kernel-updated rseq cpu_id", LAB_NEED_ANY,
	  prepare_gs_rseq, path_gs_rseq, read_gs_rseq, loop_read_gs_rseq, 0.8, enter_gs_rseq, 0),
	LAB_CASE("gs-rseq-dep", "gs-relative load of the kernel-updated rseq cpu_id" DEP, LAB_NEED_ANY,
	  prepare_gs_rseq, path_gs_rseq, read_dep_read_gs_rseq_at, loop_dep_read_gs_rseq_at, 0,
	  enter_gs_rseq, 0),
	LAB_CASE("gs-dummy", "gs-relative load of a dummy word (seed's gs row; cost only, no CPU)",
	  LAB_NEED_ANY, prepare_gs_dummy, path_gs_dummy, NULL, loop_read_gs_dummy, 0.8,
	  enter_gs_dummy, 0),
	LAB_CASE("syscall", "getcpu system call", LAB_NEED_ANY, NULL, NULL, read_syscall,
	  loop_read_syscall, 53.9, NULL, 0),
	LAB_CASE("syscall-dep", "getcpu system call" DEP, LAB_NEED_ANY, NULL, NULL,
	  read_dep_read_syscall_at, loop_dep_read_syscall_at, 0, NULL, 0),
};
const int lab_cpu_read_ncases = sizeof(lab_cpu_read_cases) / sizeof(lab_cpu_read_cases[0]);
