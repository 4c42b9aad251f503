# SPDX-License-Identifier: MIT
# Deterministic mode (issue 8): the CPU-read bench under QEMU icount, where figures are exact
# instructions/op, and the A/B table of two variants. Included by the top Makefile.

A ?= rseq-y
B ?= rseq-n

.PHONY: compare-icount bench-icount
# Per row A's and B's instructions/op and B - A (two icount boots, ~5 s each here).
compare-icount: $(CPUREAD_BIN) $(call IMAGES,$(A) $(B)) $(BUILD)/initramfs/lab.cpio
	scripts/compare-icount $(A) $(B)

# One icount run of VARIANT into data/.
bench-icount: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	ACCEL=icount scripts/bench-guest $(VARIANT) $(BENCH_ARGS)

# Unit test of the counted figures (PMU decoding, icount arithmetic, their CSV columns).
COUNT_TEST := $(BUILD)/guest/tests/lab-count-test
$(COUNT_TEST): bench/tests/unit/count-test.c bench/pmu.c bench/icount.c bench/results.c \
		bench/stats.c bench/kstats.c $(HEADERS) bench/icount.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm
.PHONY: count-tests
count-tests: $(COUNT_TEST)
test: count-tests
