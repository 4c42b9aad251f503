#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The option verifier: accepts a .config that has what the fragments asked for, and names the
# option (one line) when Kconfig dropped one. Then the real thing: a temporary variant whose
# fragment turns RSEQ off without EXPERT must be rejected by scripts/build-kernel.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
v=$LAB/scripts/verify-config

printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x y"\n' > "$t/frag"
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x y"\nCONFIG_D=y\n' > "$t/good"
out=$("$v" t "$t/good" "$t/frag" 2>&1); ok $? "a .config with every requested value passes"

printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_C="x y"\n' > "$t/bad"
out=$("$v" t "$t/bad" "$t/frag" 2>&1); r=$?
ok $((r == 0)) "an option turned back on fails"
is "$out" "error: t: CONFIG_B=n requested but .config has CONFIG_B=y (selected by another option, or needs CONFIG_EXPERT?)" \
	"the error is one line naming the option"

printf '# CONFIG_A is not set\nCONFIG_C="x y"\n' > "$t/lost"
out=$("$v" t "$t/lost" "$t/frag" 2>&1); r=$?
ok $((r == 0)) "a dropped option fails"
like "$out" "CONFIG_A=y requested but .config has CONFIG_A=n" "and is named"

printf '# CONFIG_A is not set\n' > "$t/frag2"
out=$("$v" t "$t/lost" "$t/frag" "$t/frag2" 2>&1); ok $? "a later fragment overrides an earlier one"

# A real configuration: RSEQ=n requested with EXPERT off comes back as RSEQ=y.
mkdir -p "$t/variants" "$t/fragments"
grep -v '^CONFIG_EXPERT=' "$LAB/kernel/fragments/base.config" > "$t/fragments/base.config"
cp "$LAB/kernel/fragments/arch-x86_64.config" "$t/fragments/"  # merged into every x86 variant
printf '# CONFIG_EMBEDDED is not set\n# CONFIG_EXPERT is not set\n# CONFIG_RSEQ is not set\n' > "$t/fragments/no-expert.config"
printf 'fragments: base no-expert\nseries:\n' > "$t/variants/lab-test-bad"
# (A Kconfig run of the whole tree, ~16 s here: make test's tier, not make check's.)
if ! guest_tier --part "a Kconfig run of the tree"; then
	skip "make check: no Kconfig run (make test runs it)" "build-kernel rejects a bad variant"
elif [ -f "$BUILD/src/linux-$KVER/.lab-unpacked" ]; then
	out=$(VARIANT_DIR=$t/variants FRAGMENT_DIR=$t/fragments CONFIGURE_ONLY=1 \
		"$LAB/scripts/build-kernel" lab-test-bad 2>&1); r=$?
	ok $((r == 0)) "build-kernel rejects a variant whose fragment was overridden by Kconfig"
	like "$out" "error: lab-test-bad: CONFIG_RSEQ=n requested but .config has CONFIG_RSEQ=y" \
		"naming CONFIG_RSEQ in one line"
	# Its configured tree is named by its identity, its logs by the variant.
	id=$(VARIANT_DIR=$t/variants FRAGMENT_DIR=$t/fragments "$LAB/scripts/kernel-identity" lab-test-bad)
	ok $([ -n "${id%% *}" ] && [ -d "$BUILD/kernel/${id%% *}" ]; echo $?) "(its configured tree is build/kernel/IDENTITY, removed now)"
	[ -z "${id%% *}" ] || rm -rf "$BUILD/kernel/${id%% *}"
	rm -f "$BUILD/logs/lab-test-bad."*
else
	skip "no unpacked tree" "build-kernel rejects a bad variant"
fi
done_testing
