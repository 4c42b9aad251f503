# SPDX-License-Identifier: MIT
# make modern: the guest benches on Debian's linux-source-$(MODERN_KVER) kernels (6.12)
# beside the main job's 6.1 ones. Not in the main job: two more cold kernel builds (10-17 min
# each here) would take the cold main job past 15 min. Each variant is built with
# KVER=$(MODERN_KVER) and selected as build/images/VARIANT-$(MODERN_KVER).* (scripts/build-kernel's
# IMAGE_NAME), so the 6.1 images the main job boots stay as they are; the stages are the main
# job's own pattern stages (boot check, CPU reads, per-CPU, mm_cid) for those names, the icount
# A/B, hackbench and the rseq-stats motivation. The guest programs are the same static
# binaries (built against linux-6.1's selftests helpers: GUEST_SRC in the Makefile).

MODERN_KVER     ?= 6.12
MODERN_VARIANTS ?= rseq-n rseq-y
MODERN_STATS    ?= rseq-stats
modern_name = $(1)-$(MODERN_KVER)
MODERN_NAMES := $(foreach v,$(MODERN_VARIANTS),$(call modern_name,$(v)))
MODERN_ALL   := $(MODERN_NAMES) $(foreach v,$(MODERN_STATS),$(call modern_name,$(v)))
# Debian's tree of that KVER, tinyconfig, x86-64, whatever KSRC, CONFIG or ARCH say for the rest.
MODERN_ENV = KVER=$(MODERN_KVER) KSRC= KREV= CONFIG= ARCH=x86_64
# Each image's identity (scripts/kernel-identity under MODERN_ENV) is a params file, as for
# the main job's: computed only when a modern goal is asked for.
MODERN_GOAL := $(filter modern modern-%,$(MAKECMDGOALS))
define modern_image
$$(BUILD)/images/$(call modern_name,$(1)).bzImage: $(if $(MODERN_GOAL),$$(call params,kernel-$(call modern_name,$(1)),$$(shell $(MODERN_ENV) BUILD='$$(BUILD)' scripts/kernel-identity $(1))))
	$(MODERN_ENV) IMAGE_NAME=$(call modern_name,$(1)) scripts/build-kernel $(1)
endef
$(foreach v,$(MODERN_VARIANTS) $(MODERN_STATS),$(eval $(call modern_image,$(v))))

MODERN_A := $(firstword $(MODERN_NAMES))
MODERN_B := $(lastword $(MODERN_NAMES))
$(STAMPS)/modern-cpu-read-icount: $(CPUREAD_BIN) $(call IMAGES,$(MODERN_A) $(MODERN_B)) \
		scripts/bench-run bench/cpu-read/compare-icount bench/cpu-read/icount-table \
		$(BOOT_DEPS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "instructions/op under icount: $(MODERN_A) vs $(MODERN_B)" \
		bench/cpu-read/compare-icount $(MODERN_A) $(MODERN_B)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/modern-hackbench: $(HB_GUEST) $(call IMAGES,$(MODERN_NAMES)) $(AB_BIN) \
		bench/hackbench/run bench/hackbench/parse-boot $(BOOT_DEPS) $(HB_PARAMS) \
		| $(BUILD)/initramfs/lab.cpio
	scripts/stage "hackbench A/B ($(MODERN_KVER))" env HB_EXACT=1 bench/hackbench/run $(MODERN_NAMES)
	@mkdir -p $(@D) && touch $@
MODERN_MOT_STATS := $(foreach v,$(MODERN_STATS),$(call modern_name,$(v)))
$(STAMPS)/modern-motivation: $(HB_GUEST) $(call IMAGES,$(MODERN_MOT_STATS) $(MODERN_B)) $(AB_BIN) \
		bench/rseq-stats/motivation $(BOOT_DEPS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "rseq work on exit ($(MODERN_KVER), icount)" \
		bench/rseq-stats/motivation $(MODERN_MOT_STATS) $(MODERN_B)
	@mkdir -p $(@D) && touch $@

# The cheap checks first, hackbench and the motivation (the longest) last; then the report.
MODERN_STAGES := $(patsubst %,$(STAMPS)/boot-smoke-%,$(MODERN_NAMES)) \
	$(foreach n,$(MODERN_NAMES),$(STAMPS)/cpu-read-guest-$(n) $(STAMPS)/percpu-guest-$(n) \
		$(STAMPS)/mm-cid-guest-$(n)) \
	$(STAMPS)/modern-cpu-read-icount $(STAMPS)/modern-hackbench \
	$(if $(MODERN_STATS),$(STAMPS)/modern-motivation)

.PHONY: modern modern-kernels
modern-kernels: $(call IMAGES,$(MODERN_ALL))
modern: $(call IMAGES,$(MODERN_ALL)) $(MODERN_STAGES) $(AB_BIN)
	scripts/stage "report from data/" scripts/report > /dev/null
	@echo "==> make modern done; report: $(PLOTS)/report.txt"
