/* SPDX-License-Identifier: MIT */
/* The sched_getcpu() hook of a dynamically linked program: its definition interposes on
   glibc's, so a shared library's calls bind to it; each call counted (lab/real-lib.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

#include "lab/real-lib.h"

int sched_getcpu(void)
{
	static int (*real)(void);

	if (!real)
		real = (int (*)(void))dlsym(RTLD_NEXT, "sched_getcpu");
	lab_getcpu_calls++;
	return real ? real() : -1;
}
