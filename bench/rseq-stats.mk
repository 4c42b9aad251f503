# SPDX-License-Identifier: MIT
# Our rseq event counters (kernel/patches/rseq-stats, variant rseq-stats), included by the
# top-level Makefile: the guest program that checks them, and `make size`, the size cost of
# CONFIG_RSEQ and of the counters (scripts/kernel-size, into data/).

GUEST_BINS += $(BUILD)/guest/bin/rseq-stats-check

.PHONY: size
size:
	scripts/kernel-size
