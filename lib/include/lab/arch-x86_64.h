/* SPDX-License-Identifier: MIT */
/* x86-64 reads of the current CPU: lsl on the vDSO's per-CPU segment, RDPID, RDTSCP. */
#ifndef LAB_ARCH_X86_64_H
#define LAB_ARCH_X86_64_H

#include <cpuid.h>

#define LAB_ARCH_NAME "x86_64"

/*
 * Linux puts a GDT entry per CPU (GDT_ENTRY_PER_CPU = 15) whose segment limit holds
 * (node << 12) | cpu, and the same value in TSC_AUX: that is what the vDSO's getcpu reads.
 */
#define LAB_X86_PER_CPU_SELECTOR ((15 * 8) | 3)
#define LAB_X86_CPU_MASK 0xfff

static inline unsigned long long lab_ticks(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
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
static inline int lab_cpu_segment(void)
{
	unsigned long limit = 0;
	unsigned char ok;

	__asm__ volatile("lsl %[sel], %[lim]\n\tsetz %[ok]"
			 : [lim] "+r"(limit), [ok] "=q"(ok)
			 : [sel] "r"((unsigned long)LAB_X86_PER_CPU_SELECTOR)
			 : "cc");
	return ok ? (int)(limit & LAB_X86_CPU_MASK) : -1;
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

#endif
