#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A guest that panics, one that never reaches init and a command that outlives its timeout all
# end as failures within their bound, with a one-line reason and the last console lines. Only
# kernel lines are crashes: a guest program printing "BUG:" is not. A reused OUTDIR never
# reports the previous run's status. A guest command's own 124 or 125 is its status, told apart
# from the harness's failures by the "error:" line and lab-boot.info.
# (scripts/boot acting on each kind of crash is checked without an image: boot-crash-replay.t.)
. "$(dirname "$0")/tap.sh"
v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
require_image "${v:-${TEST_VARIANTS%% *}}"
boot=$LAB/scripts/boot
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
field() { sed -n "s/^$2: //p" "$1/lab-boot.info" 2>/dev/null; }

# No init where we say: the kernel cannot mount a root and panics.
t0=$SECONDS
out=$(APPEND="rdinit=/no/such/init" TIMEOUT=60 OUTDIR=$t/p "$boot" "$v" -- true 2>&1); r=$?
is "$r" 125 "a panicking guest fails (status 125)"
like "$out" "^error: $v \((kvm|tcg)\): kernel crashed: Kernel panic" "with a one-line reason"
like "$out" "last console lines" "and the last console lines"
ok $((SECONDS - t0 >= 60)) "well within its bound ($((SECONDS - t0)) s)"
is "$(field "$t/p" boot)/$(field "$t/p" guest_status)" "failed: crash/none" "lab-boot.info: boot failed (crash), no guest status"
# A failed boot keeps its console log (path printed), not the megabytes of its initrd copy.
log=$(sed -n 's/^  last console lines (\(.*\)):$/\1/p' <<<"$out")
ok $([ -s "$log" ]; echo $?) "the failed boot's console log is kept ($log)"
run=$(dirname "$log")
is "$(ls "$run" 2>/dev/null | tr '\n' ' ')" "console.log qemu.log " "and nothing else of its run directory"
rm -rf "$run"

# The crash switches are on in the guest (panic_on_warn always; the RCU stall panic where the
# kernel has TREE_RCU and sysctl), so a WARN or a stall ends the run as a crash.
out=$(QUIET=0 "$boot" "$v" -- cat /proc/sys/kernel/panic_on_warn /proc/sys/kernel/panic_on_rcu_stall 2>/dev/null); r=$?
is "$r/$(printf '%s\n' "$out" | tr '\n' ' ')" "0/1 1 " "the guest runs with panic_on_warn=1 and panic_on_rcu_stall=1"

# A program printing crash words on the console is not a crash.
out=$("$boot" "$v" -- sh -c 'echo "BUG: kernel NULL pointer dereference"; echo "[    1.234567] WARNING: CPU: 0 PID: 1 at x"; echo "Kernel panic - not syncing: not really"; echo Oops' 2>&1); r=$?
is "$r" 0 "a guest printing BUG:, WARNING:, Kernel panic, Oops is not a crash (status 0)"
[ $r -eq 0 ] || printf '%s\n' "$out" | head -n 3 | sed 's/^/#   /'

# A reused OUTDIR: the old lab-status must not come back for a guest that reports nothing
# (reboot -f: the guest goes down before its init sends /out).
mkdir -p "$t/reuse"; echo 0 > "$t/reuse/lab-status"; echo old > "$t/reuse/lab-output"
out=$(OUTDIR=$t/reuse "$boot" "$v" -- reboot -f 2>&1); r=$?
is "$r" 125 "a guest that exits without reporting fails (125), whatever an old lab-status said"
like "$out" "^error: $v \([a-z]+\): guest exited without reporting a status" "saying so"
ok $([ ! -e "$t/reuse/lab-output" ]; echo $?) "the old lab-output is gone too"

# The two channels: the command's own 124 and 125 are its status, without an "error:" line.
for s in 124 125; do
	err=$(OUTDIR=$t/s$s "$boot" "$v" -- sh -c "exit $s" 2>&1 >/dev/null); r=$?
	is "$r" "$s" "a guest command's own exit $s comes back as $s"
	ok $(grep -q '^error:' <<<"$err"; echo $((!$?))) "with no error: line (the harness did not fail)"
	like "$err" "guest command exited $s" "and the harness saying the command exited $s"
	is "$(field "$t/s$s" boot)/$(field "$t/s$s" guest_status)" "ok/$s" "lab-boot.info: boot ok, guest_status $s"
done

# The command outlives the bound.
t0=$SECONDS
out=$(TIMEOUT=15 OUTDIR=$t/t "$boot" "$v" -- sleep 1000 2>&1); r=$?
is "$r" 124 "a command past its timeout fails (status 124)"
like "$(head -n 1 <<<"$out")" "^error: $v \([a-z]+\): guest command did not finish within 15 s$" "first line: error: and why"
is "$(field "$t/t" boot)/$(field "$t/t" guest_status)" "failed: timeout/none" "lab-boot.info: boot failed (timeout), no guest status"
ok $((SECONDS - t0 >= 25)) "and the run ends within the bound ($((SECONDS - t0)) s)"
rm -rf "$(dirname "$(sed -n 's/^  last console lines (\(.*\)):$/\1/p' <<<"$out")")"

# A guest that never gets to init: too little memory to unpack the initramfs.
t0=$SECONDS
out=$(MEM=40M TIMEOUT=30 "$boot" "$v" -- true 2>&1); r=$?
ok $((r == 0)) "a guest that cannot start its init fails (status $r)"
like "$out" "^error: $v" "with a one-line reason"
ok $((SECONDS - t0 >= 40)) "within the bound ($((SECONDS - t0)) s)"
rm -rf "$(dirname "$(sed -n 's/^  last console lines (\(.*\)):$/\1/p' <<<"$out")")"
done_testing
