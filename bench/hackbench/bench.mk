# SPDX-License-Identifier: MIT
# hackbench in the guests (issues 7 and 10), included by the top-level Makefile: Debian's
# rt-tests hackbench, which is dynamically linked, goes into the initramfs with the shared
# libraries it needs and the dynamic loader (all under /lab/bin; the guest runs it through the
# loader), plus a dynamic probe of glibc's rseq registration and the guest-side run script.
# `make hackbench` boots N times per column, interleaved; bench/hackbench/run has the rest.

HB_BIN   := /usr/bin/hackbench
LIBDIR   := /lib/x86_64-linux-gnu
# What `ldd /usr/bin/hackbench` lists on Debian 12 amd64; the copy rule checks it still is.
HB_LIBS  := libc.so.6 libpthread.so.0 ld-linux-x86-64.so.2
HB_GUEST := $(BUILD)/guest/bin/hackbench.bin $(addprefix $(BUILD)/guest/bin/,$(HB_LIBS)) \
	    $(BUILD)/guest/bin/lab-rseq-size $(BUILD)/guest/bin/lab-hackbench \
	    $(BUILD)/guest/bin/lab-vtime
GUEST_BINS += $(HB_GUEST)

# The guest clock in ns around each hackbench run (hackbench prints ms), and the seed spin.
$(BUILD)/guest/bin/lab-vtime: bench/hackbench/vtime.c | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

$(BUILD)/guest/bin/hackbench.bin: bench/hackbench/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	@test -x $(HB_BIN) || { echo "error: $(HB_BIN) missing (apt-get install rt-tests)" >&2; exit 1; }
	@want=$$(echo $(HB_LIBS) | tr ' ' '\n' | sort); \
	got=$$(ldd $(HB_BIN) | awk '$$1 !~ /vdso/ { n = $$1; sub(".*/", "", n); print n }' | sort); \
	[ "$$want" = "$$got" ] || { echo "error: $(HB_BIN) now needs: $$got (bench/hackbench/bench.mk lists $(HB_LIBS))" >&2; exit 1; }
	install -m 0755 $(HB_BIN) $@

# The libraries under their sonames, as the loader's --library-path finds them.
$(addprefix $(BUILD)/guest/bin/,$(HB_LIBS)): $(BUILD)/guest/bin/%:
	@mkdir -p $(@D)
	install -m 0755 $$(readlink -f $(LIBDIR)/$*) $@

# Dynamic on purpose: it must see the same libc.so.6 as hackbench.
$(BUILD)/guest/bin/lab-rseq-size: bench/hackbench/rseq-size.c | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/guest/bin/lab-hackbench: bench/hackbench/guest-run
	@mkdir -p $(@D)
	install -m 0755 $< $@

.PHONY: hackbench
# The base comes first (VARIANTS defaults to rseq-n rseq-y).
HB_VARIANTS := $(VARIANTS)
# N boots per column (default 5); HB_LOOPS, HB_GROUPS, HB_SIZE, HB_REPS, HB_GLIBC, ACCEL,
# CPUS as in bench/hackbench/run. VARIANTS (default rseq-n rseq-y) names the kernels.
hackbench: $(call IMAGES,$(HB_VARIANTS)) $(BUILD)/initramfs/lab.cpio $(AB_BIN)
	bench/hackbench/run $(HB_VARIANTS)

# The main job's stage: KVM where a trial boot works, else icount (plain TCG timings vary by
# 25 % and cannot resolve the few-% effects in question).
HB_PARAMS := $(call params,hackbench,N=$(N) HB_GROUPS=$(HB_GROUPS) HB_LOOPS=$(HB_LOOPS) \
	HB_SIZE=$(HB_SIZE) HB_REPS=$(HB_REPS) HB_GLIBC=$(HB_GLIBC) ACCEL=$(ACCEL) CPUS=$(CPUS))
$(STAMPS)/hackbench: $(HB_GUEST) $(call IMAGES,$(HB_VARIANTS)) $(AB_BIN) bench/hackbench/run \
		bench/hackbench/parse-boot $(BOOT_DEPS) $(HB_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "hackbench A/B" env HB_EXACT=1 bench/hackbench/run $(HB_VARIANTS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/hackbench

# ARM guests (issue 20): the same guest side per ARM architecture, in build/guest/ARCH/bin and
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
		bench/hackbench/bench.mk | arch-cc-$(1)
	@mkdir -p $$(@D)
	@b=$$(BUILD)/arch-deps/$(1)/rt-tests/root/usr/bin/hackbench; \
	want=$$$$(echo $$(HB_LIBS_$(1)) | tr ' ' '\n' | sort); \
	got=$$$$($$(patsubst %gcc,%readelf,$$($(1)_CC)) -d $$$$b | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort); \
	[ "$$$$want" = "$$$$got" ] || { echo "error: rt-tests:$(1)'s hackbench needs: $$$$got (bench/hackbench/bench.mk lists $$(HB_LIBS_$(1)))" >&2; exit 1; }; \
	install -m 0755 $$$$b $$@
$$(addprefix $$(BUILD)/guest/$(1)/bin/,$$(HB_LIBS_$(1))): $$(BUILD)/guest/$(1)/bin/%: \
		$$(BUILD)/arch-deps/$(1)/libc6/version
	@mkdir -p $$(@D)
	@f=$$$$(find $$(BUILD)/arch-deps/$(1)/libc6/root/lib -name $$* -type f | head -n 1); \
	[ -n "$$$$f" ] || { echo "error: libc6:$(1) has no $$*" >&2; exit 1; }; \
	install -m 0755 $$$$f $$@
$$(BUILD)/guest/$(1)/bin/lab-rseq-size: bench/hackbench/rseq-size.c | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$(CFLAGS) -o $$@ $$<
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
