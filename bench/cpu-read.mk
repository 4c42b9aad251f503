# SPDX-License-Identifier: MIT
# The CPU-number read benchmark (lab-cpuread): one static binary for the host and the guests,
# its unit test, and the bench-host / bench-guest targets. Included by the top Makefile.

CPUREAD_BIN   := $(BUILD)/guest/bin/lab-cpuread
# The harness, the results writer and the statistics are shared with later benches.
BENCH_LIB_SRCS := bench/options.c bench/harness.c bench/exec.c bench/worker.c bench/stats.c bench/results.c \
		  bench/icount.c bench/pmu.c \
		  bench/outfile.c bench/meta.c bench/vdso.c bench/kstats.c
CPUREAD_SRCS  := bench/cpu-read.c bench/cpu-read-methods.c bench/cpu-read-goals.c $(BENCH_LIB_SRCS)
# Recorded in each run's metadata.
BENCH_CFLAGS   = $(GUEST_CFLAGS) -DLAB_CC='"$(CC)"' -DLAB_CFLAGS='"$(GUEST_CFLAGS)"'
BENCH_TESTS   := $(BUILD)/guest/tests/lab-stats-test
VARIANT       ?= rseq-y

GUEST_BINS += $(CPUREAD_BIN)

$(CPUREAD_BIN): $(CPUREAD_SRCS) $(HEADERS) bench/cpu-read.mk
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(CPUREAD_SRCS) -lm

$(BUILD)/guest/tests/lab-stats-test: bench/tests/unit/stats-test.c bench/stats.c bench/results.c \
		bench/kstats.c bench/cpu-read-goals.c \
		$(HEADERS) bench/cpu-read.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm

.PHONY: bench-tests bench-host bench-guest
bench-tests: $(BENCH_TESTS) $(CPUREAD_BIN)
# make test runs scripts/tests/*.t over these.
test: bench-tests

# BENCH_ARGS passes options to lab-cpuread (e.g. BENCH_ARGS="--reps 9").
bench-host: $(CPUREAD_BIN)
	scripts/bench-host $(BENCH_ARGS)

bench-guest: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-guest $(VARIANT) $(BENCH_ARGS)
