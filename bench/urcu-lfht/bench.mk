# SPDX-License-Identifier: MIT
# liburcu's hash table as it ships (lab-urcu-lfht): Debian's liburcu linked statically into one
# binary for the host and the guests, run by the case-bench main, its stages on the host and
# in each variant's guest (bench-run, through bench/urcu-lfht/run).

URCU_LFHT_BIN  := $(BUILD)/guest/bin/lab-urcu-lfht
URCU_LFHT_SRCS := bench/urcu-lfht/lfht.c lib/case-bench.c lib/real-lib.c lib/getcpu-wrap.c $(LAB_LIB_SRCS)
GUEST_BINS     += $(URCU_LFHT_BIN)

$(URCU_LFHT_BIN): $(URCU_LFHT_SRCS) $(HEADERS) bench/urcu-lfht/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -Wl,--wrap=sched_getcpu -o $@ $(URCU_LFHT_SRCS) \
		-lurcu-cds -lurcu -lurcu-common -lpthread -lm
bench-tests: $(URCU_LFHT_BIN)

# URCU_LFHT_ARGS passes options to lab-urcu-lfht (e.g. URCU_LFHT_ARGS="--reps 9").
$(eval $(call run_stages,urcu-lfht,URCU_LFHT,liburcu's hash table))
