/* SPDX-License-Identifier: MIT */
/* The interleaving check's per-architecture parts, one file each, chosen by the compiler's
 * target: registers, the trap the child parks at, and the instruction decoder
 * (il-decode-ARCH.c). An architecture without them has no --interleave (LAB_IL_SUPPORTED 0). */
#ifndef LAB_IL_ARCH_H
#define LAB_IL_ARCH_H

#if defined(__x86_64__)
#include "il-arch-x86_64.h"
#define LAB_IL_SUPPORTED 1
#else
#define LAB_IL_ARCH "this architecture"
#define LAB_IL_SUPPORTED 0
#endif

#endif
