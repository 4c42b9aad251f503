# SPDX-License-Identifier: MIT
# The shared C harness (options, timing, verification, results, statistics, metadata, vDSO
# lookup, PMU, icount, kernel counters, threads), the A/B statistics tool lab-ab (a host tool:
# hackbench, icount, boot-time and the report use it), and the harness's unit tests.
# Included by the top-level Makefile; every bench links LAB_LIB_SRCS into its static binary.

LAB_LIB_SRCS := lib/options.c lib/harness.c lib/exec.c lib/worker.c lib/stats.c lib/results.c \
		lib/icount.c lib/pmu.c lib/outfile.c lib/meta.c lib/vdso.c lib/kstats.c
# Recorded in each run's metadata.
BENCH_CFLAGS = $(GUEST_CFLAGS) -DLAB_CC='"$(CC)"' -DLAB_CFLAGS='"$(filter-out $(REPRO_CFLAGS),$(GUEST_CFLAGS))"'
# What the multi-threaded per-CPU benches (percpu, ringbuf, alloc) link beside LAB_LIB_SRCS.
LAB_MT_SRCS := lib/mt-bench.c lib/threads.c lib/disturb.c lib/results-cols.c

# rseq_bench NAME,VAR: a bench's static binary $(VAR_BIN) (lab-NAME, in every guest) from
# $(VAR_SRCS) and bench/NAME/NAME-rseq.c, the one file built against the kernel tree's selftests
# rseq helpers in place ($(VAR_ST): rseq.h, rseq-ARCH.h, and its rseq.c linked; nothing copied).
# Used as $(eval $(call rseq_bench,NAME,VAR)) after VAR_SRCS.
define rseq_bench
$(2)_BIN  := $$(BUILD)/guest/bin/lab-$(1)
$(2)_HDRS := $$(HEADERS) $$(wildcard bench/$(1)/*.h)
$(2)_ST   := $$(GUEST_SRC)/tools/testing/selftests/rseq
$(2)_OBJ  := $$(BUILD)/guest/obj/$(1)
# Only the files that need them see the kernel tree's include paths.
$(2)_ST_CFLAGS = $$(GUEST_CFLAGS) -I$$($(2)_ST) -I$$(GUEST_SRC)/tools/include
GUEST_BINS += $$($(2)_BIN)
bench-tests: $$($(2)_BIN)

$$($(2)_OBJ)/$(1)-rseq.o: bench/$(1)/$(1)-rseq.c $$($(2)_HDRS) bench/$(1)/bench.mk \
		| $$(GUEST_SRC)/.lab-unpacked
	@mkdir -p $$(@D)
	$$(CC) $$($(2)_ST_CFLAGS) -c -o $$@ $$<

$$($(2)_OBJ)/selftests-rseq.o: $$($(2)_ST)/rseq.c bench/$(1)/bench.mk | $$(GUEST_SRC)/.lab-unpacked
	@mkdir -p $$(@D)
	$$(CC) $$($(2)_ST_CFLAGS) -c -o $$@ $$<

$$($(2)_BIN): $$($(2)_SRCS) $$($(2)_OBJ)/$(1)-rseq.o $$($(2)_OBJ)/selftests-rseq.o \
		$$($(2)_HDRS) bench/$(1)/bench.mk
	@mkdir -p $$(@D)
	$$(CC) $$(BENCH_CFLAGS) -o $$@ $$($(2)_SRCS) $$($(2)_OBJ)/$(1)-rseq.o \
		$$($(2)_OBJ)/selftests-rseq.o -lpthread -ldl -lm
endef

# host_stages NAME,VAR,WHAT: a bench run by bench/NAME/run (scripts/bench-run) on the host
# alone: make NAME-host, NAME-report (its runs' report alone, from data/; plots/ untouched) and
# the main job's host stage; $(VAR_BIN) its program, $(VAR_ARGS) its options.
# run_stages NAME,VAR,WHAT: host_stages, and make NAME-guest (VARIANT) and the main job's stage
# in each variant's guest.
define host_stages
.PHONY: $(1)-host $(1)-report
$(1)-host: $$($(2)_BIN)
	bench/$(1)/run host $$($(2)_ARGS)
$(1)-report: $$(AB_BIN)
	@t=$$$$(mktemp -d) && RUNS="*-$(1)-*" PLOTS=$$$$t scripts/report 2>/dev/null; rc=$$$$?; rm -rf $$$$t; exit $$$$rc

$(2)_PARAMS := $$(call params,$(1),$$($(2)_ARGS) ACCEL=$$(ACCEL) CPUS=$$(CPUS) PIN=$$(PIN))
$$(STAMPS)/$(1)-host: $$($(2)_BIN) bench/$(1)/run scripts/bench-run scripts/bench-lib.sh $$($(2)_PARAMS)
	scripts/stage "$(3) on the host" bench/$(1)/run host $$($(2)_ARGS)
	@mkdir -p $$(@D) && touch $$@
MAIN_STAGES += $$(STAMPS)/$(1)-host
endef

define run_stages
$(call host_stages,$(1),$(2),$(3))
.PHONY: $(1)-guest
$(1)-guest: $$($(2)_BIN) $$(BUILD)/images/$$(VARIANT).bzImage $$(BUILD)/initramfs/lab.cpio
	bench/$(1)/run $$(VARIANT) $$($(2)_ARGS)
$$(STAMPS)/$(1)-guest-%: $$($(2)_BIN) $$(BUILD)/images/%.bzImage bench/$(1)/run scripts/bench-run scripts/bench-lib.sh \
		$$(BOOT_DEPS) $$($(2)_PARAMS) | $$(BUILD)/initramfs/lab.cpio
	scripts/stage "$(3) in a $$* guest" bench/$(1)/run $$* $$($(2)_ARGS)
	@mkdir -p $$(@D) && touch $$@
MAIN_STAGES += $$(patsubst %,$$(STAMPS)/$(1)-guest-%,$$(VARIANTS))
endef

AB_BIN  := $(BUILD)/host/bin/lab-ab
AB_SRCS := lib/lab-ab.c lib/ab.c lib/ab-paired.c lib/ab-input.c lib/stats.c

$(AB_BIN): $(AB_SRCS) $(HEADERS) lib/lab.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(AB_SRCS) -lm

# Unit tests (lib/tests/*.t run them): arithmetic and CSV rows, counted figures, A/B.
LIB_TESTS := $(BUILD)/host/tests/lab-ab-test $(BUILD)/host/tests/lab-ab-paired-test \
	     $(BUILD)/guest/tests/lab-stats-test $(BUILD)/guest/tests/lab-count-test
$(BUILD)/host/tests/lab-ab-test: lib/tests/ab-test.c lib/ab.c lib/stats.c $(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/host/tests/lab-ab-paired-test: lib/tests/ab-paired-test.c lib/ab-paired.c lib/ab.c \
		lib/stats.c $(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/guest/tests/lab-stats-test: lib/tests/stats-test.c lib/stats.c lib/results.c lib/kstats.c \
		$(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/guest/tests/lab-count-test: lib/tests/count-test.c lib/pmu.c lib/icount.c lib/results.c \
		lib/stats.c lib/kstats.c $(HEADERS) lib/lab.mk
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^) -lm

.PHONY: lib-tests
lib-tests: $(AB_BIN) $(LIB_TESTS)
test: lib-tests

.PHONY: report
# From data/ alone: nothing is rerun. DATA= and PLOTS= point elsewhere.
report: $(AB_BIN)
	scripts/report
