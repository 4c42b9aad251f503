# SPDX-License-Identifier: MIT
# mm_cid and node_id (Linux 6.3's rseq fields): lab-mmcid, one static binary for the host and
# the guests (its own x86-64 critical sections on the lab's template, the harness's threads and
# clock; no kernel tree needed), its make targets and its
# main-job stages on the host and in each variant's guest (bench-run, through bench/mm-cid/run).

MMCID_BIN  := $(BUILD)/guest/bin/lab-mmcid
MMCID_SRCS := bench/mm-cid/mm-cid.c bench/mm-cid/mm-cid-area.c lib/threads.c $(LAB_LIB_SRCS)

GUEST_BINS += $(MMCID_BIN)

$(MMCID_BIN): $(MMCID_SRCS) $(wildcard bench/mm-cid/*.h) $(HEADERS) bench/mm-cid/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(MMCID_SRCS) -lpthread -lm
bench-tests: $(MMCID_BIN)

# MMCID_ARGS passes options to lab-mmcid (e.g. MMCID_ARGS="--threads 1,4,16 --restrict 1,2").
$(eval $(call run_stages,mm-cid,MMCID,mm_cid and node_id))
