# SPDX-License-Identifier: MIT
# The shared C harness (options, timing, verification, results, statistics, metadata, vDSO
# lookup, PMU, icount, kernel counters, threads), the A/B statistics tool lab-ab (a host tool:
# hackbench, icount, boot-time and the report use it), and the harness's unit tests.
# Included by the top-level Makefile; every bench links LAB_LIB_SRCS into its static binary.

LAB_LIB_SRCS := lib/options.c lib/harness.c lib/exec.c lib/worker.c lib/stats.c lib/results.c \
		lib/icount.c lib/pmu.c lib/outfile.c lib/meta.c lib/vdso.c lib/kstats.c
# Recorded in each run's metadata.
BENCH_CFLAGS = $(GUEST_CFLAGS) -DLAB_CC='"$(CC)"' -DLAB_CFLAGS='"$(GUEST_CFLAGS)"'

AB_BIN  := $(BUILD)/host/bin/lab-ab
AB_SRCS := lib/lab-ab.c lib/ab.c lib/ab-input.c lib/stats.c

$(AB_BIN): $(AB_SRCS) $(HEADERS) lib/lab.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(AB_SRCS) -lm

# Unit tests (lib/tests/*.t run them): arithmetic and CSV rows, counted figures, A/B.
LIB_TESTS := $(BUILD)/host/tests/lab-ab-test $(BUILD)/guest/tests/lab-stats-test \
	     $(BUILD)/guest/tests/lab-count-test
$(BUILD)/host/tests/lab-ab-test: lib/tests/ab-test.c lib/ab.c lib/stats.c $(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/guest/tests/lab-stats-test: lib/tests/stats-test.c lib/stats.c lib/results.c lib/kstats.c \
		$(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/guest/tests/lab-count-test: lib/tests/count-test.c lib/pmu.c lib/icount.c lib/results.c \
		lib/stats.c lib/kstats.c $(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm

.PHONY: lib-tests
lib-tests: $(AB_BIN) $(LIB_TESTS)
test: lib-tests

.PHONY: report
# From data/ alone: nothing is rerun. DATA= and PLOTS= point elsewhere.
report: $(AB_BIN)
	scripts/report
