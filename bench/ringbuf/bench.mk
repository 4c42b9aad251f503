# SPDX-License-Identifier: MIT
# The per-CPU ring buffer bench (lab-ringbuf, the seed's LTTng-UST row): one static binary for
# the host and the guests, its rseq writer built against the kernel tree's selftests rseq
# helpers in place ($(SRC)/tools/testing/selftests/rseq: rseq.h, rseq-x86.h, rseq.c), and its
# stages on the host and in each variant's guest, run by bench/ringbuf/run.

RINGBUF_BIN  := $(BUILD)/guest/bin/lab-ringbuf
RINGBUF_SRCS := bench/ringbuf/ringbuf.c bench/ringbuf/ringbuf-buf.c lib/threads.c lib/disturb.c lib/mt-bench.c \
		lib/results-cols.c $(LAB_LIB_SRCS)
RINGBUF_HDRS := $(HEADERS) $(wildcard bench/ringbuf/*.h)
RINGBUF_ST   := $(SRC)/tools/testing/selftests/rseq
RINGBUF_OBJ  := $(BUILD)/guest/obj/ringbuf
# Only the files that need them see the kernel tree's include paths.
RINGBUF_ST_CFLAGS = $(GUEST_CFLAGS) -I$(RINGBUF_ST) -I$(SRC)/tools/include

GUEST_BINS += $(RINGBUF_BIN)

$(RINGBUF_OBJ)/ringbuf-rseq.o: bench/ringbuf/ringbuf-rseq.c $(RINGBUF_HDRS) bench/ringbuf/bench.mk \
		| $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(RINGBUF_ST_CFLAGS) -c -o $@ $<

$(RINGBUF_OBJ)/selftests-rseq.o: $(RINGBUF_ST)/rseq.c bench/ringbuf/bench.mk | $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(RINGBUF_ST_CFLAGS) -c -o $@ $<

$(RINGBUF_BIN): $(RINGBUF_SRCS) $(RINGBUF_OBJ)/ringbuf-rseq.o $(RINGBUF_OBJ)/selftests-rseq.o \
		$(RINGBUF_HDRS) bench/ringbuf/bench.mk
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(RINGBUF_SRCS) $(RINGBUF_OBJ)/ringbuf-rseq.o \
		$(RINGBUF_OBJ)/selftests-rseq.o -lpthread -ldl -lm

.PHONY: ringbuf-host ringbuf-guest ringbuf-report
bench-tests: $(RINGBUF_BIN)

# RINGBUF_ARGS passes options to lab-ringbuf (e.g. RINGBUF_ARGS="--reps 9 --threads 1,2").
ringbuf-host: $(RINGBUF_BIN)
	bench/ringbuf/run host $(RINGBUF_ARGS)
ringbuf-guest: $(RINGBUF_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	bench/ringbuf/run $(VARIANT) $(RINGBUF_ARGS)
# The report of its runs alone (its section: bench/ringbuf/report.py), from data/; plots/ untouched.
ringbuf-report: $(AB_BIN)
	@t=$$(mktemp -d) && RUNS="*-ringbuf-*" PLOTS=$$t scripts/report 2>/dev/null; rc=$$?; rm -rf $$t; exit $$rc

RINGBUF_PARAMS := $(call params,ringbuf,$(RINGBUF_ARGS) ACCEL=$(ACCEL) CPUS=$(CPUS))
$(STAMPS)/ringbuf-host: $(RINGBUF_BIN) bench/ringbuf/run $(RINGBUF_PARAMS)
	scripts/stage "per-CPU ring buffer on the host" bench/ringbuf/run host $(RINGBUF_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/ringbuf-guest-%: $(RINGBUF_BIN) $(BUILD)/images/%.bzImage bench/ringbuf/run \
		$(BOOT_DEPS) $(RINGBUF_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "per-CPU ring buffer in a $* guest" bench/ringbuf/run $* $(RINGBUF_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/ringbuf-host $(patsubst %,$(STAMPS)/ringbuf-guest-%,$(VARIANTS))
