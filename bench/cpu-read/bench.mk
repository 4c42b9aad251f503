# SPDX-License-Identifier: MIT
# The CPU-number read benchmark (lab-cpuread): one static binary for the host and the guests,
# its goals' unit test, and its stages: the host, each variant's guest, and instructions/op
# under icount (A vs B). Included by the top Makefile.

CPUREAD_BIN  := $(BUILD)/guest/bin/lab-cpuread
CPUREAD_SRCS := bench/cpu-read/cpu-read.c bench/cpu-read/methods.c bench/cpu-read/goals.c lib/case-bench.c \
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

.PHONY: bench-tests bench-host bench-guest
bench-tests: $(CPUREAD_BIN) $(CPUREAD_TEST)
test: bench-tests

# BENCH_ARGS passes options to lab-cpuread (e.g. BENCH_ARGS="--reps 9"); make bench-host and
# bench-guest run cpu-read and percpu together, cpu-read-host and -guest it alone.
bench-host: $(CPUREAD_BIN)
	scripts/bench-run host $(BENCH_ARGS)
bench-guest: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-run $(VARIANT) $(BENCH_ARGS)
CPUREAD_ARGS = $(BENCH_ARGS)
$(eval $(call run_stages,cpu-read,CPUREAD,CPU reads))

include bench/cpu-read/icount.mk
