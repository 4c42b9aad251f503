#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A guest that panics, one that never reaches init and a command that outlives its timeout all
# end as failures within their bound, with a one-line reason and the last console lines.
. "$(dirname "$0")/tap.sh"
v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
if [ -z "$v" ]; then skip "no kernel image" "boot failures"; done_testing; exit; fi
boot=$LAB/scripts/boot

# No init where we say: the kernel cannot mount a root and panics.
t0=$SECONDS
out=$(APPEND="rdinit=/no/such/init" TIMEOUT=60 "$boot" "$v" -- true 2>&1); r=$?
is "$r" 125 "a panicking guest fails (status 125)"
like "$out" "^error: $v \((kvm|tcg)\): kernel crashed: Kernel panic" "with a one-line reason"
like "$out" "last console lines" "and the last console lines"
ok $((SECONDS - t0 >= 60)) "well within its bound ($((SECONDS - t0)) s)"

# The command outlives the bound.
t0=$SECONDS
out=$(TIMEOUT=15 "$boot" "$v" -- sleep 1000 2>&1); r=$?
is "$r" 124 "a command past its timeout fails (status 124)"
like "$out" "guest command did not finish within 15 s" "saying so"
ok $((SECONDS - t0 >= 25)) "and the run ends within the bound ($((SECONDS - t0)) s)"

# A guest that never gets to init: too little memory to unpack the initramfs.
t0=$SECONDS
out=$(MEM=40M TIMEOUT=30 "$boot" "$v" -- true 2>&1); r=$?
ok $((r == 0)) "a guest that cannot start its init fails (status $r)"
like "$out" "^error: $v" "with a one-line reason"
ok $((SECONDS - t0 >= 40)) "within the bound ($((SECONDS - t0)) s)"
done_testing
