# SPDX-License-Identifier: MIT
# mm_cid and node_id (Linux 6.3's rseq fields): lab-mmcid, one static binary for the host and
# the guests (its own x86-64 critical sections, no kernel tree needed), its make targets and its
# main-job stages on the host and in each variant's guest, run by bench/mm-cid/run.

MMCID_BIN  := $(BUILD)/guest/bin/lab-mmcid
MMCID_SRCS := bench/mm-cid/mm-cid.c bench/mm-cid/mm-cid-area.c

GUEST_BINS += $(MMCID_BIN)

$(MMCID_BIN): $(MMCID_SRCS) $(wildcard bench/mm-cid/*.h) bench/mm-cid/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(MMCID_SRCS) -lpthread

.PHONY: mm-cid-host mm-cid-guest
bench-tests: $(MMCID_BIN)

# MMCID_ARGS passes options to lab-mmcid (e.g. MMCID_ARGS="--threads 1,4,16 --iters 500000");
# MMCID_CPUS="1 2" the affinity restrictions run besides the unrestricted one.
mm-cid-host: $(MMCID_BIN)
	bench/mm-cid/run host $(MMCID_ARGS)
mm-cid-guest: $(MMCID_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	bench/mm-cid/run $(VARIANT) $(MMCID_ARGS)

MMCID_PARAMS := $(call params,mm-cid,$(MMCID_ARGS) MMCID_CPUS=$(MMCID_CPUS) ACCEL=$(ACCEL) CPUS=$(CPUS))
$(STAMPS)/mm-cid-host: $(MMCID_BIN) bench/mm-cid/run $(MMCID_PARAMS)
	scripts/stage "mm_cid and node_id on the host" bench/mm-cid/run host $(MMCID_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/mm-cid-guest-%: $(MMCID_BIN) $(BUILD)/images/%.bzImage bench/mm-cid/run \
		$(BOOT_DEPS) $(MMCID_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "mm_cid and node_id in a $* guest" bench/mm-cid/run $* $(MMCID_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/mm-cid-host $(patsubst %,$(STAMPS)/mm-cid-guest-%,$(VARIANTS))
