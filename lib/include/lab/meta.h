/* SPDX-License-Identifier: MIT */
/* Facts about the machine and the build that go with every result ("key: value" lines). */
#ifndef LAB_META_H
#define LAB_META_H

#include <stdio.h>

/* 1 when /proc/cpuinfo's flags list FLAG for the first CPU. */
int lab_cpuinfo_flag(const char *flag);

/* 1 when the TSC ticks at a constant rate through idle (constant_tsc and nonstop_tsc). */
int lab_tsc_invariant(void);

/* CPU model, flags that matter, kernel, glibc, compiler and flags, CPUs, UTC date. */
void lab_meta_write_system(FILE *f);

#endif
