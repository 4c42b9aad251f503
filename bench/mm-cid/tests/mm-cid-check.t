#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-mmcid's correctness, on the host and in guests:
#   - every strategy row is "ok": counter slots sum to threads x iterations and every list node
#     is found again (the program's own checks), and, read here from the CSV, the largest mm_cid
#     a thread saw stays below min(threads + 1, CPUs allowed) (the main thread is a thread too),
#     at thread counts below, equal to and above the CPU count and with the affinity cut to 1;
#   - on a kernel with mm_cid (6.3+: AT_RSEQ_FEATURE_SIZE >= 28) node_id and mm_cid read "ok";
#     glibc's own area counts only within __rseq_size;
#   - a bad option: one line on stderr, exit 2, no run directory;
#   - in a 6.1 guest (rseq-y): node_id and mm_cid are "unavailable", the mm_cid rows too, and
#     the cpu rows pass; in a rseq-n guest even cpu_id is unavailable.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
bin=$BUILD/guest/bin/lab-mmcid
if [ ! -x "$bin" ]; then
	skip "no $bin (make $bin)" "lab-mmcid"
	done_testing; exit
fi
# bounds CSV: each strategy row's max_mm_cid against mm_cid_bound ("" when no mm_cid).
bounds() {
	csv_cols "$1" max_mm_cid mm_cid_bound --where status=ok | awk -F'\t' '$1 != "" && $1 + 0 >= $2 + 0 {
		print "ok row " NR ": max_mm_cid " $1 " >= bound " $2; bad = 1 }
		END { exit bad }'
}
rows() { csv_cols "$1" status --where status="$2" | wc -l; }

DATA=$t/data HOST_PROCS=3 "$LAB/bench/mm-cid/run" host --iters 100000 --threads 1,2,4,8 --read-iters 100000 \
	> "$t/host.out" 2>&1; r=$?
