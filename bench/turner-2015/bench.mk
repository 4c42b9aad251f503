# SPDX-License-Identifier: MIT
# The 2015 restartable_sequences() interface (variant turner-2015, series kernel/patches/
# turner-2015): its correctness tests (turner-check, turner-kvm) and its bench, static guest
# programs, and `make bench-turner`, which boots the variant under icount and TCG and writes
# data/. Included by the top Makefile.

TURNER_DIR   := bench/turner-2015
TURNER_CHECK := $(BUILD)/guest/bin/turner-check
TURNER_BENCH := $(BUILD)/guest/bin/turner-bench
TURNER_KVM   := $(BUILD)/guest/bin/turner-kvm
TURNER_DEPS  := $(TURNER_DIR)/turner-abi.h $(TURNER_DIR)/turner-seq.S $(TURNER_DIR)/bench.mk

TURNER_OBJ   := $(BUILD)/guest/obj/turner-2015

GUEST_BINS += $(TURNER_CHECK) $(TURNER_BENCH) $(TURNER_KVM)

# The assembly is assembled on its own: an object gcc makes on the way to a link has a random
# temporary name, which the linker writes into the symbol table (the binary would differ
# from clone to clone).
$(TURNER_OBJ)/%.o: $(TURNER_DIR)/%.S $(TURNER_DIR)/turner-abi.h $(TURNER_DIR)/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<

$(TURNER_CHECK): $(TURNER_DIR)/turner-check.c $(TURNER_OBJ)/turner-seq.o $(TURNER_DEPS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(TURNER_OBJ)/turner-seq.o -lpthread

$(TURNER_BENCH): $(TURNER_DIR)/turner-bench.c lib/icount.c $(TURNER_OBJ)/turner-seq.o $(TURNER_OBJ)/mainline-seq.o \
		$(TURNER_DEPS) $(HEADERS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< lib/icount.c $(TURNER_OBJ)/turner-seq.o $(TURNER_OBJ)/mainline-seq.o -lm

$(TURNER_KVM): $(TURNER_DIR)/turner-kvm.c lib/kvm-loop.c $(HEADERS) $(TURNER_DEPS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< lib/kvm-loop.c -lpthread

.PHONY: bench-turner
# TURNER_ARGS passes options to turner-bench (e.g. TURNER_ARGS="--iters 200000 --reps 5").
bench-turner: $(BUILD)/images/turner-2015.bzImage $(BUILD)/initramfs/lab.cpio
	$(TURNER_DIR)/run $(TURNER_ARGS)
