# SPDX-License-Identifier: MIT
# hackbench on the architecture axis, included by scripts/arch/arch.mk: the x86_64 guest side
# (bench/hackbench/bench.mk) built for each ARM architecture, and make hackbench-ARCH.

# ARM guests: the same guest side per ARM architecture, in build/guest/ARCH/bin and
# that architecture's initramfs (scripts/arch/arch.mk adds ARM_EXTRA_BINS_ARCH to it): Debian's
# own rt-tests:arm64 / :armhf hackbench and the libc6:arm64 / :armhf libraries it needs (the
# same glibc version as the host's, which x86_64's hackbench runs on), both fetched with
# apt-get download by scripts/arch/fetch-deb (nothing installed), the probe built dynamically
# with the cross compiler (run on the same libc.so), lab-vtime static.
HB_LIBS_arm64 := libc.so.6 libpthread.so.0 ld-linux-aarch64.so.1
HB_LIBS_arm   := libc.so.6 libpthread.so.0 ld-linux-armhf.so.3
define hb_arm
HB_GUEST_$(1) := $$(addprefix $$(BUILD)/guest/$(1)/bin/,hackbench.bin $$(HB_LIBS_$(1)) \
	lab-rseq-size lab-vtime lab-hackbench)
ARM_EXTRA_BINS_$(1) += $$(HB_GUEST_$(1))
$$(BUILD)/arch-deps/$(1)/rt-tests/version $$(BUILD)/arch-deps/$(1)/libc6/version: \
		$$(BUILD)/arch-deps/$(1)/%/version: scripts/arch/fetch-deb
	scripts/arch/fetch-deb $(1) $$*
# The binary's NEEDED entries must still be the libraries listed above.
$$(BUILD)/guest/$(1)/bin/hackbench.bin: $$(BUILD)/arch-deps/$(1)/rt-tests/version \
		scripts/arch/hackbench.mk | arch-cc-$(1)
	@mkdir -p $$(@D)
	@b=$$(BUILD)/arch-deps/$(1)/rt-tests/root/usr/bin/hackbench; \
	want=$$$$(echo $$(HB_LIBS_$(1)) | tr ' ' '\n' | sort); \
	got=$$$$($$(patsubst %gcc,%readelf,$$($(1)_CC)) -d $$$$b | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort); \
	[ "$$$$want" = "$$$$got" ] || { echo "error: rt-tests:$(1)'s hackbench needs: $$$$got (scripts/arch/hackbench.mk lists $$(HB_LIBS_$(1)))" >&2; exit 1; }; \
	install -m 0755 $$$$b $$@
$$(addprefix $$(BUILD)/guest/$(1)/bin/,$$(HB_LIBS_$(1))): $$(BUILD)/guest/$(1)/bin/%: \
		$$(BUILD)/arch-deps/$(1)/libc6/version
	@mkdir -p $$(@D)
	@f=$$$$(find $$(BUILD)/arch-deps/$(1)/libc6/root/lib -name $$* -type f | head -n 1); \
	[ -n "$$$$f" ] || { echo "error: libc6:$(1) has no $$*" >&2; exit 1; }; \
	install -m 0755 $$$$f $$@
$$(BUILD)/guest/$(1)/bin/lab-rseq-size: bench/hackbench/rseq-size.c | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$(CFLAGS) $(REPRO_CFLAGS) -o $$@ $$<
$$(BUILD)/guest/$(1)/bin/lab-vtime: bench/hackbench/vtime.c | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$<
$$(BUILD)/guest/$(1)/bin/lab-hackbench: bench/hackbench/guest-run
	@mkdir -p $$(@D)
	install -m 0755 $$< $$@
endef
$(foreach a,arm64 arm,$(eval $(call hb_arm,$(a))))

# Called by scripts/arch/arch.mk for each ARM architecture (ARM_HOOKS), where its kernels'
# paths are known: make hackbench-ARCH, and the main job's stage when ARCHES names ARCH. The
# A/B is that architecture's rseq-n against its rseq-y (glibc registration off and on), under
# icount, with the same knobs as x86_64's.
ARM_HB_VARIANTS ?= rseq-n rseq-y
define hb_arm_stage
.PHONY: hackbench-$(1)
hackbench-$(1): $$(HB_GUEST_$(1)) $$(call arm_images,$(1),$$(ARM_HB_VARIANTS)) $$(AB_BIN) \
		$$(BUILD)/initramfs/$(1)/lab.cpio
	ARCH=$(1) ACCEL=icount bench/hackbench/run $$(ARM_HB_VARIANTS)
$$(STAMPS)/hackbench-$(1): $$(HB_GUEST_$(1)) $$(call arm_images,$(1),$$(ARM_HB_VARIANTS)) \
		$$(AB_BIN) bench/hackbench/run bench/hackbench/parse-boot $$(BOOT_DEPS) $$(HB_PARAMS) \
		| $$(BUILD)/initramfs/$(1)/lab.cpio
	scripts/stage "hackbench A/B in $(1) guests (icount)" env ARCH=$(1) ACCEL=icount \
		bench/hackbench/run $$(ARM_HB_VARIANTS)
	@mkdir -p $$(@D) && touch $$@
$(if $(filter $(1),$(ARM_SELECTED)),$$(PLOTS)/report.txt: $$(STAMPS)/hackbench-$(1))
endef
ARM_HOOKS += hb_arm_stage
