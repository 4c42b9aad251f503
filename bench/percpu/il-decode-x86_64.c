/* SPDX-License-Identifier: MIT */
/* il-decode.h on x86-64, with Capstone: each pc decoded once (code does not change), the
 * addresses computed from the registers every time. */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il-decode.h"

/* One decoded instruction, its memory operands as Capstone gives them. */
struct tmpl {
	uint64_t pc;
	struct il_insn base;  /* len, flags and text; no addresses */
	int nmem;
	struct { x86_reg seg, base, index; int scale; int64_t disp; uint8_t size, access; } mem[IL_MAX_ACC];
	uint8_t push, string, rep;  /* writes [sp-8] implicitly; a string op (rdi/rsi, rcx times) */
	int ok;
};

#define NCACHE 4096
static struct tmpl cache[NCACHE];
static csh handle;
static int opened;

static uint64_t reg(x86_reg id, const il_regs *r, uint64_t next)
{
	switch (id) {
	case X86_REG_RAX: return r->rax; case X86_REG_EAX: return (uint32_t)r->rax;
	case X86_REG_RBX: return r->rbx; case X86_REG_EBX: return (uint32_t)r->rbx;
	case X86_REG_RCX: return r->rcx; case X86_REG_ECX: return (uint32_t)r->rcx;
	case X86_REG_RDX: return r->rdx; case X86_REG_EDX: return (uint32_t)r->rdx;
	case X86_REG_RSI: return r->rsi; case X86_REG_ESI: return (uint32_t)r->rsi;
	case X86_REG_RDI: return r->rdi; case X86_REG_EDI: return (uint32_t)r->rdi;
	case X86_REG_RBP: return r->rbp; case X86_REG_EBP: return (uint32_t)r->rbp;
	case X86_REG_RSP: return r->rsp; case X86_REG_ESP: return (uint32_t)r->rsp;
	case X86_REG_R8: return r->r8;   case X86_REG_R8D: return (uint32_t)r->r8;
	case X86_REG_R9: return r->r9;   case X86_REG_R9D: return (uint32_t)r->r9;
	case X86_REG_R10: return r->r10; case X86_REG_R10D: return (uint32_t)r->r10;
	case X86_REG_R11: return r->r11; case X86_REG_R11D: return (uint32_t)r->r11;
	case X86_REG_R12: return r->r12; case X86_REG_R12D: return (uint32_t)r->r12;
	case X86_REG_R13: return r->r13; case X86_REG_R13D: return (uint32_t)r->r13;
	case X86_REG_R14: return r->r14; case X86_REG_R14D: return (uint32_t)r->r14;
	case X86_REG_R15: return r->r15; case X86_REG_R15D: return (uint32_t)r->r15;
	case X86_REG_RIP: return next;
	case X86_REG_FS: return r->fs_base;
	case X86_REG_GS: return r->gs_base;
	default: return 0;
	}
}

static int is_vector(x86_reg id)
{
	return (id >= X86_REG_XMM0 && id <= X86_REG_XMM31) ||
	       (id >= X86_REG_YMM0 && id <= X86_REG_YMM31) ||
	       (id >= X86_REG_ZMM0 && id <= X86_REG_ZMM31) ||
	       (id >= X86_REG_ST0 && id <= X86_REG_ST7) || (id >= X86_REG_MM0 && id <= X86_REG_MM7);
}

