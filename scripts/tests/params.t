#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Makefile's params: one file per stage and value of its knobs, named for the value (short
# and plain) or its hash (anything else), written once with the value; two values never share
# a file.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# params NAME VALUE: the file make names for VALUE (BUILD=$t).
# (The value reaches make from the environment: a comma in it is then no argument's end.)
params() {
	LAB_PARAMS_VALUE=$2 make -s --no-print-directory -C "$LAB" BUILD="$t" \
		--eval "lab-params-test: ; @printf '%s\n' '\$(call params,$1,\$(LAB_PARAMS_VALUE))'" lab-params-test 2>/dev/null
}
f=$(params cpu-read "ACCEL=tcg CPUS=2 PIN=")
is "$f" "$t/params/cpu-read-ACCEL=tcg@20CPUS=2@20PIN=" "a plain value names its file"
is "$(cat "$f" 2>/dev/null)" "ACCEL=tcg CPUS=2 PIN=" "  which holds the value"
touch -d '-1 hour' "$f"; m=$(stat -c %Y "$f")
is "$(params cpu-read "ACCEL=tcg CPUS=2 PIN=")" "$f" "the same value: the same file"
is "$(stat -c %Y "$f")" "$m" "  not written again (a stage listing it does not rerun)"
isnt() { ok $([ "$1" != "$2" ]; echo $?) "$3"; }
isnt "$(params cpu-read "ACCEL=icount CPUS=2 PIN=")" "$f" "another value: another file"
isnt "$(params x "a b")" "$(params x "a@20b")" "a space and its escape: two files"
isnt "$(params x "a/b")" "$(params x "a@2Fb")" "a slash and its escape: two files"
c=$(params x "a,b")
isnt "$c" "$(params x "a@2Cb")" "a comma and its escape: two files"
is "$(cat "$c" 2>/dev/null)" "a,b" "  the comma's file holds the whole value"
g=$(params x "--opt a*b [x]")
like "$g" "^$t/params/x-@md5-[0-9a-f]{12}$" "a value with other characters: its hash"
is "$(cat "$g" 2>/dev/null)" "--opt a*b [x]" "  the file holds the value"
long=$(printf 'a%.0s' $(seq 121))
like "$(params x "$long")" "^$t/params/x-@md5-[0-9a-f]{12}$" "a value over 120 characters: its hash"
is "$(params x "${long%a}")" "$t/params/x-${long%a}" "  one of 120 names its file"
is "$(params x "")" "$t/params/x-" "an empty value"
done_testing
