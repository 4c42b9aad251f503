# SPDX-License-Identifier: MIT
# hackbench in the guests (issues 7 and 10), included by the top-level Makefile: Debian's
# rt-tests hackbench, which is dynamically linked, goes into the initramfs with the shared
# libraries it needs and the dynamic loader (all under /lab/bin; the guest runs it through the
# loader), plus a dynamic probe of glibc's rseq registration and the guest-side run script.
# `make hackbench` boots N times per column, interleaved; scripts/bench-hackbench has the rest.

HB_BIN   := /usr/bin/hackbench
LIBDIR   := /lib/x86_64-linux-gnu
# What `ldd /usr/bin/hackbench` lists on Debian 12 amd64; the copy rule checks it still is.
HB_LIBS  := libc.so.6 libpthread.so.0 ld-linux-x86-64.so.2
HB_GUEST := $(BUILD)/guest/bin/hackbench.bin $(addprefix $(BUILD)/guest/bin/,$(HB_LIBS)) \
	    $(BUILD)/guest/bin/lab-rseq-size $(BUILD)/guest/bin/lab-hackbench
GUEST_BINS += $(HB_GUEST)

$(BUILD)/guest/bin/hackbench.bin: bench/hackbench.mk
	@mkdir -p $(@D)
	@test -x $(HB_BIN) || { echo "error: $(HB_BIN) missing (apt-get install rt-tests)" >&2; exit 1; }
	@want=$$(echo $(HB_LIBS) | tr ' ' '\n' | sort); \
	got=$$(ldd $(HB_BIN) | awk '$$1 !~ /vdso/ { n = $$1; sub(".*/", "", n); print n }' | sort); \
	[ "$$want" = "$$got" ] || { echo "error: $(HB_BIN) now needs: $$got (bench/hackbench.mk lists $(HB_LIBS))" >&2; exit 1; }
	install -m 0755 $(HB_BIN) $@

# The libraries under their sonames, as the loader's --library-path finds them.
$(addprefix $(BUILD)/guest/bin/,$(HB_LIBS)): $(BUILD)/guest/bin/%:
	@mkdir -p $(@D)
	install -m 0755 $$(readlink -f $(LIBDIR)/$*) $@

# Dynamic on purpose: it must see the same libc.so.6 as hackbench.
$(BUILD)/guest/bin/lab-rseq-size: bench/hackbench/rseq-size.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/guest/bin/lab-hackbench: bench/hackbench/guest-run.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@

.PHONY: hackbench
# The base comes first (VARIANTS defaults to rseq-n rseq-y).
HB_VARIANTS := $(VARIANTS)
# N boots per column (default 5); HB_LOOPS, HB_GROUPS, HB_SIZE, HB_REPS, HB_GLIBC, ACCEL,
# CPUS as in scripts/bench-hackbench. VARIANTS (default rseq-n rseq-y) names the kernels.
hackbench: $(call IMAGES,$(HB_VARIANTS)) $(BUILD)/initramfs/lab.cpio $(BUILD)/host/bin/lab-ab
	scripts/bench-hackbench $(HB_VARIANTS)
