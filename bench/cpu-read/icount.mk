# SPDX-License-Identifier: MIT
# Deterministic mode: the CPU-read bench under QEMU icount, where figures are exact
# instructions/op, and the A/B table of two variants. Included by bench/cpu-read/bench.mk.

A ?= $(firstword $(VARIANTS))
B ?= $(lastword $(VARIANTS))

.PHONY: compare-icount bench-icount
# Per row A's and B's instructions/op and B - A (two icount boots, ~5 s each here).
compare-icount: $(CPUREAD_BIN) $(call IMAGES,$(A) $(B)) $(BUILD)/initramfs/lab.cpio
	bench/cpu-read/compare-icount $(A) $(B)

# One icount run of VARIANT into data/.
bench-icount: $(CPUREAD_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	ACCEL=icount bench/cpu-read/run $(VARIANT) $(BENCH_ARGS)

$(STAMPS)/cpu-read-icount: $(CPUREAD_BIN) $(call IMAGES,$(A) $(B)) scripts/bench-run \
		bench/cpu-read/compare-icount bench/cpu-read/icount-table $(BOOT_DEPS) \
		| $(BUILD)/initramfs/lab.cpio
	scripts/stage "instructions/op under icount: $(A) vs $(B)" bench/cpu-read/compare-icount $(A) $(B)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/cpu-read-icount
