#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ctxsw on the host: it reaches the asked rseq state (off: glibc's area unregistered;
# on: glibc's, or its own when glibc was told not to register) and checks it can do so by
# asking the kernel, prints every figure for every batch, and refuses bad arguments.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-ctxsw
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - lab-ctxsw is built (make $bin)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
run() { bounded 60 "$bin" --iters 200 --batches 2 "$@"; }

if ! run --rseq on > "$t/on" 2>"$t/err"; then
	skip "this host kernel cannot register rseq ($(cat "$t/err"))" "host rseq states"
else
	like "$(cat "$t/on")" '^rseq_state: on' "--rseq on: registered"
	run --rseq off > "$t/off"; ok $? "--rseq off runs"
	like "$(cat "$t/off")" '^rseq_state: off' "--rseq off: glibc's registration undone"
	GLIBC_TUNABLES=glibc.pthread.rseq=0 run --rseq on > "$t/own"; ok $? "--rseq on without glibc's area"
	like "$(cat "$t/own")" '^rseq_state: on' "  registers its own area"
	GLIBC_TUNABLES=glibc.pthread.rseq=0 run --rseq keep > "$t/keep"
	like "$(cat "$t/keep")" '^rseq_state: off' "--rseq keep under rseq=0: off, as glibc left it"
	for m in pipe_self pipe_roundtrip switch signal; do
		is "$(grep -c "^$m [12] -\?[0-9]" "$t/on")" 2 "$m: one figure per batch"
	done
	"$LAB/bench/ctxsw/parse-output" "$t/on" >/dev/null; ok $? "the output parses"
	run --rseq on --seed 12 > "$t/seeded"; ok $? "--seed 12 runs"
	like "$(cat "$t/seeded")" '^seed: 12$' "  and says its seed"
fi
for bad in "--rseq maybe" "--iters 0" "--iters x" "--batches" "--frob" "--seed" "--seed x" "--seed -1" "--seed 2000000"; do
	# shellcheck disable=SC2086
	"$bin" $bad >/dev/null 2>"$t/err"; rc=$?
	is "$rc" 2 "bad arguments '$bad': exit 2"
done
like "$(cat "$t/err")" '^usage: lab-ctxsw' "with the usage line"
done_testing
