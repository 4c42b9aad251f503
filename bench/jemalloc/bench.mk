# SPDX-License-Identifier: MIT
# jemalloc as it ships (lab-jemalloc): Debian's jemalloc linked statically (it is the binary's
# malloc) into one binary for the host and the guests, run by the case-bench main, its stages
# on the host and in each variant's guest (bench-run, through bench/jemalloc/run).

JEMALLOC_BIN  := $(BUILD)/guest/bin/lab-jemalloc
JEMALLOC_SRCS := bench/jemalloc/jemalloc.c lib/case-bench.c lib/real-lib.c lib/getcpu-wrap.c $(LAB_LIB_SRCS)
GUEST_BINS    += $(JEMALLOC_BIN)

$(JEMALLOC_BIN): $(JEMALLOC_SRCS) $(HEADERS) bench/jemalloc/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -Wl,--wrap=sched_getcpu -o $@ $(JEMALLOC_SRCS) \
		-ljemalloc -lpthread -ldl -lm
bench-tests: $(JEMALLOC_BIN)

# JEMALLOC_ARGS passes options to lab-jemalloc (e.g. JEMALLOC_ARGS="--reps 9").
$(eval $(call run_stages,jemalloc,JEMALLOC,jemalloc's per-CPU arenas))
