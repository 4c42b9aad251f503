#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Makefile's params: one file per stage and value of its knobs, named for the value (short
# and plain) or its hash (anything else), written once with the value; two values never share
# a file.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# params NAME VALUE [NAME VALUE]...: the file make names for each VALUE (BUILD=$t), a line
# each, from one make run. (The values reach make from the environment: a comma in one is
# then no argument's end.)
params() {
	local i=0 evals=() envs=()
	while [ $# -ge 2 ]; do
		i=$((i + 1))
		envs+=("LAB_PARAMS_VALUE_$i=$2")
		evals+=(--eval "lab-params-test:: ; @printf '%s\\n' '\$(call params,$1,\$(LAB_PARAMS_VALUE_$i))'")
		shift 2
	done
	env "${envs[@]}" make -s --no-print-directory -C "$LAB" BUILD="$t" "${evals[@]}" lab-params-test 2>/dev/null
}
long=$(printf 'a%.0s' $(seq 121))
mapfile -t f < <(params cpu-read "ACCEL=tcg CPUS=2 PIN=" cpu-read "ACCEL=icount CPUS=2 PIN=" \
	x "a b" x "a@20b" x "a/b" x "a@2Fb" x "a,b" x "a@2Cb" x "--opt a*b [x]" x "$long" x "${long%a}" x "")
is "${f[0]}" "$t/params/cpu-read-ACCEL=tcg@20CPUS=2@20PIN=" "a plain value names its file"
is "$(cat "${f[0]}" 2>/dev/null)" "ACCEL=tcg CPUS=2 PIN=" "  which holds the value"
isnt() { ok $([ "$1" != "$2" ]; echo $?) "$3"; }
isnt "${f[1]}" "${f[0]}" "another value: another file"
isnt "${f[2]}" "${f[3]}" "a space and its escape: two files"
isnt "${f[4]}" "${f[5]}" "a slash and its escape: two files"
isnt "${f[6]}" "${f[7]}" "a comma and its escape: two files"
is "$(cat "${f[6]}" 2>/dev/null)" "a,b" "  the comma's file holds the whole value"
like "${f[8]}" "^$t/params/x-@md5-[0-9a-f]{12}$" "a value with other characters: its hash"
is "$(cat "${f[8]}" 2>/dev/null)" "--opt a*b [x]" "  the file holds the value"
like "${f[9]}" "^$t/params/x-@md5-[0-9a-f]{12}$" "a value over 120 characters: its hash"
is "${f[10]}" "$t/params/x-${long%a}" "  one of 120 names its file"
is "${f[11]}" "$t/params/x-" "an empty value"
touch -d '-1 hour' "${f[0]}" "${f[8]}"; m=$(stat -c %Y "${f[0]}")
mapfile -t g < <(params cpu-read "ACCEL=tcg CPUS=2 PIN=" x "--opt a*b [x]")
is "${g[0]}" "${f[0]}" "the same value: the same file"
is "$(stat -c %Y "${f[0]}")/$(stat -c %Y "${f[8]}")" "$m/$m" "  neither written again (a stage listing it does not rerun)"
done_testing
