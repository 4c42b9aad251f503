# SPDX-License-Identifier: MIT
# The rseq/getcpu benchmark lab. `make help` lists the targets.
# Every stage is a file target: a bench source change never rebuilds a kernel, a fragment
# change rebuilds only the variants that use it.

# `make` alone runs the main job, whatever the included bench/*.mk define first.
.DEFAULT_GOAL := all

KVER      ?= 6.1
# The first variant is the base of every comparison.
VARIANTS  ?= rseq-n rseq-y
# Variants make test builds and boots.
TEST_VARIANTS ?= rseq-y rseq-n rseq-debug rseq-stats rseq-stats-off
CC        ?= gcc
CFLAGS    ?= -O2 -g -Wall -Wextra
GUEST_CFLAGS = $(CFLAGS) -static -Ibench/include
BUILD     := $(abspath build)
export KVER BUILD

SRC       := $(BUILD)/src/linux-$(KVER)
ALL_VARIANTS := $(notdir $(wildcard kernel/variants/*))
IMAGES     = $(patsubst %,$(BUILD)/images/%.bzImage,$(1))
HEADERS   := $(wildcard bench/include/lab/*.h)

# Static programs that go into every guest; each bench/*.mk adds its own and its targets.
GUEST_BINS := $(BUILD)/guest/bin/lab-check
include $(wildcard bench/*.mk)

.PHONY: readme
# The README's results section, from plots/report.md.
readme:
	scripts/readme-results

.PHONY: all help deps source tools kernels initramfs guest-bins boot-smoke test clean distclean

# The main job, one stage after the other (each a target of its own): kernels, the benches on
# the host and in each variant's guest, exact instruction counts (icount), hackbench A/B, the
# size cost, then the report from data/. hackbench runs under KVM where it works, else under
# icount: plain TCG timings vary by 25 % and cannot resolve the few-% effects in question.
all: deps
	@t0=$$(date +%s); stage() { s=$$(date +%s); echo "==> $$1"; shift; "$$@" || exit 1; \
		echo "==> done in $$(( $$(date +%s) - s )) s"; }; \
	stage "kernels: $(VARIANTS)" $(MAKE) --no-print-directory kernels initramfs && \
	stage "boot check of each variant" $(MAKE) --no-print-directory boot-smoke && \
	stage "size cost" $(MAKE) --no-print-directory size && \
	stage "benchmarks on the host" $(MAKE) --no-print-directory bench-host && \
	for v in $(VARIANTS); do \
		stage "benchmarks in a $$v guest" $(MAKE) --no-print-directory bench-guest VARIANT=$$v || exit 1; \
	done && \
	stage "instructions/op under icount: $(firstword $(VARIANTS)) vs $(lastword $(VARIANTS))" \
		$(MAKE) --no-print-directory compare-icount A=$(firstword $(VARIANTS)) B=$(lastword $(VARIANTS)) && \
	hb_accel=$${ACCEL:-$$(scripts/kvm-probe $(firstword $(VARIANTS)) | sed 's/^tcg$$/icount/')} && \
	stage "hackbench A/B ($$hb_accel)" env ACCEL=$$hb_accel $(MAKE) --no-print-directory hackbench && \
	stage "report" $(MAKE) --no-print-directory report readme && \
	echo "==> main job done in $$(( $$(date +%s) - t0 )) s; report: plots/report.txt"

help:
	@echo "make              the main job: build the variants ($(VARIANTS)) and run them"
	@echo "make test         build the test variants ($(TEST_VARIANTS)) and run every test"
	@echo "make kernels      build the kernel image of each variant in VARIANTS"
	@echo "make initramfs    build the guest initramfs (busybox + our static programs)"
	@echo "make bench-host   CPU-read and per-CPU benchmarks on the running kernel (nothing is loaded into it)"
	@echo "make bench-guest  the same in a guest: VARIANT=rseq-y (default) or any other"
	@echo "make bench-percpu-host / bench-percpu-guest   the per-CPU strategies alone"
	@echo "make hackbench    hackbench A/B in guests: rseq-n, rseq-y unregistered, rseq-y registered (N=5)"
	@echo "make report       plots/ and plots/report.txt from data/ alone"
	@echo "make readme       copy plots/report.md into README.md's results section"
	@echo "make size         text/data/bss of every built variant and the CONFIG_RSEQ deltas"
	@echo "make bench-icount VARIANT=v      the CPU-read bench as exact instructions/op (QEMU icount)"
	@echo "make compare-icount A=v1 B=v2    instructions/op of two variants side by side, with the difference"
	@echo "make boot-time    hyperfine: boot-run-exit time per variant, with the A/B verdict"
	@echo "make build-times  the recorded kernel build time of each variant into data/"
	@echo "make deps         install the Debian packages the lab needs (root)"
	@echo "make clean        remove builds and guest runs (keeps data/, plots/ and the unpacked tree)"
	@echo "make distclean    remove all of build/ (keeps data/ and plots/)"
	@echo "variables: KVER=$(KVER) VARIANTS='$(VARIANTS)' ACCEL=auto|kvm|tcg|icount CPUS=2 MEM=512M"
	@echo "variants:  $(ALL_VARIANTS)"

# Debian packages; the stamp is per package list so adding one reinstalls.
deps: $(BUILD)/.deps
$(BUILD)/.deps: scripts/install-deps
	scripts/install-deps
	@mkdir -p $(@D) && touch $@

source: $(SRC)/.lab-unpacked
$(SRC)/.lab-unpacked: | $(BUILD)/.deps
	scripts/kernel-source

# The kernel's own initramfs writer, built from the pristine tree.
tools: $(BUILD)/tools/gen_init_cpio
$(BUILD)/tools/gen_init_cpio: | $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $(SRC)/usr/gen_init_cpio.c

kernels: $(call IMAGES,$(VARIANTS))
$(BUILD)/images/%.bzImage: | $(SRC)/.lab-unpacked
	scripts/build-kernel $*

# Each variant's inputs, generated from its variant file.
$(BUILD)/deps/%.mk: kernel/variants/% scripts/variant-deps
	@mkdir -p $(@D)
	@scripts/variant-deps $* > $@
ifeq ($(filter help clean distclean,$(MAKECMDGOALS)),)
-include $(patsubst %,$(BUILD)/deps/%.mk,$(ALL_VARIANTS))
endif

guest-bins: $(GUEST_BINS)
$(BUILD)/guest/bin/%: bench/tests/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

initramfs: $(BUILD)/initramfs/lab.cpio
$(BUILD)/initramfs/lab.cpio: scripts/guest/init scripts/make-initramfs $(GUEST_BINS) $(BUILD)/tools/gen_init_cpio
	@mkdir -p $(@D)
	scripts/make-initramfs $@ $(GUEST_BINS)

# For now the main job boots each variant once and checks it is what was asked for.
boot-smoke: kernels initramfs
	@for v in $(VARIANTS); do \
		rel=$$(sed -n 's/^release: //p' $(BUILD)/images/$$v.info); \
		rseq=$$(grep -q '^CONFIG_RSEQ=y' $(BUILD)/images/$$v.config && echo yes || echo no); \
		echo ">> boot $$v: lab-check $$rel $${CPUS:-2} $$rseq"; \
		GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 scripts/boot $$v -- \
			lab-check $$rel $${CPUS:-2} $$rseq || exit 1; \
	done

test: deps $(call IMAGES,$(TEST_VARIANTS)) initramfs
	TEST_VARIANTS="$(TEST_VARIANTS)" prove -v scripts/tests/

clean:
	rm -rf $(BUILD)/kernel $(BUILD)/images $(BUILD)/guest $(BUILD)/host $(BUILD)/initramfs $(BUILD)/runs \
		$(BUILD)/deps $(BUILD)/logs $(BUILD)/tools $(BUILD)/kvm-probe $(BUILD)/src/*+*

distclean:
	rm -rf $(BUILD)
