/* SPDX-License-Identifier: MIT */
/* The interleaving check's per-architecture parts, one file each, chosen by the compiler's
 * target; an architecture without one has no --interleave (lab_il_supported is 0). */
#ifndef LAB_INTERLEAVE_ARCH_H
#define LAB_INTERLEAVE_ARCH_H

#if defined(__x86_64__)
#include "interleave-x86_64.h"
#define LAB_IL_SUPPORTED 1
#elif defined(__aarch64__)
#include "interleave-arm64.h"
#define LAB_IL_SUPPORTED 1
#else
#define LAB_IL_ARCH "this architecture"
#define LAB_IL_SUPPORTED 0
#endif

#endif
