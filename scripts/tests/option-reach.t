#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/option-reach: the objects of a built variant whose Kbuild dependency record names an
# option (what a variant differing only in it recompiles); a variant not built, or a name that
# is no option, is one error line.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export BUILD=$t/build
mkdir -p "$BUILD/src/linux-$KVER"; echo 6.1-lab > "$BUILD/src/linux-$KVER/.lab-unpacked"
r=$LAB/scripts/option-reach
err=$("$r" rseq-y CONFIG_FOO 2>&1); s=$?
is "$s" 1 "a variant not built: exit 1"
like "$err" "^error: rseq-y \\(identity [0-9a-f]+\\) is not built here" "  in one line"
id=$("$LAB/scripts/kernel-identity" rseq-y | cut -d' ' -f1)
d=$BUILD/kernel/$id/rseq-y
mkdir -p "$d/kernel" "$d/mm"; touch "$d/vmlinux"
# fixdep's records: a wildcard per option a file (or a header it includes) tests.
printf 'deps_kernel/rseq.o := \\\n  $(wildcard include/config/DEBUG_RSEQ) \\\n  $(wildcard include/config/RSEQ) \\\n' > "$d/kernel/.rseq.o.cmd"
printf 'deps_mm/a.o := \\\n  $(wildcard include/config/RSEQ) \\\n  $(wildcard include/config/DEBUG_RSEQ_X) \\\n' > "$d/mm/.a.o.cmd"
printf 'deps := $(wildcard include/config/RSEQ)\n' > "$d/kernel/.built-in.o.cmd"
out=$("$r" rseq-y CONFIG_RSEQ DEBUG_RSEQ CONFIG_IKCONFIG)
is "$out" "$(printf 'CONFIG_RSEQ: 2 of 2 objects of rseq-y\nCONFIG_DEBUG_RSEQ: 1 of 2 objects of rseq-y\nCONFIG_IKCONFIG: 0 of 2 objects of rseq-y')" \
	"each option's objects, a prefix no match (DEBUG_RSEQ is not DEBUG_RSEQ_X), none for an option nobody tests"
err=$("$r" rseq-y 'CONFIG_A-B' 2>&1); s=$?
is "$s" 1 "not an option name: exit 1"
is "$err" "error: 'A-B' is not a Kconfig option name" "  saying so"
"$r" rseq-y >/dev/null 2>&1; is "$?" 2 "no option: usage, exit 2"
done_testing
