/* SPDX-License-Identifier: MIT */
/*
 * What one instruction does to memory, as the interleaving check needs it (il-decode-ARCH.c,
 * on Capstone): the bytes it may read and write at their addresses (from the registers before
 * it), whether it is atomic, and whether it asks the kernel or the hardware anything (a
 * syscall, the CPU number). The check logs every byte an instruction writes (to undo it and to
 * hash the state) and decides from these where other threads may interleave.
 */
#ifndef LAB_EX_DECODE_H
#define LAB_EX_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "il-arch.h"

#if LAB_EX_SUPPORTED

#define IL_MAX_ACC 4
struct il_acc {
	uint64_t addr;
	uint32_t size;
	uint8_t read, write;   /* write: the operand may be written (it is logged if it changed) */
};

struct il_insn {
	uint8_t len, nacc;
	uint8_t atomic;        /* a locked read-modify-write (lock prefix, xchg with memory) */
	uint8_t syscall;
	uint8_t cpu_read;      /* reads the CPU number from the hardware (rdpid, rdtscp, lsl) */
	uint8_t spin_hint;     /* a spin-wait hint (pause): the thread is spinning on a word */
	uint8_t vector;        /* uses vector or x87 registers (their state is saved too) */
	struct il_acc acc[IL_MAX_ACC];
	char text[80];         /* "mnemonic operands" */
};

/* Decode the instruction at pc (code: the n bytes there) with the registers before it:
 * 0, or -1 when it cannot be decoded (out->text says what the bytes are). */
int il_decode(uint64_t pc, const uint8_t *code, size_t n, const il_regs *r, struct il_insn *out);

#endif /* LAB_EX_SUPPORTED */

#endif
