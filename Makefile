# SPDX-License-Identifier: MIT
# The rseq/getcpu benchmark lab. `make help` lists the targets and every knob.
# Layout: scripts/ is the pipeline (kernel, initramfs, boot, run directories, report), lib/ the
# shared C harness, bench/<name>/ one folder per benchmark with its own bench.mk and meta.
# Every stage of the main job is a file target (a stamp under build/stamps/) whose inputs are
# files: a stage reruns only when its binaries, kernels, scripts or parameters changed.

.DEFAULT_GOAL := all
# A failed recipe leaves no half-written target; benchmarks never run side by side.
.DELETE_ON_ERROR:
.NOTPARALLEL:

KVER      ?= 6.1
# The first variant is the base of every comparison.
VARIANTS  ?= rseq-n rseq-y
# Variants make test builds and boots, in this order: rseq-n from scratch (the image
# regen-reference.t regenerates), then each from the nearest one built before. The rseq
# suite runs in each; TEST_ONE_VARIANTS are built after them for one test each.
TEST_VARIANTS ?= rseq-n rseq-y rseq-debug rseq-stats rseq-y-jl turner-2015
TEST_ONE_VARIANTS ?= rseq-stats-kvm
CC        ?= gcc
CFLAGS    ?= -O2 -g -Wall -Wextra
LAB_CFLAGS = $(CFLAGS) -Ilib/include
# Guest programs carry no path of this clone (debug info, __FILE__), so every clone builds the
# same bytes; the flags a run records leave the map out.
REPRO_CFLAGS := -ffile-prefix-map=$(CURDIR)=.
GUEST_CFLAGS = $(LAB_CFLAGS) -static $(REPRO_CFLAGS)
BUILD     := $(abspath build)
DATA      ?= $(abspath data)
PLOTS     ?= $(abspath plots)
export KVER BUILD DATA PLOTS
# What to rerun after a failure a rerun can cure (scripts/packages names it).
export LAB_MAKE_GOALS := $(MAKECMDGOALS)

