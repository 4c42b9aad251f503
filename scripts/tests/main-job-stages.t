#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job's stages are file targets: in a build tree where everything is up to date
# (made so with make -t, nothing run), `make` does nothing but say so; touching one bench's
# source reruns that bench's stages and the report only (no kernel, no other bench); a
# changed parameter reruns its bench's stage. Figures come from `make -n` (nothing runs).
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cd "$LAB" || exit 1
mk() { make --no-print-directory BUILD="$t/build" PLOTS="$t/plots" DATA="$t/data" "$@"; }

# make -t touches every target; it cannot make directories, so make each it names missing.
uptodate() {
	local i err
	# The folders of every file make -n -t names, made at once: else each is found missing by a
	# make -t of its own (a whole make run apiece).
	mk -n -t all 2>/dev/null | sed -n 's/^touch //p' | xargs -r -d '\n' dirname -- | sort -u |
		xargs -r -d '\n' mkdir -p --
	for i in $(seq 1 60); do
		err=$(mk -t all 2>&1 >/dev/null) && return 0
		d=$(printf '%s\n' "$err" | sed -n 's/.*touch: open: \(.*\): No such file or directory/\1/p' | head -n 1)
		[ -n "$d" ] || { printf '%s\n' "$err" | tail -n 3 | sed 's/^/# /'; return 1; }
		mkdir -p "$(dirname "$d")"
	done
	return 1
}
uptodate; ok $? "make -t brings a scratch build tree up to date"
mk -q "$t/plots/report.txt"; ok $? "make -q: the report and every stage before it are then up to date"
is "$(mk all 2>&1)" "==> main job up to date; report: $t/plots/report.txt" \
	"make with nothing changed does nothing but say so"

# stages FILE: the stage names make -n would run after FILE changed.
stages() { mk -n -W "$1" all 2>/dev/null | sed -n 's/^scripts\/stage "\([^"]*\)".*/\1/p; s/^scripts\/build-kernel /build-kernel /p'; }
s=$(stages bench/cpu-read/cpu-read.c)
like "$s" "^CPU reads on the host$" "a CPU-read source change reruns the host CPU reads"
like "$s" "^CPU reads in a rseq-y guest$" "  and the guest CPU reads"
like "$s" "^instructions/op under icount: rseq-n vs rseq-y$" "  and the icount comparison, of two variants by name"
like "$s" "^report from data/$" "  and the report"
is "$(printf '%s\n' "$s" | grep -c -e '^build-kernel' -e 'hackbench' -e 'per-CPU')" 0 \
	"  and no kernel, hackbench or per-CPU stage"
s=$(stages bench/hackbench/guest-run)
like "$s" "^hackbench A/B$" "a hackbench script change reruns hackbench"
is "$(printf '%s\n' "$s" | grep -c -e '^build-kernel' -e 'CPU reads')" 0 "  and no kernel or CPU-read stage"
s=$(stages kernel/fragments/rseq-n.config)
like "$s" "^build-kernel rseq-n$" "a fragment change rebuilds its kernel"
is "$(printf '%s\n' "$s" | grep -c '^build-kernel rseq-y')" 0 "  and not the kernel that does not use it"
mk -n compare-prereqs ACCEL=icount HB_LOOPS=9 > /dev/null 2>&1
mk -q "$t/plots/report.txt"; ok $? "a make run with other knobs leaves the main job up to date"
s=$(mk -n all HB_LOOPS=7 2>/dev/null | sed -n 's/^scripts\/stage "\([^"]*\)".*/\1/p')
like "$s" "^hackbench A/B$" "a changed hackbench parameter reruns hackbench"
is "$(printf '%s\n' "$s" | grep -c 'CPU reads')" 0 "  and nothing else that does not read it"
done_testing
