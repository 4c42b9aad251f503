# SPDX-License-Identifier: MIT
# The lab beyond one machine (lava/README.md): the bare-metal bundle and its import, LAVA job
# definitions, a local run through Debian's LAVA dispatcher, submission to a LAVA server and
# the merge of its results into data/. Included by the top Makefile.

# Which boots make lava-jobs writes: variants x benches x repetitions, one job per boot.
LAVA_VARIANTS      ?= rseq-y
LAVA_BENCH         ?= cpu-read
LAVA_REPS          ?= 1
LAVA_DEVICE_TYPE   ?= qemu
# qemu only: icount (exact instruction counts), tcg or kvm.
LAVA_ACCEL         ?= icount
# Where the server's workers download build/lava/artifacts/ from (default: file:// here).
LAVA_ARTIFACTS_URL ?=
export LAVA_VARIANTS LAVA_BENCH LAVA_REPS LAVA_DEVICE_TYPE LAVA_ACCEL LAVA_ARTIFACTS_URL

LAVA_DIR := $(BUILD)/lava
BUNDLE   := $(BUILD)/bundle/rseq-lab-bundle.tar.gz

.PHONY: bundle import lava-jobs lava-run-local lava-submit lava-fetch lava-merge lava-local lava-local-stop

bundle: $(BUNDLE)
$(BUNDLE): $(CPUREAD_BIN) $(PERCPU_BIN) lava/bundle lava/bundle-run lava/guest-run
	lava/bundle $@

# The bundle's output (rseq-lab-result-HOST-DATE.tar.gz) into a data/ run.
import:
	@[ -n "$(FILE)" ] || { echo "usage: make import FILE=rseq-lab-result-....tar.gz" >&2; exit 2; }
	lava/import "$(FILE)"

lava-jobs: $(call IMAGES,$(LAVA_VARIANTS)) $(BUILD)/initramfs/lab.cpio $(BUILD)/tools/gen_init_cpio
	lava/make-jobs

# Every generated job through lava-run on this machine, then the merge into data/.
lava-run-local: lava-jobs
	@rm -rf $(LAVA_DIR)/local-results; st=0; \
	for j in $(LAVA_DIR)/jobs/*.yaml; do lava/run-local $$j $(LAVA_DIR)/local-results || st=1; done; \
	lava/merge $(LAVA_DIR)/local-results/*/ || st=1; exit $$st

# A real LAVA server on this machine (lava/local-server): PostgreSQL, web process, scheduler
# and worker on 127.0.0.1, the database in build/lava/local. Submit and fetch use it when no
# LAVA_URL or LAVA_IDENTITY is set.
lava-local:
	scripts/install-deps lava
	lava/local-server start

lava-local-stop:
	lava/local-server stop

lava-submit:
	lava/local-env lava/submit $(LAVA_DIR)/jobs

lava-fetch:
	lava/local-env lava/fetch $(LAVA_DIR)/submitted.tsv

lava-merge:
	lava/merge $(if $(wildcard $(LAVA_DIR)/submitted.tsv),--submitted $(LAVA_DIR)/submitted.tsv) \
		$(wildcard $(LAVA_DIR)/results/*/)
