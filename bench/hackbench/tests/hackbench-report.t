#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hackbench's per-architecture section (bench/hackbench/report.py) from made-up runs: each
# architecture's rseq-n mean and lab-ab's change with its interval per mode, side by side for
# the kernels they share; nothing with one architecture, for TCG runs or unshared releases;
# idle-tick modes named; 72 columns.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - $ab is built (make $ab)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# mkrun NAME ARCH ACCEL RELEASE BASE: 3 columns x 4 modes x 4 boots (rounds) of 1 run; rseq-n's runs are BASE +
# 0..3 thousandths, rseq-y/unreg's 1 % higher, rseq-y/reg's the same as rseq-n's; the
# thread/pipe runs of rseq-n had an idle tick.
mkrun() {
	local d=$t/data/$1 v m r val idle
	mkdir -p "$d"
	{ printf 'bench: hackbench\naccel: %s\nlab_arch: %s\n' "$3" "$2"
	  printf 'kernel rseq-n: %s config_sha256 x rseq n\nkernel rseq-y: %s config_sha256 y rseq y\n' "$4" "$4"
	} > "$d/hackbench.meta"
	{ echo "variant,kernel,glibc_rseq,accel,round,rep,mode,ipc,groups,fds,loops,datasize,value,unit,notify_resume,cpu_id_updates,vtime_ns,idle_ticks,arch"
	  for v in rseq-n rseq-y/unreg rseq-y/reg; do
		for m in process,pipe process,socket thread,pipe thread,socket; do
			for r in 0 1 2 3; do
				val=$(awk -v b="$5" -v r=$r -v v=$v 'BEGIN { x = b + r / 1000; if (v == "rseq-y/unreg") x *= 1.01; printf "%.5f", x }')
				idle=0; [ "$v,$m" = "rseq-n,thread,pipe" ] && idle=1
				echo "$v,${v%%/*},x,$3,$((r + 1)),1,$m,4,40,200,100,$val,Ginsn,,,1,$idle,$2"
			done
		done
	  done; } > "$d/hackbench.csv"
}
# The per-architecture table only (the runs' own A/B sections come before it).
section() { (cd "$LAB/scripts" && python3 -B -m labreport.show "$LAB/bench/hackbench/report.py" "$t/data") |
	sed -n '/^hackbench RSEQ=y vs RSEQ=n per architecture/,$p'; }

mkrun 20260101T000001Z-vm-hackbench x86_64 icount 6.1.0 0.5
mkrun 20260101T000002Z-vm-hackbench-arm64-tcg arm64 tcg 6.1.0 2.0
is "$(section)" "" "one architecture under icount (the other's run is TCG): no section"
mkrun 20260101T000003Z-vm-hackbench-arm64 arm64 icount 6.12.0 0.7
is "$(section)" "" "two architectures on different releases: no section"
mkrun 20260101T000004Z-vm-hackbench-arm64 arm64 icount 6.1.0 0.7
out=$(section)
like "$out" 'kernels 6\.1\.0; % change' "two architectures on one release: the table"
like "$out" '^proc/pipe +x86_64 +0\.50[12] +\+1\.0 \[\+[0-9.]+, \+[0-9.]+\]\* +\+0\.0 \[[-+]' \
	"x86_64's rseq-n mean, unreg +1.0 % significant with its interval, reg +0.0"
like "$out" '^ +arm64 +0\.70[12] +\+1\.0 \[' "arm64's row beside it"
like "$out" 'idle ticks in the runs\): thr/pipe\.' "the idle-tick mode is named"
like "$out" '^x86_64: run 20260101T000001Z, 4 units a side$' "x86_64's run and its runs a side"
like "$out" '^arm64: run 20260101T000004Z, 4 units a side$' "arm64's: the newest of that arch and release"
is "$(printf '%s\n' "$out" | awk 'length($0) > 72' | wc -l)" 0 "72 columns at most"
done_testing
