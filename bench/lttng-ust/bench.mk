# SPDX-License-Identifier: MIT
# LTTng-UST as it ships (lab-lttng-ust): Debian's LTTng-UST 2.13, a shared library (Debian
# ships no static one), so a host program only, run by the case-bench main inside a session
# bench/lttng-ust/session starts and stops; its stage on the host (bench-run).

LTTNG_UST_BIN  := $(BUILD)/host/bin/lab-lttng-ust
LTTNG_UST_SRCS := bench/lttng-ust/lttng.c lib/case-bench.c lib/real-lib.c lib/getcpu-interpose.c $(LAB_LIB_SRCS)

# LTTng-UST's getcpu plugin the syscall row loads (LTTNG_UST_GETCPU_PLUGIN), beside the program.
LTTNG_UST_PLUGIN := $(BUILD)/host/bin/lab-lttng-getcpu-syscall.so
$(LTTNG_UST_PLUGIN): bench/lttng-ust/getcpu-syscall.c bench/lttng-ust/bench.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -fPIC -o $@ $< -llttng-ust

$(LTTNG_UST_BIN): $(LTTNG_UST_SRCS) bench/lttng-ust/lab-tp.h $(HEADERS) bench/lttng-ust/bench.mk \
		$(LTTNG_UST_PLUGIN) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(LAB_CFLAGS) -O2 -Ibench/lttng-ust -DLAB_CC='"$(CC)"' -DLAB_CFLAGS='"$(LAB_CFLAGS)"' \
		-o $@ $(LTTNG_UST_SRCS) -llttng-ust -ldl -lpthread -lm
bench-tests: $(LTTNG_UST_BIN)

# LTTNG_UST_ARGS passes options to lab-lttng-ust (e.g. LTTNG_UST_ARGS="--reps 9").
$(eval $(call host_stages,lttng-ust,LTTNG_UST,LTTng-UST's event write))
