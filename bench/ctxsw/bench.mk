# SPDX-License-Identifier: MIT
# The context-switch and signal-delivery bench (lab-ctxsw): a static guest binary,
# `make ctxsw` and the main job's stage (icount without working KVM: exact counts).
CTXSW_BIN := $(BUILD)/guest/bin/lab-ctxsw
GUEST_BINS += $(CTXSW_BIN)

$(CTXSW_BIN): bench/ctxsw/ctxsw.c bench/ctxsw/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

.PHONY: ctxsw
bench-tests: $(CTXSW_BIN)
# CTXSW_ROUNDS, CTXSW_ITERS, CTXSW_BATCHES, CTXSW_GLIBC, CTXSW_JOBS, ACCEL, CPUS as in bench/ctxsw/run.
ctxsw: $(CTXSW_BIN) $(call IMAGES,$(VARIANTS)) $(BUILD)/initramfs/lab.cpio $(AB_BIN)
	bench/ctxsw/run $(VARIANTS)

CTXSW_PARAMS := $(call params,ctxsw,CTXSW_ROUNDS=$(CTXSW_ROUNDS) CTXSW_ITERS=$(CTXSW_ITERS) CTXSW_BATCHES=$(CTXSW_BATCHES) \
	ACCEL=$(ACCEL) CPUS=$(CPUS))
$(STAMPS)/ctxsw: $(CTXSW_BIN) $(call IMAGES,$(VARIANTS)) $(AB_BIN) bench/ctxsw/run \
		bench/ctxsw/parse-output $(BOOT_DEPS) $(CTXSW_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "context switch and signal cost" bench/ctxsw/run $(VARIANTS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/ctxsw