SRC       := $(BUILD)/src/linux-$(KVER)
# The guest programs build against the selftests rseq helpers of linux-6.1 whatever KVER the
# kernels are: those helpers' arguments changed in 6.3, and the programs are static binaries of
# one rseq ABI, so one set serves every kernel (6.1, 6.12, make modern's).
GUEST_KVER := 6.1
GUEST_SRC := $(BUILD)/src/linux-$(GUEST_KVER)
STAMPS    := $(BUILD)/stamps
ALL_VARIANTS := $(notdir $(wildcard kernel/variants/*))
IMAGES     = $(patsubst %,$(BUILD)/images/%.bzImage,$(1))
HEADERS   := $(wildcard lib/include/lab/*.h)
# What every guest boot runs through: the boot script, the guest's init, the initramfs writer.
BOOT_DEPS := scripts/boot scripts/guest/init scripts/lib.sh
# Nothing compiles before the packages are installed (make -j on a fresh machine).
DEPS_DONE := $(BUILD)/.deps

# params NAME,VALUE: a file named for VALUE, made once: a stage that lists it reruns when one
# of its parameters changed, and a make run with other knobs (make compare ACCEL=icount, a
# test) never touches the file of the values the main job ran with. A short VALUE of plain
# characters names its file itself (@20 a space, @2C a comma, @2F a slash, @40 an @), made by
# make alone: make parses this file for every goal and the tests run make often, and a shell
# and md5sum for each of a dozen stages were half of a parse. Any other VALUE: its hash.
params = $(if $(call params_plain,$(2)),$(call params_file,$(1)-$(call params_enc,$(2)),$(2)),$(shell \
	{ [ -d $(BUILD)/params ] || mkdir -p $(BUILD)/params; } && \
	set -- $$(printf '%s' '$(2)' | md5sum) && f=$(BUILD)/params/$(1)-@md5-$${1%????????????????????} && \
	{ [ -f $$f ] || printf '%s\n' '$(2)' > $$f; } && echo $$f))
params_chars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N \
	O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9 . = + - _ @
params_comma := ,
params_space := $(params_comma:,=) $(params_comma:,=)
params_enc = $(subst $(params_comma),@2C,$(subst /,@2F,$(subst $(params_space),@20,$(subst @,@40,$(1)))))
# params_plain VALUE: non-empty when VALUE encodes to at most 120 plain characters: spaced
# out, each plain character is a word of its own, anything else is left in a word of others.
params_plain = $(call params_plain_words,$(call params_spaced,$(call params_enc,$(1))))
params_plain_words = $(if $(filter-out $(params_chars),$(1)),,$(if $(word 121,$(1)),,plain))
params_spaced = $(eval _p := $(1))$(foreach c,$(params_chars),$(eval _p := $$(subst $(c), $(c) ,$$(_p))))$(_p)
# params_file FILE,VALUE: $(BUILD)/params/FILE, written with VALUE when it is not there yet.
params_file = $(if $(wildcard $(BUILD)/params/.),,$(shell mkdir -p $(BUILD)/params))$(if $(wildcard \
	$(BUILD)/params/$(1)),,$(file >$(BUILD)/params/$(1),$(2)))$(BUILD)/params/$(1)

# Static programs that go into every guest; each bench.mk adds its own, its stages and tests.
GUEST_BINS := $(BUILD)/guest/bin/lab-check
MAIN_STAGES :=
TEST_DIRS := scripts/tests lib/tests
include lib/lab.mk
include fuzz/fuzz.mk
include $(sort $(wildcard bench/*/bench.mk))
include scripts/kver/kver.mk
-include lava/lava.mk
TEST_DIRS += $(wildcard bench/*/tests lava/tests) scripts/arch/tests scripts/kver/tests fuzz/tests

.PHONY: all help deps source tools kernels initramfs guest-bins boot-smoke test clean distclean readme FORCE
FORCE:

# The main job: every stage the bench.mk files put in MAIN_STAGES, then the report.
all: $(PLOTS)/report.txt
	@echo "==> main job up to date; report: $(PLOTS)/report.txt"

help:
	@scripts/help

# Debian packages; the stamp is remade when the package list changes.
deps: $(DEPS_DONE)
$(DEPS_DONE): scripts/install-deps
	scripts/install-deps
	@mkdir -p $(@D) && touch $@

# make test's package work, done before anything is built so that a mirror's fault costs
# seconds, not the hours of builds before it: Debian's packages (the LAVA server's group too,
# for its test), the kernel source, and (scripts/arch/arch.mk) what the ARM guests fetch.
.PHONY: test-packages
test-packages: $(DEPS_DONE) $(BUILD)/.deps-lava $(SRC)/.lab-unpacked
$(BUILD)/.deps-lava: scripts/install-deps | $(DEPS_DONE)
	scripts/install-deps lava
	@touch $@

source: $(SRC)/.lab-unpacked
$(SRC)/.lab-unpacked: | $(DEPS_DONE)
	scripts/kernel-source
ifneq ($(GUEST_SRC),$(SRC))
$(GUEST_SRC)/.lab-unpacked: | $(DEPS_DONE)
	KVER=$(GUEST_KVER) scripts/kernel-source
endif

# The kernel's own initramfs writer, built from the pristine tree.
tools: $(BUILD)/tools/gen_init_cpio
$(BUILD)/tools/gen_init_cpio: | $(GUEST_SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $(GUEST_SRC)/usr/gen_init_cpio.c

# Kernels come from Debian's linux-source-$(KVER), or KSRC=DIR (any kernel tree; KREV=REV: a
# commit of it), on CONFIG (tinyconfig, defconfig or a .config path). Each variant's identity
# (scripts/kernel-identity) is a params file: when KVER, KSRC, KREV, CONFIG, the pristine tree,
# a fragment or a patch changes it, the image is out of date; scripts/build-kernel then builds
# it, or selects it again from the store (scripts/lib.sh's STORE, shared by every clone on
# this machine) when that identity was built before.
# Relative KSRC and CONFIG paths are the user's, from where make was called (make -C LAB).
user_path = $(if $(filter /%,$(1)),$(1),$(if $(1),$(or $(PWD),$(CURDIR))/$(1)))
override KSRC := $(call user_path,$(KSRC))
override CONFIG := $(if $(filter tinyconfig defconfig,$(CONFIG)),$(CONFIG),$(call user_path,$(CONFIG)))
# PATCH (make compare's format-patch file) is the user's too.
override PATCH := $(call user_path,$(PATCH))
export KSRC KREV CONFIG PATCH
kernels: $(call IMAGES,$(VARIANTS))
IMAGE_SRC_DEP := $(if $(KSRC),,| $(SRC)/.lab-unpacked)
$(BUILD)/images/%.bzImage: $(IMAGE_SRC_DEP)
	scripts/build-kernel $*

# Each variant's inputs, generated from its variant file; the .mk names its own inputs (the
# series file among them), so a patch added to a series later remakes it. One per KVER: a
# series may have a port for it (kernel/patches/NAME-KVER, lib.sh's series_dir).
$(BUILD)/deps/$(KVER)/%.mk: kernel/variants/% scripts/variant-deps
	@mkdir -p $(@D)
	@scripts/variant-deps $* > $@
# Not for help, clean, or compare alone (it selects its kernels under names of its own).
# KERNEL_IDS_WANTED: empty for those goals (arch.mk asks it too).
KERNEL_IDS_WANTED := $(if $(filter help clean distclean,$(MAKECMDGOALS))$(if $(MAKECMDGOALS),$(if $(filter-out compare compare-check compare-prereqs compare-figures,$(MAKECMDGOALS)),,x)),,yes)
ifneq ($(KERNEL_IDS_WANTED),)
-include $(patsubst %,$(BUILD)/deps/$(KVER)/%.mk,$(ALL_VARIANTS))
# The source's identity once per make run (a bad KSRC or KREV stops here, in one line).
# $(shell) sees neither exported nor command-line variables (make 4.3): they are passed.
ID_ENV = KVER='$(KVER)' BUILD='$(BUILD)' KSRC='$(KSRC)' KREV='$(KREV)' CONFIG='$(CONFIG)'
LAB_SRC_ID := $(shell $(ID_ENV) scripts/kernel-identity --source)
ifeq ($(LAB_SRC_ID),)
$(error the kernel source (KSRC='$(KSRC)' KREV='$(KREV)') has no identity; see the line above)
endif
# Every variant's identity from one process ("VARIANT=ID" words): make parses the Makefile for
# every goal, and the tests run make often.
KERNEL_IDS := $(shell $(ID_ENV) LAB_SRC_ID='$(LAB_SRC_ID)' scripts/kernel-identity --ids $(ALL_VARIANTS))
KERNEL_ID = $(patsubst $(1)=%,%,$(filter $(1)=%,$(KERNEL_IDS)))
# An image whose .info names another identity than the one asked for is remade: build-kernel
# builds it, or selects it again from the store (after KVER=6.12 and back, say). No params
# file: a fresh clone's first make computes its identities before the tree is unpacked, and a
# file made later would be newer than the images and reselect them (rerunning every stage).
SELECTED_ID = $(call info_id,$(wildcard $(BUILD)/images/$(1).info))
# info_id FILE: the word after "identity:" in a .info file, read by make itself.
info_id = $(if $(1),$(patsubst identity:=%,%,$(firstword $(filter identity:=%,\
	$(subst identity: ,identity:=,$(file <$(1)))))))
image_deps = $(if $(filter-out $(firstword $(2)),$(call SELECTED_ID,$(1))),FORCE)
$(foreach v,$(ALL_VARIANTS),$(eval $(BUILD)/images/$(v).bzImage: $(call image_deps,$(v),$(call KERNEL_ID,$(v)))))
endif

guest-bins: $(GUEST_BINS)
$(BUILD)/guest/bin/lab-check: scripts/guest/lab-check.c $(HEADERS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

initramfs: $(BUILD)/initramfs/lab.cpio
$(BUILD)/initramfs/lab.cpio: scripts/guest/init scripts/make-initramfs $(GUEST_BINS) \
		$(BUILD)/tools/gen_init_cpio
	@mkdir -p $(@D)
	scripts/make-initramfs $@ $(GUEST_BINS)

# Each variant boots once and is checked to be what was asked for.
boot-smoke: $(patsubst %,$(STAMPS)/boot-smoke-%,$(VARIANTS))
$(STAMPS)/boot-smoke-%: $(BUILD)/images/%.bzImage $(BUILD)/guest/bin/lab-check $(BOOT_DEPS) \
		| $(BUILD)/initramfs/lab.cpio
	scripts/stage "boot check of $*" scripts/boot-smoke $*
	@mkdir -p $(@D) && touch $@
MAIN_STAGES := $(patsubst %,$(STAMPS)/boot-smoke-%,$(VARIANTS)) $(MAIN_STAGES)

# Two tiers. make check: every test file, nothing that needs a kernel (those skip): the host
# programs, the guest programs (built against the unpacked source, no kernel built) and the
# initramfs. make test: make check, then the kernels, then the guest pass: the files that call
# require_image or guest_tier (scripts/tests/tap.sh; a wrapper names the one it runs in a
# comment), where a missing image fails.
# make check runs one file more than there are CPUs (prove -j): several files mostly wait
# (locks.t, tap-bounded.t, kernel-store.t: locks, bounds, progress lines), and forks, which
# are most of the others' work, do not go twice as fast on two CPUs (2 CPUs: 161 s with -j3,
# 190 s with -j2). The longest first (alone, 2 CPUs: 6-13 s each for those listed, the rest
# under 5) so that no long one is left running alone at the end.
TESTS_FIRST := scripts/tests/kernel-store.t bench/percpu/tests/interleave.t bench/percpu/tests/explore.t scripts/tests/compare-known-answers.t scripts/tests/compare-check.t \
	scripts/tests/locks.t scripts/tests/install-deps.t bench/percpu/tests/strategy.t scripts/tests/compare-bisect.t \
	bench/percpu/tests/strategy-refuse.t scripts/tests/tap-bounded.t bench/cpu-read/tests/cpu-read-run.t \
	fuzz/tests/fuzz-replay.t scripts/tests/statuses.t bench/cpu-read/tests/cpu-read-interrupt.t \
	bench/percpu/tests/strategy-compare.t lava/tests/lava-merge-status.t bench/rseq-stats/tests/percpu-collect.t \
	lib/tests/lib-ab-properties.t bench/alloc/tests/alloc-check.t scripts/tests/packages.t \
	scripts/tests/main-job-stages.t bench/rseq-stats/tests/rseq-stats-check-exit.t \
	bench/turner-2015/tests/turner-2015.t lava/tests/lava-merge.t scripts/tests/boot-crash-replay.t \
	scripts/kver/tests/modern-make.t
TESTS_ALL = $(sort $(wildcard $(addsuffix /*.t,$(TEST_DIRS))))
TESTS = $(filter $(TESTS_ALL),$(TESTS_FIRST)) $(filter-out $(TESTS_FIRST),$(TESTS_ALL))
GUEST_TESTS = $(shell grep -lE 'require_image|guest_tier' $(TESTS_ALL))
# The tests start python3 thousands of times: through a version manager's shim (pyenv's is a
# bash script, ~0.4 s of CPU a start) or an interpreter whose site-packages run import hooks at
# every start, they would pay that each time. They find first on their PATH a link to Debian's
# python3 (install-deps installs it; lava-server's modules are there too), else to the
# interpreter the PATH's python3 resolves to.
TEST_BIN := $(BUILD)/tests/bin
TEST_ENV = PATH="$(TEST_BIN):$$PATH" TEST_VARIANTS="$(TEST_VARIANTS)"
test_python = mkdir -p $(TEST_BIN) && ln -sfn "$$(if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; \
	else python3 -c 'import sys; print(sys.executable)'; fi)" $(TEST_BIN)/python3
.PHONY: check check-prereqs check-list
check-list:
	@echo $(TESTS)
check-prereqs: $(DEPS_DONE) lib-tests bench-tests guest-bins initramfs
check: check-prereqs
	@$(test_python)
	LAB_TEST_TIER=check $(TEST_ENV) prove -v --timer -j$$(($$(nproc) + 1)) $(TESTS)
# The guest tier, one file per CPU, the longest first (a TCG or icount guest keeps one host
# CPU busy; icount figures do not depend on the host's load). Run alone at the end: the files
# whose bounds are host seconds (a panic seen within 60 s, SIGINT obeyed within 5 s, the KVM
# probe's timeout, pinning). The LAVA files one after another (one local LAVA instance).
GUEST_FIRST := bench/rseq-suite/tests/rseq-suite.t scripts/tests/compare-known-answer.t bench/alloc/tests/alloc-guest.t scripts/tests/boot.t \
	scripts/tests/regen-reference.t bench/hackbench/tests/hackbench-exact.t
GUEST_ALONE := scripts/tests/boot-failures.t scripts/tests/boot-interrupt.t \
	scripts/tests/boot-pin.t scripts/tests/kvm-probe.t
GUEST_ORDER = $(filter $(GUEST_TESTS),$(GUEST_FIRST)) $(filter-out $(GUEST_FIRST),$(GUEST_TESTS))
# prove starts the files in the order of its rules; those no rule names run last, one by one.
GUEST_RULES = --rules='seq=lava/tests/*.t' \
	$(patsubst %,--rules='par=%',$(filter-out $(GUEST_ALONE) lava/tests/%,$(GUEST_ORDER)))
test: test-packages check $(call IMAGES,$(TEST_VARIANTS) $(TEST_ONE_VARIANTS)) initramfs
	@$(test_python)
	LAB_TEST_TIER=guest $(TEST_ENV) prove -v --timer -j$$(nproc) $(GUEST_RULES) $(GUEST_ORDER)

# The README's results section from plots/report.md: a maintainer's step, not the main job's.
readme: $(PLOTS)/report.txt
	scripts/readme-results

clean:
	rm -rf $(BUILD)/kernel $(BUILD)/images $(BUILD)/guest $(BUILD)/host $(BUILD)/initramfs \
		$(BUILD)/runs $(BUILD)/deps $(BUILD)/logs $(BUILD)/tools $(BUILD)/kvm-probe \
		$(BUILD)/stamps $(BUILD)/params $(BUILD)/store $(BUILD)/src/*+*

distclean:
	rm -rf $(BUILD)

# The report after every stage: the cheap checks first, hackbench (the longest) last.
MAIN_FIRST := $(filter $(STAMPS)/boot-smoke-% $(STAMPS)/size,$(MAIN_STAGES))
MAIN_LAST  := $(filter $(STAMPS)/hackbench,$(MAIN_STAGES))
MAIN_ORDER := $(MAIN_FIRST) $(filter-out $(MAIN_FIRST) $(MAIN_LAST),$(MAIN_STAGES)) $(MAIN_LAST)
$(PLOTS)/report.txt: $(MAIN_ORDER) scripts/report $(wildcard scripts/*.py scripts/labreport/*.py bench/*/report.py lava/report.py) \
		$(AB_BIN)
	scripts/stage "report from data/" scripts/report

