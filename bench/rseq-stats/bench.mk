# SPDX-License-Identifier: MIT
# Our rseq event counters (kernel/patches/rseq-stats, variant rseq-stats): the guest program
# that checks them against a forced-abort workload. Included by the top-level Makefile.

RSEQ_STATS_CHECK := $(BUILD)/guest/bin/rseq-stats-check
GUEST_BINS += $(RSEQ_STATS_CHECK)

$(RSEQ_STATS_CHECK): bench/rseq-stats/rseq-stats-check.c $(HEADERS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< -lpthread
