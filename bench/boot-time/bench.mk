# SPDX-License-Identifier: MIT
# Boot cost per variant: hyperfine times scripts/boot VARIANT -- true, RUNS (10) runs after
# WARMUP (1), into data/; the report row per variant and the A/B verdict come from the lab's
# statistics (lab-ab). Not a main-job stage (a minute of boots); `make boot-time` runs it.

.PHONY: boot-time build-times
boot-time: $(call IMAGES,$(VARIANTS)) $(BUILD)/initramfs/lab.cpio $(AB_BIN)
	bench/boot-time/run $(VARIANTS)

# Each variant's recorded kernel build time (build/images/VARIANT.info) into a data/ run.
build-times:
	@scripts/build-times --data
