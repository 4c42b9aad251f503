# SPDX-License-Identifier: MIT
# The per-CPU memory-pool cache bench (lab-alloc, the seed's jemalloc row): one static binary
# for the host and the guests, its rseq cache built against the kernel tree's selftests rseq
# helpers in place (lib/lab.mk's rseq_bench), and its stages on the host and in each variant's
# guest, run by bench/alloc/run (run_stages).

ALLOC_SRCS := bench/alloc/alloc.c bench/alloc/alloc-cache.c lib/percentile.c $(LAB_MT_SRCS) \
	      $(LAB_LIB_SRCS)
$(eval $(call rseq_bench,alloc,ALLOC))

# ALLOC_ARGS passes options to lab-alloc (e.g. ALLOC_ARGS="--reps 9 --threads 1,2 --burst 32").
$(eval $(call run_stages,alloc,ALLOC,per-CPU allocator caches))

# The percentile arithmetic's unit test (bench/alloc/tests/alloc-percentile.t runs it).
ALLOC_PCT_TEST := $(BUILD)/host/tests/lab-percentile-test
$(ALLOC_PCT_TEST): bench/alloc/tests/percentile-test.c lib/percentile.c $(HEADERS) bench/alloc/bench.mk
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^) -lm
bench-tests: $(ALLOC_PCT_TEST)
