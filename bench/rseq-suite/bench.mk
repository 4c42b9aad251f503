# SPDX-License-Identifier: MIT
# The rseq correctness suite's guest programs (included by the top-level Makefile):
# our own ABI tests from bench/rseq-suite/, the kernel tree's rseq selftests compiled in place from
# the unpacked linux-6.1 tree whatever KVER is (GUEST_SRC, see the Makefile; nothing copied into
# the repo), and the guest runner script.

RSEQ_OWN_TESTS := rseq-probe rseq-abi rseq-cs rseq-syscall-cs
RSEQ_SELFTESTS := basic_test basic_percpu_ops_test param_test param_test_benchmark \
	param_test_compare_twice
RSEQ_ST := $(GUEST_SRC)/tools/testing/selftests/rseq

GUEST_BINS += $(patsubst %,$(BUILD)/guest/bin/%,$(RSEQ_OWN_TESTS) $(RSEQ_SELFTESTS)) \
	$(BUILD)/guest/bin/rseq-suite

# RSEQ=n as user space sees it, on any kernel: lab-nosys-rseq CMD runs CMD with every rseq(2)
# call failing with ENOSYS (a ptrace tracer; nosys-ARCH.h has each architecture's registers).
NOSYS_SRCS := bench/rseq-suite/nosys-rseq.c $(wildcard bench/rseq-suite/nosys-*.h)
GUEST_BINS += $(BUILD)/guest/bin/lab-nosys-rseq
$(BUILD)/guest/bin/lab-nosys-rseq: $(NOSYS_SRCS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# Threads and pthread_kill: our tests need -lpthread (the generic rule does not add it).
RSEQ_OWN_BINS := $(patsubst %,$(BUILD)/guest/bin/%,$(RSEQ_OWN_TESTS))
$(RSEQ_OWN_BINS): $(BUILD)/guest/bin/%: bench/rseq-suite/%.c $(HEADERS) | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< -lpthread

# The selftests as their Makefile builds them, but static and with librseq's rseq.c linked in
# rather than shared. Its rseq.c leaves the registration to glibc 2.35+ (__rseq_offset) when
# glibc made one; -ldl is for its dlsym fallback.
RSEQ_ST_CFLAGS := -O2 -g -Wall -static $(REPRO_CFLAGS) -I$(RSEQ_ST) -I$(GUEST_SRC)/tools/include
RSEQ_ST_DEPS = $(RSEQ_ST)/rseq.c $(wildcard $(RSEQ_ST)/*.h)
# The sources appear when the tree is unpacked (on a fresh checkout, before the first build).
RSEQ_ST_MAINS := basic_test basic_percpu_ops_test param_test
$(patsubst %,$(RSEQ_ST)/%.c,$(RSEQ_ST_MAINS) rseq): | $(GUEST_SRC)/.lab-unpacked ;
RSEQ_ST_LINK = $(RSEQ_ST)/rseq.c -lpthread -ldl

$(patsubst %,$(BUILD)/guest/bin/%,$(RSEQ_ST_MAINS)): \
		$(BUILD)/guest/bin/%: $(RSEQ_ST)/%.c $(RSEQ_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(RSEQ_ST_CFLAGS) -o $@ $< $(RSEQ_ST_LINK)

$(BUILD)/guest/bin/param_test_benchmark: $(RSEQ_ST)/param_test.c $(RSEQ_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(RSEQ_ST_CFLAGS) -DBENCHMARK -o $@ $< $(RSEQ_ST_LINK)

$(BUILD)/guest/bin/param_test_compare_twice: $(RSEQ_ST)/param_test.c $(RSEQ_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(RSEQ_ST_CFLAGS) -DRSEQ_COMPARE_TWICE -o $@ $< $(RSEQ_ST_LINK)

$(BUILD)/guest/bin/rseq-suite: bench/rseq-suite/guest-run
	@mkdir -p $(@D)
	cp $< $@
	chmod 755 $@
