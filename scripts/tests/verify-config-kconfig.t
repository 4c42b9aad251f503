#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# verify-config against a tree's Kconfig (KERNEL_TREE, as build-kernel sets it): an option the
# tree does not define at all is named as renamed or dropped in that release, in one line; one
# the tree defines but Kconfig turned off keeps the unmet-dependency message.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
v=$LAB/scripts/verify-config
mkdir -p "$t/tree/mm" "$t/tree/init"
printf 'VERSION = 6\nPATCHLEVEL = 19\nSUBLEVEL = 0\n' > "$t/tree/Makefile"
printf 'config SLUB\n\tbool "SLUB"\nmenuconfig EXPERT\n\tbool "expert"\n' > "$t/tree/mm/Kconfig"
printf 'config RSEQ\n\tbool "rseq"\n' > "$t/tree/init/Kconfig"
printf 'CONFIG_SLUB=y\nCONFIG_SLAB=y\nCONFIG_RSEQ=y\nCONFIG_EXPERT=y\n' > "$t/frag"
printf 'CONFIG_SLUB=y\nCONFIG_EXPERT=y\n' > "$t/config"
out=$(KERNEL_TREE=$t/tree "$v" v "$t/config" "$t/frag" 2>&1); r=$?
ok $((r == 0)) "missing options fail"
like "$out" "^error: v: CONFIG_SLAB=y requested but linux 6.19 has no SLAB in any Kconfig \(renamed or dropped there" \
	"a dropped option: named, with the release"
like "$out" "CONFIG_RSEQ=y requested but .config lacks it \(unmet dependency\?\)" "a defined one: unmet dependency"
is "$(grep -c . <<< "$out")" 2 "one line each"
out=$("$v" v "$t/config" "$t/frag" 2>&1)
like "$out" "CONFIG_SLAB=y requested but .config lacks it" "without KERNEL_TREE: the old message"
done_testing
