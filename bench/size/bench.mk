# SPDX-License-Identifier: MIT
# The size cost of CONFIG_RSEQ (and of our counters): size(1) of each built variant's vmlinux
# and the deltas in the seed's terms, into data/. Included by the top-level Makefile.

.PHONY: size
size:
	bench/size/run

$(STAMPS)/size: $(patsubst %,$(BUILD)/images/%.bzImage,$(VARIANTS)) bench/size/run
	scripts/stage "size cost" bench/size/run $(VARIANTS)
	@mkdir -p $(@D) && touch $@
MAIN_STAGES += $(STAMPS)/size
