#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A series named in a variant resolves per KVER: kernel/patches/NAME-KVER when that directory
# exists (rseq-stats-6.12), else NAME; a path as it is. patch-tree, variant-deps and
# kernel-identity all go through lib.sh's series_dir, so each picks the same one: with a
# scratch series "s" and its port "s-6.12", KVER=6.12 patches, depends on and hashes s-6.12,
# any other KVER s.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/variants" "$t/fragments" "$t/patches/s" "$t/patches/s-6.12"
printf 'fragments: base\nseries: s\n' > "$t/variants/v"
echo 'CONFIG_RSEQ=y' > "$t/fragments/base.config"
cp "$LAB/kernel/fragments/arch-x86_64.config" "$t/fragments/"  # merged into every x86 variant
for s in s s-6.12; do
	printf -- '--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n one\n+%s\n' "$s" > "$t/patches/$s/$s.patch"
	echo "$s.patch" > "$t/patches/$s/series"
done
export VARIANT_DIR=$t/variants FRAGMENT_DIR=$t/fragments PATCH_DIR=$t/patches

sd() { (KVER=$1; . "$LAB/scripts/lib.sh"; series_dir "$2"); }
is "$(sd 6.1 s)" "$t/patches/s" "series_dir: KVER=6.1 takes s"
is "$(sd 6.12 s)" "$t/patches/s-6.12" "KVER=6.12 takes its port s-6.12"
is "$(sd 6.6 s)" "$t/patches/s" "a KVER without a port takes s"
is "$(sd 6.12 "$t/patches/s")" "$t/patches/s" "a path is taken as it is"
is "$(unset PATCH_DIR; sd 6.12 rseq-stats)" "$LAB/kernel/patches/rseq-stats-6.12" \
	"the lab's rseq-stats for 6.12 is rseq-stats-6.12"
is "$(unset PATCH_DIR; sd 6.1 rseq-stats)" "$LAB/kernel/patches/rseq-stats" "and for 6.1 rseq-stats"

deps=$(KVER=6.12 "$LAB/scripts/variant-deps" v)
like "$deps" "^\\\$\\(BUILD\\)/images/v.bzImage: .*$t/patches/s-6.12/s-6.12.patch" \
	"variant-deps, KVER=6.12: the image depends on the port's patch"
is "$(grep -c "$t/patches/s/" <<< "$deps")" 0 "  and not on the 6.1 series"
like "$deps" "^\\\$\\(BUILD\\)/deps/6.12/v.mk: " "  its deps file is KVER's own"
like "$(KVER=6.1 "$LAB/scripts/variant-deps" v)" "images/v.bzImage: .*$t/patches/s/s.patch" \
	"variant-deps, KVER=6.1: the 6.1 series"

# The series' hash in the identity: the port's for 6.12, the same as 6.1's for a KVER without one.
sh_of() { KVER=$1 LAB_SRC_ID="deb linux-source-x 1 2" "$LAB/scripts/kernel-identity" v | grep -o 'series=[0-9a-f]*'; }
want=$( (cat "$t/patches/s-6.12/series" "$t/patches/s-6.12/s-6.12.patch") | sha256sum | cut -c1-16)
is "$(sh_of 6.12)" "series=$want" "kernel-identity, KVER=6.12: the hash of s-6.12"
want=$( (cat "$t/patches/s/series" "$t/patches/s/s.patch") | sha256sum | cut -c1-16)
is "$(sh_of 6.1)" "series=$want" "KVER=6.1: the hash of s"
is "$(sh_of 6.6)" "series=$want" "KVER=6.6: the hash of s"

# patch-tree on a scratch pristine linux-6.12: the port's patch is the one applied.
b=$t/build; mkdir -p "$b/src/linux-6.12"
echo one > "$b/src/linux-6.12/f"; echo 6.12-lab > "$b/src/linux-6.12/.lab-unpacked"
d=$(KVER=6.12 BUILD=$b "$LAB/scripts/patch-tree" s 2>/dev/null); ok $? "patch-tree s, KVER=6.12, applies"
is "${d##*/}" "linux-6.12+s-6.12" "  into a copy named for the port"
is "$(paste -sd' ' "$d/f" 2>/dev/null)" "one s-6.12" "  with the port's patch in it"
done_testing
