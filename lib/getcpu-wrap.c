/* SPDX-License-Identifier: MIT */
/* The sched_getcpu() hook of a program linked with -Wl,--wrap=sched_getcpu (a static library's
   calls go through it): each call counted (lab/real-lib.h). */
#include "lab/real-lib.h"

int __real_sched_getcpu(void);
int __wrap_sched_getcpu(void);

int __wrap_sched_getcpu(void)
{
	lab_getcpu_calls++;
	return __real_sched_getcpu();
}
