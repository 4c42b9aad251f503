#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A variant that differs from rseq-y in one local option (MAGIC_SYSRQ) starts from rseq-y's
# build and compiles about what scripts/option-reach says the option reaches, not the ~1100
# objects of a kernel: the build tree's times and objtool (every x86 object depends on it,
# and a copied build directory relinks it) must not make kbuild recompile the rest. Its image
# is removed afterwards (build/kernel, the store, build/images).
. "$(dirname "$0")/tap.sh"
require_image rseq-y
t=$(mktemp -d)
mkdir -p "$t/variants" "$t/fragments"
cp "$LAB"/kernel/fragments/*.config "$t/fragments/"
printf '# SPDX-License-Identifier: MIT\nCONFIG_MAGIC_SYSRQ=y\n' > "$t/fragments/lab-test-sysrq.config"
printf 'fragments: base rseq-y lab-test-sysrq\nseries:\n' > "$t/variants/lab-test-sysrq"
export VARIANT_DIR=$t/variants FRAGMENT_DIR=$t/fragments
id=$("$LAB/scripts/kernel-identity" lab-test-sysrq | cut -d' ' -f1)
# build_clean removes build/kernel/$id: never with an empty id.
[ -n "$id" ] || { echo "Bail out! no identity for the test variant"; rm -rf "$t"; exit 1; }
# build_clean: this variant's build, store entry, image and log gone (a rerun builds it again).
build_clean() {
	rm -rf "$BUILD/kernel/$id" "$STORE/$id" "$BUILD/kernel/lab-test-sysrq" \
		"$BUILD"/images/lab-test-sysrq.* "$BUILD"/logs/lab-test-sysrq.*
}
trap 'build_clean; rm -rf "$t"' EXIT
build_clean

# A second clone selects rseq-y from the store without its build directory, the seed this test
# needs: it is built here first, into a scratch store (the shared one has it; ccache makes
# the build quick), which leaves the same bytes selected.
rid=$(VARIANT_DIR= FRAGMENT_DIR= "$LAB/scripts/kernel-identity" rseq-y | cut -d' ' -f1)
if [ ! -f "$BUILD/kernel/$rid/rseq-y/vmlinux" ]; then
	diag "rseq-y's build directory is not in this clone (selected from the store): building it as the seed"
	VARIANT_DIR= FRAGMENT_DIR= LAB_STORE=$t/seed-store "$LAB/scripts/build-kernel" rseq-y > "$t/seed.log" 2>&1 ||
		{ tail -n 5 "$t/seed.log" | sed 's/^/# /'; echo "Bail out! rseq-y could not be built as the seed"; exit 1; }
fi
reach=$(VARIANT_DIR= FRAGMENT_DIR= "$LAB/scripts/option-reach" rseq-y CONFIG_MAGIC_SYSRQ | sed -n 's/^CONFIG_MAGIC_SYSRQ: \([0-9]*\) of.*/\1/p')
ok $([ -n "$reach" ]; echo $?) "option-reach: MAGIC_SYSRQ reaches ${reach:-?} of rseq-y's objects"
out=$("$LAB/scripts/build-kernel" lab-test-sysrq 2>&1); r=$?
is "$r" 0 "build-kernel builds the variant"
info=$BUILD/images/lab-test-sysrq.info
like "$(sed -n 's/^seeded_from: //p' "$info" 2>/dev/null)" "^rseq-y " "seeded from rseq-y"
n=$(sed -n 's/^objects_compiled: //p' "$info" 2>/dev/null)
# The option's own new files (sysrq.c and what it selects) come on top of what it reaches.
ok $([ -n "$n" ] && [ "$n" -le $((${reach:-0} + 20)) ]; echo $?) \
	"${n:-?} objects compiled: at most what the option reaches (${reach:-?}) and 20 new files"
grep -q '^CONFIG_MAGIC_SYSRQ=y' "$BUILD/images/lab-test-sysrq.config" 2>/dev/null
ok $? "the option is in the image's config"
diag "$(grep '>> lab-test-sysrq: .*built in' <<< "$out" | sed 's/^>> //')"
done_testing
