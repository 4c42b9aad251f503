# SPDX-License-Identifier: MIT
# Boot cost per variant (issue 9): hyperfine times scripts/boot VARIANT -- true, RUNS (10)
# runs after WARMUP (1), into data/; the report row per variant and the A/B verdict come from
# the lab's statistics (lab-ab). build-times prints each variant's recorded kernel build time.
# Included by the top Makefile.

.PHONY: boot-time build-times
boot-time: $(call IMAGES,$(VARIANTS)) $(BUILD)/initramfs/lab.cpio $(AB_BIN)
	scripts/boot-time $(VARIANTS)

build-times:
	@scripts/build-times
