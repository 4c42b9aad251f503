# SPDX-License-Identifier: MIT
# ARM guests beside the x86_64 ones (ARCH=arm64|arm; scripts/arch/ARCH says what each is):
# per architecture, its kernels (build/images/ARCH/VARIANT.IMG, built by ARCH=... build-kernel
# with the arch fragment merged last), its cross-built static programs (build/guest/ARCH/bin),
# Debian's busybox-static for it (build/arch-deps/ARCH) and its initramfs
# (build/initramfs/ARCH/lab.cpio). Included by the top Makefile after the bench.mk files, whose
# source lists it reuses. x86_64 stays where it was: nothing here touches its targets.
#
#   make arch-guests ARCHES="arm64 arm"    programs + initramfs
#   make arch-kernels ARCHES=arm64 ARM_VARIANTS="rseq-y rseq-n"
#   make test                              also builds TEST_ARCHES' ARM_TEST_VARIANTS
ARM_ARCHES := arm64 arm
include scripts/arch/hackbench.mk
# The main job's architectures (x86_64 is the lab itself); make test's ARM ones and variants.
ARCHES ?= x86_64
TEST_ARCHES ?= arm64 arm
ARM_VARIANTS ?= rseq-y rseq-n
ARM_TEST_VARIANTS ?= rseq-y rseq-stats
export TEST_ARCHES ARM_TEST_VARIANTS

# Each architecture's image name and cross prefix, read once (arm_images is expanded often).
$(foreach a,$(ARM_ARCHES),$(eval $(a)_ARCH_VARS := $(shell . scripts/arch/$(a) && echo "$$ARCH_IMG $$ARCH_CROSS")))
arch_get = $(word $(if $(filter ARCH_IMG,$(2)),1,2),$($(1)_ARCH_VARS))
ARM_PROGS := lab-check lab-cpuread lab-percpu rseq-probe rseq-abi rseq-cs rseq-syscall-cs \
	lab-nosys-rseq basic_test basic_percpu_ops_test param_test param_test_compare_twice rseq-suite \
	rseq-stats-check
arm_bins = $(patsubst %,$(BUILD)/guest/$(1)/bin/%,$(ARM_PROGS))
arm_images = $(patsubst %,$(BUILD)/images/$(1)/%.$(call arch_get,$(1),ARCH_IMG),$(2))

# arm_rules ARCH: the rules of one ARM architecture.
define arm_rules
$(1)_CC := $(call arch_get,$(1),ARCH_CROSS)gcc
$(1)_IMG := $(call arch_get,$(1),ARCH_IMG)
$(1)_BIN := $(BUILD)/guest/$(1)/bin
$(1)_OBJ := $(BUILD)/guest/$(1)/obj
$(1)_CFLAGS := $(CFLAGS) -Ilib/include -static $(REPRO_CFLAGS)
$(1)_ST_CFLAGS := -O2 -g -Wall -static $(REPRO_CFLAGS) -I$(RSEQ_ST) -I$(GUEST_SRC)/tools/include

# The toolchain first: one line naming the package when it is missing.
.PHONY: arch-cc-$(1)
arch-cc-$(1):
	@ARCH=$(1) scripts/arch/check-cc

