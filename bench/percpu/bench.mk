# SPDX-License-Identifier: MIT
# The per-CPU strategies bench (lab-percpu): one static binary for the host and the guests,
# its rseq rows built against the kernel tree's selftests rseq helpers in place (lib/lab.mk's
# rseq_bench), and its stages on the host and in each variant's guest. Included by the top
# Makefile.

PERCPU_SRCS := bench/percpu/percpu.c bench/percpu/percpu-cases.c bench/percpu/percpu-run.c \
	       bench/percpu/percpu-report.c $(LAB_MT_SRCS) $(LAB_LIB_SRCS)
$(eval $(call rseq_bench,percpu,PERCPU))

.PHONY: bench-percpu-host bench-percpu-guest

# PERCPU_ARGS passes options to lab-percpu (e.g. PERCPU_ARGS="--reps 9 --threads 1,2").
bench-percpu-host: $(PERCPU_BIN)
	scripts/bench-host --only percpu $(PERCPU_ARGS)
bench-percpu-guest: $(PERCPU_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-guest --only percpu $(VARIANT) $(PERCPU_ARGS)

# make bench-host / bench-guest run both benches (scripts/bench-host, scripts/bench-guest).
bench-host bench-guest: $(PERCPU_BIN)

PERCPU_PARAMS := $(call params,percpu,$(PERCPU_ARGS) ACCEL=$(ACCEL) CPUS=$(CPUS) PIN=$(PIN))
$(STAMPS)/percpu-host: $(PERCPU_BIN) scripts/bench-host $(PERCPU_PARAMS)
	scripts/stage "per-CPU strategies on the host" scripts/bench-host --only percpu $(PERCPU_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/percpu-guest-%: $(PERCPU_BIN) $(BUILD)/images/%.bzImage scripts/bench-guest \
		$(BOOT_DEPS) $(PERCPU_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "per-CPU strategies in a $* guest" \
		scripts/bench-guest --only percpu $* $(PERCPU_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/percpu-host $(patsubst %,$(STAMPS)/percpu-guest-%,$(VARIANTS))
