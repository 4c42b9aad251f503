/* SPDX-License-Identifier: MIT */
/*
 * x86-64 reads of the current CPU: lsl on the vDSO's per-CPU segment, RDPID, RDTSCP, and a
 * GS-relative load from a GS base of our own.
 */
#ifndef LAB_ARCH_X86_64_H
#define LAB_ARCH_X86_64_H

#include <asm/prctl.h>
#include <cpuid.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LAB_ARCH_NAME "x86_64"

/*
 * Linux puts a GDT entry per CPU (GDT_ENTRY_PER_CPU = 15) whose segment limit holds
 * (node << 12) | cpu, and the same value in TSC_AUX: that is what the vDSO's getcpu reads.
 */
#define LAB_X86_PER_CPU_SELECTOR ((15 * 8) | 3)
#define LAB_CPU_SEGMENT_SELECTOR LAB_X86_PER_CPU_SELECTOR
#define LAB_X86_CPU_MASK 0xfff

static inline unsigned long long lab_ticks(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

/* The spin-wait hint. */
static inline void lab_cpu_relax(void)
{
	__builtin_ia32_pause();
}

static inline int lab_has_segment(void)
{
	return 1;
}

/* CPUID.(EAX=7,ECX=0):ECX bit 22 */
static inline int lab_has_rdpid(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 22));
}

/* CPUID.80000001H:EDX bit 27 */
static inline int lab_has_rdtscp(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}

/* -1 when the selector is not valid here (lsl clears ZF and leaves the output alone). */
static inline int lab_cpu_segment_sel(unsigned long sel)
{
	unsigned long limit = 0;
	unsigned char ok;

	__asm__ volatile("lsl %[sel], %[lim]\n\tsetz %[ok]"
			 : [lim] "+r"(limit), [ok] "=q"(ok)
			 : [sel] "r"(sel)
			 : "cc");
	return ok ? (int)(limit & LAB_X86_CPU_MASK) : -1;
}

static inline int lab_cpu_segment(void)
{
	return lab_cpu_segment_sel(LAB_X86_PER_CPU_SELECTOR);
}

static inline int lab_cpu_rdpid(void)
{
	unsigned long aux;

	__asm__ volatile("rdpid %0" : "=r"(aux));
	return (int)(aux & LAB_X86_CPU_MASK);
}

static inline int lab_cpu_rdtscp(void)
{
	unsigned int lo, hi, aux;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (int)(aux & LAB_X86_CPU_MASK);
}

/*
 * A GS base of our own. x86-64 user space uses FS for TLS and leaves GS alone (glibc never
 * touches it); the kernel keeps each thread's GS base across context switches and migrations.
 * It is set with wrgsbase where the kernel enabled FSGSBASE for user space (AT_HWCAP2 says so),
 * else with arch_prctl(ARCH_SET_GS), which also works on older kernels.
 */
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

static inline int lab_has_gs(void)
{
	return 1;
}

/* LAB_GS_ARCH_PRCTL=1 takes the system call even where wrgsbase works (to test that path). */
static inline int lab_gs_by_wrgsbase(void)
{
	const char *force = getenv("LAB_GS_ARCH_PRCTL");

	if (force && *force && *force != '0')
		return 0;
	return (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
}

/* 0, or -1 with errno. */
static inline int lab_gs_set(const void *base)
{
	if (lab_gs_by_wrgsbase()) {
		__asm__ volatile("wrgsbase %0" : : "r"(base) : "memory");
		return 0;
	}
	return syscall(SYS_arch_prctl, ARCH_SET_GS, base) ? -1 : 0;
}

/* The 32-bit word at GS base + off (a constant): one mov with a %gs: prefix. */
#define lab_gs_load32_const(off)                                                     \
	({                                                                           \
		uint32_t v_;                                                         \
		__asm__ volatile("movl %%gs:%c1, %0" : "=r"(v_) : "i"(off));         \
		v_;                                                                  \
	})

/* The same at GS base + off + add, add in a register (the dependent reads chain through it). */
static inline uint32_t lab_gs_load32(unsigned long off, unsigned long add)
{
	uint32_t v;

	__asm__ volatile("movl %%gs:%c1(%2), %0" : "=r"(v) : "i"(off), "r"(add));
	return v;
}

#endif
