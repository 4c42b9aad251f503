# SPDX-License-Identifier: MIT
# The per-CPU memory-pool cache bench (lab-alloc, the seed's jemalloc row): one static binary
# for the host and the guests, its rseq cache built against the kernel tree's selftests rseq
# helpers in place ($(SRC)/tools/testing/selftests/rseq: rseq.h, rseq-x86.h, rseq.c), and its
# stages on the host and in each variant's guest, run by bench/alloc/run.

ALLOC_BIN  := $(BUILD)/guest/bin/lab-alloc
ALLOC_SRCS := bench/alloc/alloc.c bench/alloc/alloc-cache.c lib/threads.c lib/disturb.c lib/mt-bench.c \
		lib/results-cols.c lib/percentile.c $(LAB_LIB_SRCS)
ALLOC_HDRS := $(HEADERS) $(wildcard bench/alloc/*.h)
ALLOC_ST   := $(SRC)/tools/testing/selftests/rseq
ALLOC_OBJ  := $(BUILD)/guest/obj/alloc
# Only the files that need them see the kernel tree's include paths.
ALLOC_ST_CFLAGS = $(GUEST_CFLAGS) -I$(ALLOC_ST) -I$(SRC)/tools/include

GUEST_BINS += $(ALLOC_BIN)

$(ALLOC_OBJ)/alloc-rseq.o: bench/alloc/alloc-rseq.c $(ALLOC_HDRS) bench/alloc/bench.mk \
		| $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(ALLOC_ST_CFLAGS) -c -o $@ $<

$(ALLOC_OBJ)/selftests-rseq.o: $(ALLOC_ST)/rseq.c bench/alloc/bench.mk | $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(ALLOC_ST_CFLAGS) -c -o $@ $<

$(ALLOC_BIN): $(ALLOC_SRCS) $(ALLOC_OBJ)/alloc-rseq.o $(ALLOC_OBJ)/selftests-rseq.o \
		$(ALLOC_HDRS) bench/alloc/bench.mk
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(ALLOC_SRCS) $(ALLOC_OBJ)/alloc-rseq.o \
		$(ALLOC_OBJ)/selftests-rseq.o -lpthread -ldl -lm

.PHONY: alloc-host alloc-guest alloc-report
bench-tests: $(ALLOC_BIN)

# ALLOC_ARGS passes options to lab-alloc (e.g. ALLOC_ARGS="--reps 9 --threads 1,2 --burst 32").
alloc-host: $(ALLOC_BIN)
	bench/alloc/run host $(ALLOC_ARGS)
alloc-guest: $(ALLOC_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	bench/alloc/run $(VARIANT) $(ALLOC_ARGS)
# The report of its runs alone (its section: bench/alloc/report.py), from data/; plots/ untouched.
alloc-report: $(AB_BIN)
	@t=$$(mktemp -d) && RUNS="*-alloc-*" PLOTS=$$t scripts/report 2>/dev/null; rc=$$?; rm -rf $$t; exit $$rc

ALLOC_PARAMS := $(call params,alloc,$(ALLOC_ARGS) ACCEL=$(ACCEL) CPUS=$(CPUS))
$(STAMPS)/alloc-host: $(ALLOC_BIN) bench/alloc/run $(ALLOC_PARAMS)
	scripts/stage "per-CPU allocator caches on the host" bench/alloc/run host $(ALLOC_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/alloc-guest-%: $(ALLOC_BIN) $(BUILD)/images/%.bzImage bench/alloc/run \
		$(BOOT_DEPS) $(ALLOC_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "per-CPU allocator caches in a $* guest" bench/alloc/run $* $(ALLOC_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/alloc-host $(patsubst %,$(STAMPS)/alloc-guest-%,$(VARIANTS))

# The percentile arithmetic's unit test (bench/alloc/tests/alloc-percentile.t runs it).
ALLOC_PCT_TEST := $(BUILD)/host/tests/lab-percentile-test
$(ALLOC_PCT_TEST): bench/alloc/tests/percentile-test.c lib/percentile.c $(HEADERS) bench/alloc/bench.mk
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^) -lm
bench-tests: $(ALLOC_PCT_TEST)
