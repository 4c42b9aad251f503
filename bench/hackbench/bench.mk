# SPDX-License-Identifier: MIT
# hackbench in the guests, included by the top-level Makefile: Debian's
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
	$(CC) $(CFLAGS) $(REPRO_CFLAGS) -o $@ $<

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