ok $r "bench/mm-cid/run host completes (checks passed)" || sed 's/^/#   /' "$t/host.out"
d=$(ls -d "$t"/data/*-mm-cid-host 2>/dev/null | head -n 1)
ok $([ -s "$d/strategies.csv" ] && [ -s "$d/reads.csv" ]; echo $?) "reads.csv and strategies.csv written"
is "$(cmp -s "$d/figures.csv" <("$LAB/bench/mm-cid/parse" "$d") && csv_cols "$d/figures.csv" figure |
	grep -c '^counter\.mm_cid\.t8$')" 1 "figures.csv written through bench/mm-cid/parse (counter.mm_cid.t8 in it)"
is "$(rows "$d/strategies.csv" FAILED)" 0 "no strategy row failed its check"
# The unit is the process: each one's CSVs kept, each row of the run's the median process's.
is "$(ls "$d/procs" 2>/dev/null | paste -sd' ')" "01 02 03" "a directory per process (HOST_PROCS=3)"
like "$(cat "$d/mm-cid.meta")" "^host_units: 3 processes" "the meta says the unit"
med=$(for k in 01 02 03; do csv_cols "$d/procs/$k/strategies.csv" ns_per_op --where strategy=list \
	--where index=cpu --where threads=2 --where cpus_allowed="$(nproc)"; done | sort -g | sed -n 2p)
is "$(csv_cols "$d/strategies.csv" ns_per_op --where strategy=list --where index=cpu --where threads=2 \
	--where cpus_allowed="$(nproc)")" "$med" "a row of the run is the median process's (list, cpu, 2 threads: $med)"
# 4 thread counts x 2 strategies x 2 indexes, and as many again on 1 CPU when more are allowed
want=$(( $(nproc) > 1 ? 32 : 16 ))
is "$(rows "$d/strategies.csv" ok)" "$want" "host: $want checked rows (4 thread counts x 4, again on 1 CPU when there are more)"
is "$(csv_cols "$d/strategies.csv" cpus_allowed | sort | uniq -c | awk '{ print $1 "x" $2 }' | paste -sd' ')" \
	"$([ "$(nproc)" -gt 1 ] && echo "16x1 16x$(nproc)" || echo 16x1)" "  half of them on 1 CPU, in a process of their own"
out=$(bounds "$d/strategies.csv"); r=$?
ok $r "host: mm_cid < min(threads + 1, CPUs allowed) on every row${out:+ ($out)}"
fs=$(sed -n 's/.*AT_RSEQ_FEATURE_SIZE \([0-9]*\).*/\1/p' "$d/mm-cid.meta")
if [ "${fs:-0}" -ge 28 ]; then
	like "$(grep '^mm_cid,own' "$d/reads.csv")" "^mm_cid,own,[0-9]+,ok,[0-9.]+," \
		"host (feature size $fs): mm_cid reads ok from our own area"
	like "$(grep '^node_id,own' "$d/reads.csv")" "^node_id,own,[0-9]+,ok," "and node_id"
	is "$(csv_cols "$d/strategies.csv" status --where index=mm_cid | grep -vcx ok)" 0 \
		"every mm_cid strategy row ran"
	g=$(csv_cols "$d/reads.csv" area_size status --where field=mm_cid --where area=glibc)
	if [ -n "$g" ]; then
		gs=${g%%$'\t'*}
		if [ "$gs" -ge 28 ]; then want=ok; else want=beyond_rseq_size; fi
		is "${g#*$'\t'}" "$want" "glibc's area (__rseq_size $gs): mm_cid is $want"
	fi
else
	skip "host kernel has no mm_cid (feature size ${fs:-0})" "host mm_cid reads"
fi

# Bad input: one line, exit 2, nothing under data/.
err=$(DATA=$t/bad "$LAB/bench/mm-cid/run" host --threads 0 2>&1 >/dev/null); r=$?
is "$r" 2 "--threads 0: the run stops"
like "$err" "^error: --threads needs a positive number" "with the reason, in one line"
is "$(printf '%s\n' "$err" | wc -l)" 1 "(one)"
ok $([ -z "$(ls -A "$t/bad" 2>/dev/null)" ]; echo $?) "and writes nothing under data/"
"$bin" --iters x >/dev/null 2>"$t/e"; r=$?
is "$r" 2 "lab-mmcid --iters x exits 2"
is "$(wc -l < "$t/e")" 1 "in one line on stderr"

cpio=$BUILD/initramfs/lab.cpio
if [ ! -f "$cpio" ] || ! grep -qa 'lab/bin/lab-mmcid' "$cpio"; then
	skip "the initramfs has no lab-mmcid (make initramfs)" "guest runs"
	done_testing; exit
fi
if require_image --part rseq-y; then
	DATA=$t/data GUEST_BOOTS=2 "$LAB/bench/mm-cid/run" rseq-y > "$t/y.out" 2>&1; r=$?
	ok $r "rseq-y guest: bench/mm-cid/run completes" || tail -n 15 "$t/y.out" | sed 's/^/#   /'
	d=$(ls -d "$t"/data/*-mm-cid-rseq-y 2>/dev/null | head -n 1)
	rel=$(sed -n 's/^kernel_release: //p' "$d/mm-cid.meta" 2>/dev/null)
	is "$(cd "$d/boots" 2>/dev/null && ls -d -- */ | tr -d / | paste -sd' ')" "01 02" "a directory per boot (GUEST_BOOTS=2)"
	like "$(cat "$d/mm-cid.meta")" "^guest_units: 2 boots, each with its own seed" "the meta says the unit"
	case $rel in
	6.1.*)
		like "$(grep '^mm_cid,' "$d/reads.csv")" ",unavailable,," "$rel: mm_cid unavailable"
		like "$(grep '^node_id,' "$d/reads.csv")" ",unavailable,," "$rel: node_id unavailable"
		like "$(grep '^cpu_id,' "$d/reads.csv")" ",ok," "$rel: cpu_id reads ok"
		is "$(csv_cols "$d/strategies.csv" status --where index=mm_cid | grep -vcx unavailable)" 0 \
			"$rel: every mm_cid strategy row says unavailable"
		is "$(csv_cols "$d/strategies.csv" status --where index=cpu | grep -vcx ok)" 0 \
			"$rel: every per-CPU row passed its check" ;;
	*)
		like "$(grep '^mm_cid,own' "$d/reads.csv")" ",ok," "$rel: mm_cid reads ok"
		out=$(bounds "$d/strategies.csv"); r=$?
		ok $r "$rel: mm_cid < min(threads + 1, CPUs allowed)${out:+ ($out)}" ;;
	esac
else
	skip "rseq-y not built" "rseq-y guest"
fi
if require_image --part rseq-n; then
	out=$("$LAB/scripts/boot" rseq-n -- lab-mmcid --mode reads --read-iters 1000 2>&1); r=$?
	ok $r "rseq-n guest: lab-mmcid --mode reads runs"
	like "$out" "cpu_id,own,32,unavailable,," "and says cpu_id is unavailable (no rseq at all)"
	# Strategies too: without rseq no index is ever written, so none may wait for one.
	out=$(TIMEOUT=120 "$LAB/scripts/boot" rseq-n -- \
		lab-mmcid --mode strategies --threads 1 --restrict none --iters 1000 2>&1); r=$?
	ok $r "rseq-n guest: lab-mmcid --mode strategies ends"
	is "$(printf '%s\n' "$out" | grep -cE '^(counter|list),(cpu|mm_cid),1,.*,unavailable,')" 4 \
		"  with every strategy row unavailable"
else
	skip "rseq-n not built" "rseq-n guest"
fi
done_testing
