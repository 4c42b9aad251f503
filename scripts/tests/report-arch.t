#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's architecture axis (labreport/axis_arch.py) from made-up runs (scripts/arch/run's layout): the seed's
# arm32 figures beside each architecture's icount counts, speedups computed from the rows,
# TCG labelled as emulator figures, other runs ignored, 72 columns, nothing without runs.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
hdr="variant,accel,method,label,path,glibc_rseq,threads,cpu,status,ns_per_op,instructions_per_op"
# mkrun NAME ARCH ACCEL SCALE: a run whose figures are SCALE x a fixed base per row.
mkrun() {
	local d=$t/data/$1; mkdir -p "$d"
	printf 'lab_arch: %s\n' "$2" > "$d/cpu-read.meta"
	printf 'accel: %s\narch: %s\nkernel_release: 6.1.0\nqemu: QEMU emulator version 7.2.0\n' "$3" "$2" > "$d/lab-boot.info"
	{ echo "$hdr"
	  for m in empty:3 rseq-own:4 sched_getcpu-rseq-off:40 syscall:200; do
		echo "x,$3,${m%%:*},l,,off,1,0,ok,$((${m##*:} * $4)),$((${m##*:} * $4))"; done
	  echo "x,$3,vdso,l,,off,1,0,unsupported: no __vdso_getcpu,,"; } > "$d/cpu-read.csv"
	{ echo "$hdr"; for m in counter-getcpu-atomic:50 counter-rseq:20 lock-cmpxchg:60 lock-rseq:30; do
		echo "x,$3,${m%%:*},l,,on,1,0,ok,$((${m##*:} * $4)),"; done; } > "$d/percpu.csv"
	{ echo "$hdr"; for m in counter-getcpu-atomic:300 counter-rseq:20 lock-cmpxchg:330 lock-rseq:30; do
		echo "x,$3,${m%%:*},l,,off,1,0,ok,$((${m##*:} * $4)),"; done; } > "$d/percpu-glibc-rseq-off.csv"
}
# tap NAME ARCH PASSED SKIPPED FAILED PLAN: a made-up TAP file in NAME's run (no plan: "").
tap() {
	local d=$t/data/$1 i n=0
	{ for i in $(seq 1 "$3"); do n=$((n + 1)); echo "ok $n - case"; done
	  for i in $(seq 1 "$4"); do n=$((n + 1)); echo "ok $n - case # SKIP one CPU"; done
	  for i in $(seq 1 "$5"); do n=$((n + 1)); echo "not ok $n - case"; done
	  [ -z "$6" ] || echo "1..$6"; } > "$d/$2"
}
section() { (cd "$LAB/scripts" && python3 -B -m labreport.show arch "$t/data"); }

mkdir -p "$t/data/20260101T000000Z-vm-rseq-y"
is "$(section)" "" "no architecture runs: no section"
mkrun 20260101T000001Z-vm-arch-x86_64-rseq-y-icount x86_64 icount 1
mkrun 20260101T000002Z-vm-arch-arm64-rseq-y-icount arm64 icount 2
mkrun 20260101T000003Z-vm-arch-arm-rseq-y-icount arm icount 3
mkrun 20260101T000004Z-vm-arch-arm-rseq-y-tcg arm tcg 5
out=$(section)
like "$out" 'rseq cpu_id read +16\.7 +12\.0 +8\.0 +4\.0 +20\.0' "rseq read: seed 16.7 ns, then arm, arm64, x86_64 insn and arm TCG ns"
like "$out" 'getcpu system call +234\.9 +600\.0 +400\.0 +200\.0' "the getcpu system call beside the seed's 234.9"
like "$out" 'counter: getcpu\+atomic \[off\] +344\.0 +900\.0' "the seed's counter row beside the glibc-rseq-off pass"
like "$out" 'vDSO getcpu +- +none +none' "no vDSO getcpu: none"
like "$out" 'counter \[off\] seed 11\.0x ours: x86_64 15\.0x, arm64 15\.0x, arm 15\.0x' "counter speedup computed (300/20)"
like "$out" 'lock \[on\] +seed - +ours: x86_64 2\.0x' "lock speedup with glibc's rseq on (60/30)"
like "$out" 'TCG columns are emulator' "TCG figures labelled as emulator figures"
like "$out" "arm TCG: one boot's figures \(no interval: no rerun\)" "a one-boot TCG run says it has no interval"
is "$(printf '%s\n' "$out" | awk 'length($0) > 72' | wc -l)" 0 "72 columns at most"
ok $(printf '%s\n' "$out" | grep -q 'our ABI tests'; [ $? -ne 0 ]; echo $?) "no ABI test files: no ABI lines"
tap 20260101T000001Z-vm-arch-x86_64-rseq-y-icount rseq-cs.tap 7 1 0 8
tap 20260101T000002Z-vm-arch-arm64-rseq-y-icount rseq-cs.tap 7 1 0 8
tap 20260101T000003Z-vm-arch-arm-rseq-y-icount rseq-cs.tap 6 1 1 8
tap 20260101T000001Z-vm-arch-x86_64-rseq-y-icount rseq-syscall-cs.tap 1 0 0 1
tap 20260101T000002Z-vm-arch-arm64-rseq-y-icount rseq-syscall-cs.tap 1 0 0 ""
out=$(section)
like "$out" 'rseq-cs +x86_64 7\+1/8 +arm64 7\+1/8 +arm 6\+1/8 FAIL' "rseq-cs per arch: passed+skipped/planned, a failed case marked"
like "$out" 'rseq-syscall-cs +x86_64 1\+0/1 +arm64 1\+0/\? FAIL +arm -$' "rseq-syscall-cs: a missing plan fails, a missing file is -"
is "$(printf '%s\n' "$out" | awk 'length($0) > 72' | wc -l)" 0 "72 columns at most, with the ABI lines"
# A TCG run merged over boots: its units and the widest range between them.
d=$t/data/20260101T000004Z-vm-arch-arm-rseq-y-tcg
printf 'lab_arch: arm\nguest_units: 5 boots, each with its own seed\n' > "$d/cpu-read.meta"
sed -i '1s/$/,ns_min,ns_max/; 2,$s/$/,,/' "$d/cpu-read.csv"
sed -i 's/^\(x,tcg,rseq-own,.*,20,20\),,$/\1,16,24/' "$d/cpu-read.csv"
like "$(section | tr '\n' ' ')" "arm TCG: the median boot's figure, 5 boots; between the boots each row moves by ±20% at most" \
	"a TCG run of boots: its units, the widest half-range (16-24 over 20)"
# A newer run of an architecture replaces the older one.
mkrun 20260101T000005Z-vm-arch-arm64-rseq-y-icount arm64 icount 4
like "$(section)" 'rseq cpu_id read +16\.7 +12\.0 +16\.0 ' "the newest arm64 run is the one shown"
done_testing
