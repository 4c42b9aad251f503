#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A variant's deps file names its variant file, fragments, series and patches; a patch later
# dropped from the series and deleted does not stop make ("No rule to make target"): the
# deps file carries an empty rule per patch, so make remakes it instead.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/kernel/variants" "$t/kernel/fragments" "$t/patches/s"
printf 'fragments: base rseq-y\nseries: s\n' > "$t/kernel/variants/v"
touch "$t/kernel/fragments/base.config" "$t/kernel/fragments/rseq-y.config"
mkdir -p "$t/scripts" && ln -s "$LAB/scripts/variant-deps" "$t/scripts/variant-deps"
printf 'a.patch\nb.patch\n' > "$t/patches/s/series"
touch "$t/patches/s/a.patch" "$t/patches/s/b.patch"
export VARIANT_DIR=$t/kernel/variants PATCH_DIR=$t/patches
"$LAB/scripts/variant-deps" v > "$t/v.mk"; ok $? "variant-deps writes the rule"
like "$(cat "$t/v.mk")" "^\\\$\\(BUILD\\)/images/v.bzImage: .*$t/patches/s/b.patch" "the image depends on each patch"
like "$(cat "$t/v.mk")" "^$t/patches/s/b.patch:\$" "and each patch has an empty rule"
# The series drops b.patch; make with the old deps file must remake it, not stop.
printf 'a.patch\n' > "$t/patches/s/series"; rm "$t/patches/s/b.patch"
cat > "$t/Makefile" <<MK
BUILD := $t/build
all: \$(BUILD)/images/v.bzImage
\$(BUILD)/images/v.bzImage: ; @mkdir -p \$(@D) && touch \$@
\$(BUILD)/deps/$KVER/v.mk: ; @mkdir -p \$(@D) && VARIANT_DIR=$t/kernel/variants PATCH_DIR=$t/patches $LAB/scripts/variant-deps v > \$@
include \$(BUILD)/deps/$KVER/v.mk
MK
# The deps file was written before the series changed (as in a real tree).
mkdir -p "$t/build/deps/$KVER" && cp "$t/v.mk" "$t/build/deps/$KVER/v.mk" && touch -d '1 hour ago' "$t/build/deps/$KVER/v.mk"
out=$(cd "$t" && make -s -f "$t/Makefile" 2>&1); ok $? "make with a deps file naming a deleted patch runs ($out)"
like "$(cat "$t/build/deps/$KVER/v.mk")" "a.patch" "the deps file is remade"
is "$(grep -c 'b.patch' "$t/build/deps/$KVER/v.mk")" 0 "  without the deleted patch"
done_testing