static void fill(struct tmpl *t, uint64_t pc, const uint8_t *code, size_t n)
{
	cs_insn *in = NULL;
	size_t cnt;

	memset(t, 0, sizeof(*t));
	t->pc = pc;
	if (!opened) {
		opened = cs_open(CS_ARCH_X86, CS_MODE_64, &handle) == CS_ERR_OK;
		if (opened)
			cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
	}
	/* rdpid (f3 0f c7 /7), which Capstone 4 does not know: the vDSO's getcpu uses it */
	if (n >= 4 && code[0] == 0xf3 && code[1] == 0x0f && code[2] == 0xc7 && (code[3] & 0x38) == 0x38 &&
	    (code[3] >> 6) == 3) {
		t->base.len = 4;
		t->base.cpu_read = 1;
		snprintf(t->base.text, sizeof(t->base.text), "rdpid");
		t->ok = 1;
		return;
	}
	cnt = opened ? cs_disasm(handle, code, n, pc, 1, &in) : 0;
	/* an EVEX instruction Capstone 4 does not know (AVX-512 in glibc's string functions):
	   only one on registers alone (ModRM mod 3) is known to touch no memory */
	if (!cnt && n >= 6 && code[0] == 0x62 && (code[5] >> 6) == 3) {
		t->base.len = (uint8_t)(6 + ((code[1] & 3) == 3));
		t->base.vector = 1;
		snprintf(t->base.text, sizeof(t->base.text), "(an AVX-512 instruction on registers)");
		t->ok = 1;
		return;
	}
	if (!cnt) {
		snprintf(t->base.text, sizeof(t->base.text), "(bytes %02x %02x %02x %02x)", code[0],
			 n > 1 ? code[1] : 0, n > 2 ? code[2] : 0, n > 3 ? code[3] : 0);
		return;
	}
	cs_x86 *x = &in->detail->x86;
	unsigned id = in->id;

	t->ok = 1;
	t->base.len = (uint8_t)in->size;
	snprintf(t->base.text, sizeof(t->base.text), "%.20s%s%.56s", in->mnemonic,
		 *in->op_str ? " " : "", in->op_str);
	t->base.syscall = id == X86_INS_SYSCALL;
	t->base.cpu_read = id == X86_INS_RDTSCP || id == X86_INS_LSL || id == X86_INS_CPUID;
	t->base.spin_hint = id == X86_INS_PAUSE;
	t->base.atomic = x->prefix[0] == X86_PREFIX_LOCK;
	t->push = id == X86_INS_PUSH || id == X86_INS_PUSHFQ || id == X86_INS_CALL;
	t->string = id == X86_INS_MOVSB || id == X86_INS_MOVSW || id == X86_INS_MOVSD ||
		    id == X86_INS_MOVSQ || id == X86_INS_STOSB || id == X86_INS_STOSW ||
		    id == X86_INS_STOSD || id == X86_INS_STOSQ;
	t->rep = x->prefix[0] == X86_PREFIX_REP;
	for (int i = 0; i < x->op_count; i++) {
		cs_x86_op *o = &x->operands[i];

		if (o->type == X86_OP_REG && is_vector(o->reg))
			t->base.vector = 1;
		if (o->type != X86_OP_MEM || id == X86_INS_LEA || id == X86_INS_NOP ||
		    (id >= X86_INS_PREFETCH && id <= X86_INS_PREFETCHW) || t->nmem == IL_MAX_ACC - 1)
			continue;
		if (id == X86_INS_XCHG)
			t->base.atomic = 1;
		t->mem[t->nmem].seg = o->mem.segment;
		t->mem[t->nmem].base = o->mem.base;
		t->mem[t->nmem].index = o->mem.index;
		t->mem[t->nmem].scale = o->mem.scale;
		t->mem[t->nmem].disp = o->mem.disp;
		t->mem[t->nmem].size = o->size;
		/* an operand Capstone gives no access for may be written: its change is logged */
		t->mem[t->nmem].access = o->access ? o->access : CS_AC_READ | CS_AC_WRITE;
		t->nmem++;
	}
	cs_free(in, cnt);
}

int il_decode(uint64_t pc, const uint8_t *code, size_t n, const il_regs *r, struct il_insn *out)
{
	struct tmpl *t = &cache[(pc ^ (pc >> 12)) % NCACHE];
	uint64_t next;

	if (t->pc != pc || !t->base.len)
		fill(t, pc, code, n);
	*out = t->base;
	if (!t->ok)
		return -1;
	next = pc + t->base.len;
	for (int i = 0; i < t->nmem; i++) {
		uint64_t a = (uint64_t)t->mem[i].disp + reg(t->mem[i].base, r, next) +
			     reg(t->mem[i].index, r, next) * (uint64_t)t->mem[i].scale;
		uint32_t size = t->mem[i].size ? t->mem[i].size : 8;

		if (t->mem[i].seg == X86_REG_FS || t->mem[i].seg == X86_REG_GS)
			a += reg(t->mem[i].seg, r, next);
		if (t->string) {
			uint64_t times = t->rep ? r->rcx : 1;

			size = (uint32_t)(times * size > 65536 ? 65536 : times * size);
		}
		out->acc[out->nacc++] = (struct il_acc){ a, size, !!(t->mem[i].access & CS_AC_READ),
							 !!(t->mem[i].access & CS_AC_WRITE) ||
							 t->base.atomic };
	}
	if (t->push)
		out->acc[out->nacc++] = (struct il_acc){ r->rsp - 8, 8, 0, 1 };
	return 0;
}
