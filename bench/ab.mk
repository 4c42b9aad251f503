# SPDX-License-Identifier: MIT
# The lab's A/B statistics (bench/ab.c) and its command-line front end lab-ab (a host tool,
# used by hackbench, the icount and the boot-time benches and the report), its unit test, and
# `make report` (plots/ from data/ alone). Included by the top-level Makefile.

AB_BIN  := $(BUILD)/host/bin/lab-ab
AB_SRCS := bench/lab-ab.c bench/ab.c bench/ab-input.c bench/stats.c
AB_TEST := $(BUILD)/host/tests/lab-ab-test

$(AB_BIN): $(AB_SRCS) $(HEADERS) bench/ab.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/include -o $@ $(AB_SRCS) -lm

$(AB_TEST): bench/tests/unit/ab-test.c bench/ab.c bench/stats.c $(HEADERS) bench/ab.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/include -o $@ $(filter %.c,$^) -lm

.PHONY: report ab-tests
ab-tests: $(AB_BIN) $(AB_TEST)
test: ab-tests

# From data/ alone: nothing is rerun. DATA= and PLOTS= point elsewhere.
report: $(AB_BIN)
	scripts/report
