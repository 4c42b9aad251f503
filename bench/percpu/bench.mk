# SPDX-License-Identifier: MIT
# The per-CPU strategies bench (lab-percpu): one static binary for the host and the guests,
# its rseq rows built against the kernel tree's selftests rseq helpers in place (lib/lab.mk's
# rseq_bench), and its stages on the host and in each variant's guest. Included by the top
# Makefile.

PERCPU_SRCS := bench/percpu/percpu.c bench/percpu/percpu-cases.c bench/percpu/percpu-run.c \
	       bench/percpu/interleave.c bench/percpu/explore.c bench/percpu/il-child.c bench/percpu/il-ptrace.c \
	       bench/percpu/il-report.c bench/percpu/percpu-report.c $(LAB_MT_SRCS) $(LAB_LIB_SRCS)
# The interleaving check's decoder, on Capstone, where the lab builds natively for x86-64
# (il-arch.h: elsewhere lab-percpu says it cannot check).
# PERCPU_SRCS are what the ARM guests' cross builds compile too.
PERCPU_NATIVE_SRCS := $(PERCPU_SRCS)
ifeq ($(shell uname -m),x86_64)
PERCPU_NATIVE_SRCS += bench/percpu/il-decode-x86_64.c
PERCPU_CAPSTONE := -lcapstone
endif
PERCPU_BIN  := $(BUILD)/guest/bin/lab-percpu
# Capstone decodes the instructions the interleaving check single-steps (il-decode-ARCH.c).
PERCPU_LIBS := $(PERCPU_CAPSTONE) -lpthread -ldl -lm
PERCPU_OBJ  := $(BUILD)/guest/obj/percpu
PERCPU_ST   := $(GUEST_SRC)/tools/testing/selftests/rseq
GUEST_BINS  += $(PERCPU_BIN)
bench-tests: $(PERCPU_BIN)

# The rows: one file per row family (bench/percpu/include/lab/strategy.h), in table order. Each is
# built as a user's strategy is (`make strategy`): with the kernel tree's selftests rseq
# helpers on the include path and its list named for the file (-DLAB_STRATEGY_SYM=...).
PERCPU_STRATEGIES := counter-getcpu counter-rseq counter-shared list-cas list-rseq \
		     list-spinlock lock-cmpxchg lock-rseq