$$($(1)_BIN)/lab-check: scripts/guest/lab-check.c $(HEADERS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$<
$$($(1)_BIN)/lab-cpuread: $(CPUREAD_SRCS) $(CPUREAD_HDRS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -DLAB_CC='"$$($(1)_CC)"' -DLAB_CFLAGS='"$$(filter-out $(REPRO_CFLAGS),$$($(1)_CFLAGS))"' \
		-o $$@ $(CPUREAD_SRCS) -lm
# The per-CPU rows (strategy files) against the tree's selftests helpers (rseq-arm64.h, rseq-arm.h).
$$($(1)_OBJ)/strategy-%.o: bench/percpu/strategies/%.c $(PERCPU_HDRS) | arch-cc-$(1) $(GUEST_SRC)/.lab-unpacked
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -D_GNU_SOURCE $(PERCPU_INC) -I$(PERCPU_ST) -I$(GUEST_SRC)/tools/include \
		-DLAB_STRATEGY_SYM=$$(call percpu_sym,$$*) -c -o $$@ $$<
$$($(1)_OBJ)/selftests-rseq.o: $(PERCPU_ST)/rseq.c | arch-cc-$(1) $(GUEST_SRC)/.lab-unpacked
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -I$(PERCPU_ST) -I$(GUEST_SRC)/tools/include -c -o $$@ $$<
$$($(1)_BIN)/lab-percpu: $(PERCPU_SRCS) $(PERCPU_HDRS) $(PERCPU_OBJ)/table.c \
		$(PERCPU_STRATEGIES:%=$$($(1)_OBJ)/strategy-%.o) $$($(1)_OBJ)/selftests-rseq.o
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) $(PERCPU_INC) -DLAB_CC='"$$($(1)_CC)"' -DLAB_CFLAGS='"$$(filter-out $(REPRO_CFLAGS),$$($(1)_CFLAGS))"' \
		-o $$@ $(PERCPU_SRCS) $(PERCPU_OBJ)/table.c \
		$(PERCPU_STRATEGIES:%=$$($(1)_OBJ)/strategy-%.o) $$($(1)_OBJ)/selftests-rseq.o \
		-lpthread -ldl -lm
# Our ABI tests; rseq-cs and rseq-syscall-cs through lab/rseq-cs.h's per-arch critical sections.
$$($(1)_BIN)/rseq-probe $$($(1)_BIN)/rseq-abi $$($(1)_BIN)/rseq-cs $$($(1)_BIN)/rseq-syscall-cs: \
		$$($(1)_BIN)/%: bench/rseq-suite/%.c $(HEADERS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$< -lpthread
# The rseq event counters' check (bench/rseq-stats): exit must be counted here too.
$$($(1)_BIN)/rseq-stats-check: bench/rseq-stats/rseq-stats-check.c $(HEADERS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$< -lpthread
$$($(1)_BIN)/lab-nosys-rseq: $(NOSYS_SRCS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$<
$$($(1)_BIN)/basic_test $$($(1)_BIN)/basic_percpu_ops_test $$($(1)_BIN)/param_test: \
		$$($(1)_BIN)/%: $(RSEQ_ST)/%.c $(RSEQ_ST_DEPS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_ST_CFLAGS) -o $$@ $$< $(RSEQ_ST_LINK)
$$($(1)_BIN)/param_test_compare_twice: $(RSEQ_ST)/param_test.c $(RSEQ_ST_DEPS) | arch-cc-$(1)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_ST_CFLAGS) -DRSEQ_COMPARE_TWICE -o $$@ $$< $(RSEQ_ST_LINK)
$$($(1)_BIN)/rseq-suite: bench/rseq-suite/guest-run
	@mkdir -p $$(@D)
	cp $$< $$@
	chmod 755 $$@

$(BUILD)/arch-deps/$(1)/bin/busybox: scripts/arch/fetch-busybox scripts/arch/fetch-deb
	scripts/arch/fetch-busybox $(1)
# ARM_EXTRA_BINS_ARCH: what the axis adds to the ARCH guest (hackbench.mk).
$(BUILD)/initramfs/$(1)/lab.cpio: scripts/guest/init scripts/make-initramfs $(call arm_bins,$(1)) \
		$(ARM_EXTRA_BINS_$(1)) $(BUILD)/arch-deps/$(1)/bin/busybox $(BUILD)/tools/gen_init_cpio
	@mkdir -p $$(@D)
	ARCH=$(1) scripts/make-initramfs $$@ $(call arm_bins,$(1)) $(ARM_EXTRA_BINS_$(1))

# Kernels: the same variants and identities as x86_64's, the arch in the identity.
# One order-only list: $(IMAGE_SRC_DEP) is "| the unpacked tree" (or nothing with KSRC), and a
# second "|" would make the rule unusable, so a fresh tree would never build the image.
$(BUILD)/images/$(1)/%.$$($(1)_IMG): kernel/fragments/arch-$(1).config \
		$(if $(IMAGE_SRC_DEP),$(IMAGE_SRC_DEP),|) arch-cc-$(1)
	ARCH=$(1) scripts/build-kernel $$*

.PHONY: arch-guest-$(1) arch-kernels-$(1)
arch-guest-$(1): $(BUILD)/initramfs/$(1)/lab.cpio
arch-kernels-$(1): $(call arm_images,$(1),$(ARM_VARIANTS))

# scripts/arch/run: CPU reads and per-CPU rows under icount in the rseq-y guest.
$(STAMPS)/arch-bench-$(1): $(call arm_images,$(1),rseq-y) $(BUILD)/initramfs/$(1)/lab.cpio \
		scripts/arch/run $(BOOT_DEPS)
	scripts/stage "CPU reads and per-CPU rows in a $(1) guest (icount)" scripts/arch/run $(1) rseq-y
	@mkdir -p $$(@D) && touch $$@
endef
$(foreach a,$(ARM_ARCHES),$(eval $(call arm_rules,$(a))))

# Each ARM image depends on its identity (as x86_64's do), for the variants make may build.
ifneq ($(KERNEL_IDS_WANTED),)
ARM_ID_VARIANTS := $(sort $(ARM_VARIANTS) $(ARM_TEST_VARIANTS))
ARM_KERNEL_IDS := $(shell $(ID_ENV) LAB_SRC_ID='$(LAB_SRC_ID)' scripts/kernel-identity --ids \
	$(foreach a,$(ARM_ARCHES),$(addprefix $(a):,$(ARM_ID_VARIANTS))))
$(foreach a,$(ARM_ARCHES),$(foreach v,$(ARM_ID_VARIANTS),$(eval \
	$(call arm_images,$(a),$(v)): $(call params,kernel-$(a)-$(v),$(patsubst $(a):$(v)=%,%,\
		$(filter $(a):$(v)=%,$(ARM_KERNEL_IDS)))))))
endif

$(STAMPS)/arch-bench-x86_64: $(BUILD)/images/rseq-y.bzImage $(BUILD)/initramfs/lab.cpio \
		scripts/arch/run $(BOOT_DEPS)
	scripts/stage "CPU reads and per-CPU rows in an x86_64 guest (icount)" scripts/arch/run x86_64 rseq-y
	@mkdir -p $(@D) && touch $@

ARM_SELECTED := $(filter $(ARM_ARCHES),$(ARCHES))
# bench.mk files' rules for each ARM architecture that need its kernels' paths (arm_images):
# ARM_HOOKS names templates of ARCH (hackbench's make hackbench-ARCH and main-job stage).
$(foreach a,$(ARM_ARCHES),$(foreach h,$(ARM_HOOKS),$(eval $(call $(h),$(a)))))
# The main job: with ARM in ARCHES, each architecture's icount run (x86_64's too, to compare)
# comes before the report.
ARCH_STAGES := $(if $(ARM_SELECTED),$(patsubst %,$(STAMPS)/arch-bench-%,x86_64 $(ARM_SELECTED)))
$(PLOTS)/report.txt: $(ARCH_STAGES)
.PHONY: arch-bench
arch-bench: $(patsubst %,$(STAMPS)/arch-bench-%,$(ARCHES))
.PHONY: arch-guests arch-kernels arch-test-prereqs
arch-guests: $(patsubst %,arch-guest-%,$(ARM_SELECTED))
arch-kernels: $(patsubst %,arch-kernels-%,$(ARM_SELECTED))
# make test: each TEST_ARCHES architecture's test variants and its initramfs.
ARM_TEST_SELECTED := $(filter $(ARM_ARCHES),$(TEST_ARCHES))
arch-test-prereqs: $(patsubst %,arch-guest-%,$(ARM_TEST_SELECTED)) \
	$(foreach a,$(ARM_TEST_SELECTED),$(call arm_images,$(a),$(ARM_TEST_VARIANTS)))
test: arch-test-prereqs
test-packages: $(foreach a,$(ARM_TEST_SELECTED),$(BUILD)/arch-deps/$(a)/bin/busybox \
	$(BUILD)/arch-deps/$(a)/rt-tests/version $(BUILD)/arch-deps/$(a)/libc6/version)
