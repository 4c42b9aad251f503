# SPDX-License-Identifier: MIT
# Fuzzing (fuzz/README.md). make fuzz [FUZZ_SECONDS=N]: libFuzzer on lab-ab's input and
# Hypothesis on the CSV reader, N seconds each (600), a run in data/; on demand, never in CI.
# make check replays the committed corpus through the same target, built with gcc under ASan
# and UBSan (fuzz/tests/fuzz-replay.t).
FUZZ_AB_SRCS := fuzz/ab-input.c lib/ab.c lib/ab-paired.c lib/ab-input.c lib/stats.c
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1 -Ilib/include

$(BUILD)/fuzz/ab-input-fuzzer: $(FUZZ_AB_SRCS) lib/lab-ab.c $(HEADERS) fuzz/fuzz.mk | $(BUILD)/.deps-fuzz
	@mkdir -p $(@D)
	clang $(FUZZ_SAN) -fsanitize=fuzzer -Dmain=lab_ab_main -o $@ $(FUZZ_AB_SRCS) lib/lab-ab.c -lm

# lab-ab's main renamed in its own object: replay.c keeps the name main
$(BUILD)/host/tests/fuzz-ab-input-replay: fuzz/replay.c $(FUZZ_AB_SRCS) lib/lab-ab.c $(HEADERS) \
		fuzz/fuzz.mk | $(DEPS_DONE)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_SAN) -Dmain=lab_ab_main -c -o $@.lab-ab.o lib/lab-ab.c
	$(CC) $(FUZZ_SAN) -o $@ fuzz/replay.c $(FUZZ_AB_SRCS) $@.lab-ab.o -lm
lib-tests: $(BUILD)/host/tests/fuzz-ab-input-replay

$(BUILD)/.deps-fuzz: scripts/install-deps | $(DEPS_DONE)
	scripts/install-deps fuzz
	@touch $@

.PHONY: fuzz
fuzz: $(BUILD)/fuzz/ab-input-fuzzer $(AB_BIN)
	fuzz/run $(or $(FUZZ_SECONDS),600)
