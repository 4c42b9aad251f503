# SPDX-License-Identifier: MIT
# The CPU-number read benchmark (lab-cpuread): one static binary for the host and the guests,
# its goals' unit test, and its stages: the host, each variant's guest, and instructions/op
# under icount (A vs B). Included by the top Makefile.

CPUREAD_BIN  := $(BUILD)/guest/bin/lab-cpuread
CPUREAD_SRCS := bench/cpu-read/cpu-read.c bench/cpu-read/methods.c bench/cpu-read/goals.c \
		$(LAB_LIB_SRCS)
CPUREAD_HDRS := $(HEADERS) $(wildcard bench/cpu-read/*.h)
VARIANT      ?= rseq-y
GUEST_BINS   += $(CPUREAD_BIN)

$(CPUREAD_BIN): $(CPUREAD_SRCS) $(CPUREAD_HDRS) bench/cpu-read/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(CPUREAD_SRCS) -lm

CPUREAD_TEST := $(BUILD)/guest/tests/lab-goals-test
$(CPUREAD_TEST): bench/cpu-read/tests/goals-test.c bench/cpu-read/goals.c lib/stats.c \
		$(CPUREAD_HDRS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm

.PHONY: bench-tests bench-host bench-guest cpu-read-host cpu-read-guest
bench-tests: $(CPUREAD_BIN) $(CPUREAD_TEST)
test: bench-tests

# BENCH_ARGS passes options to lab-cpuread (e.g. BENCH_ARGS="--reps 9").
bench-host: $(CPUREAD_BIN)
	scripts/bench-host $(BENCH_ARGS)
bench-guest: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-guest $(VARIANT) $(BENCH_ARGS)
cpu-read-host: $(CPUREAD_BIN)
	scripts/bench-host --only cpu-read $(BENCH_ARGS)
cpu-read-guest: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-guest --only cpu-read $(VARIANT) $(BENCH_ARGS)

# Main-job stages: a stamp per stage, remade only when its inputs change.
CPUREAD_PARAMS := $(call params,cpu-read,$(BENCH_ARGS) ACCEL=$(ACCEL) CPUS=$(CPUS) PIN=$(PIN))
$(STAMPS)/cpu-read-host: $(CPUREAD_BIN) scripts/bench-host $(CPUREAD_PARAMS)
	scripts/stage "CPU reads on the host" scripts/bench-host --only cpu-read $(BENCH_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/cpu-read-guest-%: $(CPUREAD_BIN) $(BUILD)/images/%.bzImage scripts/bench-guest \
		$(BOOT_DEPS) $(CPUREAD_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "CPU reads in a $* guest" scripts/bench-guest --only cpu-read $* $(BENCH_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/cpu-read-host $(patsubst %,$(STAMPS)/cpu-read-guest-%,$(VARIANTS))

include bench/cpu-read/icount.mk
