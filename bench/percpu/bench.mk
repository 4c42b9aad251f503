# SPDX-License-Identifier: MIT
# The per-CPU strategies bench (lab-percpu): one static binary for the host and the guests,
# its rseq rows built against the kernel tree's selftests rseq helpers in place (nothing is
# copied: tools/testing/selftests/rseq/rseq.h, rseq-x86.h and rseq.c from $(SRC)), and its
# stages on the host and in each variant's guest. Included by the top Makefile.

PERCPU_BIN  := $(BUILD)/guest/bin/lab-percpu
PERCPU_SRCS := bench/percpu/percpu.c bench/percpu/percpu-cases.c lib/disturb.c lib/mt-bench.c \
	       bench/percpu/percpu-run.c bench/percpu/percpu-report.c lib/threads.c lib/results-cols.c \
	       $(LAB_LIB_SRCS)
PERCPU_HDRS := $(HEADERS) $(wildcard bench/percpu/*.h)
PERCPU_ST   := $(SRC)/tools/testing/selftests/rseq
PERCPU_OBJ  := $(BUILD)/guest/obj/percpu
# Only the two files that need them see the kernel tree's include paths.
PERCPU_ST_CFLAGS = $(GUEST_CFLAGS) -I$(PERCPU_ST) -I$(SRC)/tools/include

GUEST_BINS += $(PERCPU_BIN)

$(PERCPU_OBJ)/percpu-rseq.o: bench/percpu/percpu-rseq.c $(PERCPU_HDRS) bench/percpu/bench.mk \
		| $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -c -o $@ $<

$(PERCPU_OBJ)/selftests-rseq.o: $(PERCPU_ST)/rseq.c bench/percpu/bench.mk | $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -c -o $@ $<

$(PERCPU_BIN): $(PERCPU_SRCS) $(PERCPU_OBJ)/percpu-rseq.o $(PERCPU_OBJ)/selftests-rseq.o \
		$(PERCPU_HDRS) bench/percpu/bench.mk
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(PERCPU_SRCS) $(PERCPU_OBJ)/percpu-rseq.o \
		$(PERCPU_OBJ)/selftests-rseq.o -lpthread -ldl -lm

.PHONY: bench-percpu-host bench-percpu-guest
bench-tests: $(PERCPU_BIN)

# PERCPU_ARGS passes options to lab-percpu (e.g. PERCPU_ARGS="--reps 9 --threads 1,2").
bench-percpu-host: $(PERCPU_BIN)
	scripts/bench-host --only percpu $(PERCPU_ARGS)
bench-percpu-guest: $(PERCPU_BIN) $(BUILD)/images/$(VARIANT).bzImage $(BUILD)/initramfs/lab.cpio
	scripts/bench-guest --only percpu $(VARIANT) $(PERCPU_ARGS)

# make bench-host / bench-guest run both benches (scripts/bench-host, scripts/bench-guest).
bench-host bench-guest: $(PERCPU_BIN)

PERCPU_PARAMS := $(call params,percpu,$(PERCPU_ARGS) ACCEL=$(ACCEL) CPUS=$(CPUS) PIN=$(PIN))
$(STAMPS)/percpu-host: $(PERCPU_BIN) scripts/bench-host $(PERCPU_PARAMS)
	scripts/stage "per-CPU strategies on the host" scripts/bench-host --only percpu $(PERCPU_ARGS)
	@mkdir -p $(@D) && touch $@
$(STAMPS)/percpu-guest-%: $(PERCPU_BIN) $(BUILD)/images/%.bzImage scripts/bench-guest \
		$(BOOT_DEPS) $(PERCPU_PARAMS) | $(BUILD)/initramfs/lab.cpio
	scripts/stage "per-CPU strategies in a $* guest" \
		scripts/bench-guest --only percpu $* $(PERCPU_ARGS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/percpu-host $(patsubst %,$(STAMPS)/percpu-guest-%,$(VARIANTS))