# Regenerate a committed icount run on this clone, figure by figure: RUN=data/<run>
# (scripts/regen: exit 3 when this clone's image or initramfs differs from what it booted).
.PHONY: regen
regen: kernels initramfs
	@test -n "$(RUN)" || { echo "error: make regen needs RUN=data/<run> (an icount run)" >&2; exit 2; }
	scripts/regen $(RUN)

# The mutation runner, on demand (never in CI): each of scripts/mutations applied to a clone
# of HEAD, its tests run; the score per area into data/. MUTATE=ID... runs only those.
.PHONY: mutate
mutate: check-prereqs
	scripts/mutate $(MUTATE)

# The coverage of lab-ab's intervals, by simulation from known distributions (SIMS per design).
.PHONY: coverage
coverage: $(AB_BIN)
	scripts/coverage-sim --sims $(or $(SIMS),1000)

# The lab's own A/A calibration (scripts/aa): every design with the same kernel or binary on
# both sides, the fraction of figures it flags, into data/. AA_DESIGNS picks designs.
.PHONY: aa
aa: check-prereqs $(call IMAGES,rseq-y)
	scripts/aa $(AA_DESIGNS)

# Rerun survival: the ctxsw bench again with fresh seeds (SEED0, 1000 unless given), then
# each figure's interval against the newest earlier run's (scripts/survival).
.PHONY: survival
survival: check-prereqs $(call IMAGES,$(VARIANTS))
	DATA=$(DATA) scripts/survival-rerun $(VARIANTS)