percpu_sym = lab_strategies_$(subst -,_,$(1))
# The strategy interface is this bench's (bench/percpu/include/lab/strategy.h), not lib's.
PERCPU_INC := -Ibench/percpu/include
PERCPU_ST_CFLAGS = $(GUEST_CFLAGS) $(PERCPU_INC) -I$(PERCPU_ST) -I$(GUEST_SRC)/tools/include
PERCPU_HDRS := $(HEADERS) $(wildcard bench/percpu/*.h bench/percpu/include/lab/*.h)
# The harness and the rows in one archive: lab-percpu is it with the rows' table, a
# strategy binary the same with the user's files and a longer table.
PERCPU_LIB := $(PERCPU_OBJ)/liblab-percpu.a
PERCPU_LIB_OBJS := $(patsubst %.c,$(PERCPU_OBJ)/%.o,$(notdir $(PERCPU_NATIVE_SRCS))) \
		   $(PERCPU_STRATEGIES:%=$(PERCPU_OBJ)/strategy-%.o) $(PERCPU_OBJ)/selftests-rseq.o

$(PERCPU_OBJ)/strategy-%.o: bench/percpu/strategies/%.c $(PERCPU_HDRS) bench/percpu/bench.mk \
		| $(GUEST_SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -D_GNU_SOURCE -DLAB_STRATEGY_SYM=$(call percpu_sym,$*) -c -o $@ $<
$(PERCPU_OBJ)/selftests-rseq.o: $(PERCPU_ST)/rseq.c bench/percpu/bench.mk | $(GUEST_SRC)/.lab-unpacked
	@mkdir -p $(@D)
	$(CC) $(PERCPU_ST_CFLAGS) -c -o $@ $<
define percpu_src_rule
$(PERCPU_OBJ)/$(notdir $(1:.c=.o)): $(1) $(PERCPU_HDRS) bench/percpu/bench.mk
	@mkdir -p $$(@D)
	$$(CC) $$(BENCH_CFLAGS) $$(PERCPU_INC) -c -o $$@ $$<
endef
$(foreach s,$(PERCPU_NATIVE_SRCS),$(eval $(call percpu_src_rule,$(s))))
$(PERCPU_LIB): $(PERCPU_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(PERCPU_OBJ)/table.c: bench/percpu/strategy-table bench/percpu/bench.mk
	@mkdir -p $(@D)
	bench/percpu/strategy-table $(foreach s,$(PERCPU_STRATEGIES),$(call percpu_sym,$(s))) > $@
$(PERCPU_BIN): $(PERCPU_OBJ)/table.c $(PERCPU_LIB)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(PERCPU_INC) -o $@ $< $(PERCPU_LIB) $(PERCPU_LIBS)

# PERCPU_ARGS passes options to lab-percpu (e.g. PERCPU_ARGS="--reps 9 --threads 1,2").
$(eval $(call run_stages,percpu,PERCPU,per-CPU strategies))

# make bench-host / bench-guest run both benches (scripts/bench-run).
bench-host bench-guest: $(PERCPU_BIN)

# make strategy STRATEGY="mine.c [other.c]" (paths from where make was called, as KSRC):
# your strategy files (bench/percpu/include/lab/strategy.h)
# built, checked exact and timed beside the lab's rows of their shapes; VARIANTS=... given on
# the command line adds guest runs (ACCEL). STRATEGY_ARGS go to the timing (--threads 1,2
# --reps 5), CHECK_ARGS to the check. make strategy-compare A=old.c B=new.c: both versions
# interleaved on one kernel (VARIANT in a guest under ACCEL, or ACCEL=none on the host),
# ROUNDS rounds, the block make compare prints; FAIL_ABOVE as there.
.PHONY: strategy strategy-compare strategy-env
STRATEGY_ENV = STRATEGY_CC="$(CC)" STRATEGY_CFLAGS="$(PERCPU_ST_CFLAGS) -D_GNU_SOURCE" \
	STRATEGY_LIB=$(PERCPU_LIB) STRATEGY_LIBS="$(PERCPU_LIBS)" STRATEGY_BIN=$(PERCPU_BIN) \
	STRATEGY_BUILTIN="$(foreach s,$(PERCPU_STRATEGIES),$(call percpu_sym,$(s)))"
STRATEGY_GUEST = $(BUILD)/initramfs/lab.cpio $(BUILD)/tools/gen_init_cpio
strategy: $(PERCPU_LIB) $(PERCPU_BIN) $(if $(filter command line,$(origin VARIANTS)),$(STRATEGY_GUEST))
	@$(STRATEGY_ENV) STRATEGY_VARIANTS="$(if $(filter command line,$(origin VARIANTS)),$(VARIANTS))" \
		ACCEL=$(ACCEL) bench/percpu/strategy $(foreach f,$(STRATEGY),$(call user_path,$(f)))
strategy-compare: $(PERCPU_LIB) $(PERCPU_BIN) $(AB_BIN) $(if $(filter-out none,$(ACCEL)),$(STRATEGY_GUEST))
	@$(STRATEGY_ENV) AB=$(AB_BIN) VARIANT=$(VARIANT) ACCEL=$(ACCEL) ROUNDS=$(ROUNDS) \
		FAIL_ABOVE="$(FAIL_ABOVE)" bench/percpu/strategy-compare "$(call user_path,$(A))" \
		"$(call user_path,$(B))"
# What make strategy gives bench/percpu/strategy, as shell words (the tests run it directly:
# parsing the Makefile takes seconds).
strategy-env: $(PERCPU_LIB) $(PERCPU_BIN)
	@echo '$(STRATEGY_ENV)'
