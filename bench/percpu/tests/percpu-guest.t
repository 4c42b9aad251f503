#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu in guests: on rseq-y every strategy stays exact under 6 x NCPU disturbed threads
# and the interleaving check passes, covering what it covers on the host;
# on rseq-n the rseq rows are skipped with ENOSYS and the others still run; on rseq-stats the
# kernel's counters land in the CSV: a signal-disturbed rseq row shows ip fixups, an undisturbed
# pinned one close to none, and the CPU-read rows get their kernel columns too.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
guest_tier "kernel images (rseq-y, rseq-n, rseq-stats)"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
n=$("$BUILD/guest/bin/lab-percpu" --list | wc -l)
nrseq=$("$BUILD/guest/bin/lab-percpu" --list | grep -c rseq)
BOOT_TIMEOUT=200

if require_image --part rseq-y; then
	guest_check rseq-y "$n" "all $n strategies exact under yield,migrate,signal" lab-percpu --check
else
	skip "no rseq-y image" "rseq-y check"; skip "no rseq-y image" "rseq-y exact"
fi

# The interleaving check runs in a guest as on the host (ptrace without process_vm_readv or
# schedstat there), and covers the same instructions and aborts: the binary is the same.
if require_image --part rseq-y; then
	m=counter-rseq,lock-rseq
	out=$(boot rseq-y -- lab-percpu --interleave --method $m); rc=$?
	host=$("$BUILD/guest/bin/lab-percpu" --interleave --method $m 2>&1)
	ok $rc "rseq-y: lab-percpu --interleave passes in the guest"
	cov() { sed -n 's/^#   \([a-z-]*\): \(instructions [0-9]*\), passes [0-9]*, \(interleavings [0-9]*, aborts [0-9]*\),.*/\1 \2 \3/p'; }
	is "$(cov <<<"$out")" "$(cov <<<"$host")" "rseq-y: the same boundaries and aborts as on the host"
else
	skip "no rseq-y image" "rseq-y interleave"; skip "no rseq-y image" "rseq-y coverage"
fi

if require_image --part rseq-n; then
	out=$(OUTDIR=$t/n boot rseq-n -- sh -c 'lab-percpu --check --check-ops 2000 &&
		lab-percpu --threads 1 --reps 1 --duration 5 --out /out'); rc=$?
	ok $rc "rseq-n: check and bench exit 0"
	is "$(grep -c '# SKIP ENOSYS' <<<"$out")" "$nrseq" "rseq-n: the $nrseq rseq rows skip with ENOSYS"
	is "$(grep -c '^ok [0-9]* - ' <<<"$out" | head -n 1)" "$n" "rseq-n: the other rows run and pass"
	is "$(csv "$t/n/percpu.csv" counter-rseq status)" ENOSYS "rseq-n: counter-rseq row says ENOSYS"
	is "$(csv "$t/n/percpu.csv" counter-getcpu-atomic status)" ok "rseq-n: getcpu+atomic row ran"
else
	for i in 1 2 3 4 5; do skip "no rseq-n image" "rseq-n $i"; done
fi

if require_image --part rseq-stats; then
	args="--method counter-rseq,list-rseq --threads 1 --reps 2 --duration 50"
	OUTDIR=$t/s boot rseq-stats -- sh -c "mkdir -p sig quiet &&
		lab-percpu $args --disturb signal --signal-us 25 --out sig &&
		lab-percpu $args --out quiet && lab-cpuread --reps 1 --duration 10 --out /out" > "$t/s.log"
	rc=$?
	ok $rc "rseq-stats: the runs exit 0"
	[ $rc -eq 0 ] || diag "$(tail -n 5 "$t/s.log")"
	# Both rseq rows summed: where a timer lands is up to the emulator, and one row alone saw
	# none in 1 of 28 runs at a 100 us period; at 25 us each row sees hundreds per Mop.
	sum() { awk '/^[0-9.]+$/ { s += $1; n++ } END { if (n == 2) printf "%g", s }'; }
	fix=$( (csv "$t/s/sig/percpu.csv" counter-rseq k_fixup_per_mop; echo
		csv "$t/s/sig/percpu.csv" list-rseq k_fixup_per_mop; echo) | sum)
	ab=$( (csv "$t/s/sig/percpu.csv" counter-rseq aborts_per_mop; echo
		csv "$t/s/sig/percpu.csv" list-rseq aborts_per_mop; echo) | sum)
	quiet=$( (csv "$t/s/quiet/percpu.csv" counter-rseq k_fixup_per_mop; echo
		csv "$t/s/quiet/percpu.csv" list-rseq k_fixup_per_mop; echo) | sort -g | tail -n 1)
	diag "signal-disturbed: ${fix:-none} ip fixups and ${ab:-none} aborts per Mop (two rows); undisturbed: ${quiet:-none}"
	ok $(perl -e 'exit !($ARGV[0] =~ /^[0-9.]+(e[-+]?[0-9]+)?$/ && $ARGV[0] > 0)' "$fix"; echo $?) \
		"rseq-stats: signals in rseq sections show as kernel ip fixups (k_fixup_per_mop > 0)"
	# Every fixup sends the thread to its abort handler, which counts it: aborts >= fixups.
	for m in counter-rseq list-rseq; do
		f=$(csv "$t/s/sig/percpu.csv" $m k_fixup_per_mop); a=$(csv "$t/s/sig/percpu.csv" $m aborts_per_mop)
		ok $(perl -e 'exit !("@ARGV" =~ /^[0-9.]+ [0-9.]+$/ && $ARGV[0] <= $ARGV[1])' "$f" "$a"; echo $?) \
			"rseq-stats: $m: the kernel's fixups ($f) do not exceed the aborts seen ($a)"
	done
	ok $(perl -e 'exit !($ARGV[0] =~ /^[0-9.]+(e[-+]?[0-9]+)?$/ && $ARGV[0] < 10)' "$quiet"; echo $?) \
		"rseq-stats: an undisturbed pinned row sees close to none (< 10 per Mop)"
	like "$(csv "$t/s/cpu-read.csv" empty k_slowp_per_mop)" '^[0-9.]+$' \
		"rseq-stats: CPU-read rows get kernel columns too"
else
	for i in 1 2 3 4 5 6; do skip "no rseq-stats image" "rseq-stats $i"; done
fi
if require_image --part rseq-y; then
	out=$(OUTDIR=$t/y boot rseq-y -- lab-percpu --threads 1 --reps 1 --duration 5 \
		--method counter-rseq --out /out); rc=$?
	ok $rc "rseq-y: the counter-rseq run exits 0"
	[ $rc -eq 0 ] || diag "$(tail -n 5 <<<"$out")"
	is "$(csv "$t/y/percpu.csv" counter-rseq k_fixup_per_mop)" "" \
		"rseq-y (no stats file): kernel columns are empty, not zero"
else
	skip "no rseq-y image" "rseq-y run"; skip "no rseq-y image" "empty kernel columns"
fi
done_testing
