# SPDX-License-Identifier: MIT
# The 2015 restartable_sequences() interface (variant turner-2015, series kernel/patches/
# turner-2015): its correctness test and its bench, static guest programs, and `make
# bench-turner`, which boots the variant under icount and TCG and writes data/. Included by
# the top Makefile.

TURNER_DIR   := bench/turner-2015
TURNER_CHECK := $(BUILD)/guest/bin/turner-check
TURNER_BENCH := $(BUILD)/guest/bin/turner-bench
TURNER_DEPS  := $(TURNER_DIR)/turner-abi.h $(TURNER_DIR)/turner-seq.S $(TURNER_DIR)/bench.mk

GUEST_BINS += $(TURNER_CHECK) $(TURNER_BENCH)

$(TURNER_CHECK): $(TURNER_DIR)/turner-check.c $(TURNER_DEPS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(TURNER_DIR)/turner-seq.S -lpthread

$(TURNER_BENCH): $(TURNER_DIR)/turner-bench.c $(TURNER_DIR)/mainline-seq.S $(TURNER_DEPS) \
		| $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(TURNER_DIR)/turner-seq.S $(TURNER_DIR)/mainline-seq.S

.PHONY: bench-turner
# TURNER_ARGS passes options to turner-bench (e.g. TURNER_ARGS="--iters 200000 --reps 5").
bench-turner: $(BUILD)/images/turner-2015.bzImage $(BUILD)/initramfs/lab.cpio
	$(TURNER_DIR)/run $(TURNER_ARGS)
