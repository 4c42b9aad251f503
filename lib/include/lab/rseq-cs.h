/* SPDX-License-Identifier: MIT */
/*
 * The ABI tests' rseq critical sections (lab_rseq_spin, lab_rseq_spin_badsig,
 * lab_rseq_spin_abort_in_cs, lab_rseq_syscall_in_cs, LAB_CS_*) and lab_uc_pc(ctx), the
 * interrupted program counter of a signal context: one file per architecture, chosen here by
 * the compiler's target, as lab/arch.h chooses the arch reads.
 */
#ifndef LAB_RSEQ_CS_H
#define LAB_RSEQ_CS_H

#if defined(__x86_64__)
#include "lab/rseq-x86_64.h"
#elif defined(__aarch64__)
#include "lab/rseq-arm64.h"
#elif defined(__arm__)
#include "lab/rseq-arm.h"
#else
#error "lab/rseq-cs.h: no rseq critical sections for this architecture (x86_64, arm64, arm)"
#endif

#endif