# Probe KVM again (scripts/kvm-probe caches its answer, with the reason, in build/kvm-probe).
.PHONY: kvm-probe-refresh
kvm-probe-refresh:
	KVM_PROBE_REFRESH=1 scripts/kvm-probe $(VARIANT)
	@cat $(BUILD)/kvm-probe 2>/dev/null || true

# A/B numbers for a kernel change, mail-ready: BASE=REV TEST=REV [KSRC=DIR] [VARIANT=rseq-y]
# [BENCH=cpu-read,percpu,hackbench,size] [ROUNDS=3] [CONFIG=...] [FAIL_ABOVE=FIGURE:PCT,...].
# See README.md, "Numbers for your patch". make exits 2 on any failure; git bisect run calls
# scripts/compare itself (0 good, 1 bad, 125 skip, 128 no verdict). compare-check comes first
# (make runs prerequisites in order, one at a time): bad input stops before any build.
.PHONY: compare compare-check compare-prereqs compare-figures
compare-check:
	@scripts/compare-check
# The figures of the benches BENCH names (every bench make compare runs, without BENCH): the
# names FAIL_ABOVE takes, glibc states and within-kernel contrasts included.
comma := ,
compare-figures:
	@scripts/compare-check --figures $(subst $(comma), ,$(BENCH))
compare-prereqs: compare-check $(AB_BIN) $(GUEST_BINS) $(BUILD)/initramfs/lab.cpio $(BUILD)/tools/gen_init_cpio
compare: compare-check compare-prereqs
	LAB_FROM_MAKE=1 scripts/compare

# ARM guests (ARCH=arm64|arm): their kernels, cross-built programs and initramfs, and make
# test's TEST_ARCHES; everything per architecture is in scripts/arch/.
include scripts/arch/arch.mk
