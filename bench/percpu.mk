# SPDX-License-Identifier: MIT
# The per-CPU strategies bench (lab-percpu): one static binary for the host and the guests,
# its rseq rows built against the kernel tree's selftests rseq helpers in place (nothing is
# copied: tools/testing/selftests/rseq/rseq.h, rseq-x86.h and rseq.c from $(SRC)).
# Included by the top Makefile; `make bench-host` / `make bench-guest` run it after cpu-read.

PERCPU_BIN  := $(BUILD)/guest/bin/lab-percpu
# The shared harness (BENCH_LIB_SRCS, from cpu-read.mk) plus the multi-threaded timing.
PERCPU_SRCS := bench/percpu.c bench/percpu-cases.c bench/percpu-disturb.c bench/percpu-run.c \
	       bench/percpu-report.c bench/threads.c $(BENCH_LIB_SRCS)
PERCPU_ST   := $(SRC)/tools/testing/selftests/rseq
PERCPU_OBJ  := $(BUILD)/guest/obj/percpu
# Only the two files that need them see the kernel tree's include paths.
PERCPU_ST_CFLAGS = $(GUEST_CFLAGS) -I$(PERCPU_ST) -I$(SRC)/tools/include

GUEST_BINS += $(PERCPU_BIN)

$(PERCPU_OBJ)/percpu-rseq.o: bench/percpu-rseq.c $(HEADERS) bench/percpu.mk \
		| $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -c -o $@ $<

$(PERCPU_OBJ)/selftests-rseq.o: $(PERCPU_ST)/rseq.c bench/percpu.mk \
		| $(SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -c -o $@ $<

$(PERCPU_BIN): $(PERCPU_SRCS) $(PERCPU_OBJ)/percpu-rseq.o $(PERCPU_OBJ)/selftests-rseq.o \
		$(HEADERS) bench/percpu.mk
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
