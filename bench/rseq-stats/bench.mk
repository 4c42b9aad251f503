# SPDX-License-Identifier: MIT
# Our rseq event counters (kernel/patches/rseq-stats, variant rseq-stats): the guest programs
# that check them against a forced-abort workload and on KVM's guest-entry path. Included by
# the top-level Makefile.

RSEQ_STATS_CHECK := $(BUILD)/guest/bin/rseq-stats-check
RSEQ_STATS_KVM   := $(BUILD)/guest/bin/rseq-stats-kvm
GUEST_BINS += $(RSEQ_STATS_CHECK) $(RSEQ_STATS_KVM)

$(RSEQ_STATS_CHECK): bench/rseq-stats/rseq-stats-check.c $(HEADERS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< -lpthread

# The counters on KVM's guest-entry path (variant rseq-stats-kvm, tests/rseq-stats-kvm.t).
$(RSEQ_STATS_KVM): bench/rseq-stats/rseq-stats-kvm.c lib/kvm-loop.c lib/kstats.c $(HEADERS) \
		| $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< lib/kvm-loop.c lib/kstats.c -lpthread

# 6.19's motivation on these kernels (bench/rseq-stats/motivation): rseq work on exit and its
# instructions, under icount. make modern runs it on the 6.12 kernels.
MOT_STATS ?= rseq-stats
MOT_BASE  ?= rseq-y
.PHONY: rseq-motivation
rseq-motivation: $(call IMAGES,$(MOT_STATS) $(MOT_BASE)) $(HB_GUEST) $(AB_BIN) \
		| $(BUILD)/initramfs/lab.cpio
	bench/rseq-stats/motivation $(MOT_STATS) $(MOT_BASE)
# The same question for lab-percpu's rows (bench/rseq-stats/motivation-percpu): exits and rseq
# work per operation, instructions per operation, reg vs unreg; MOT_ROUNDS, MOT_REPS, MOT_MS.
.PHONY: rseq-motivation-percpu
rseq-motivation-percpu: $(call IMAGES,$(MOT_STATS) $(MOT_BASE)) $(PERCPU_BIN) \
		$(BUILD)/guest/bin/lab-vtime $(AB_BIN) | $(BUILD)/initramfs/lab.cpio
	bench/rseq-stats/motivation-percpu $(MOT_STATS) $(MOT_BASE)
