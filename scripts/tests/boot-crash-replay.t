#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/boot acts on the crash its matcher finds, without a kernel image: a stand-in QEMU
# (first on PATH) replays a recorded console log (scripts/tests/fixtures/console) and sends a
# guest status of 0, as a guest whose command finished would. A crash on the console must still
# end the run as a failed boot (125, "kernel crashed:", lab-boot.info "failed: crash"); a clean
# console, or a guest printing crash words, is the command's status 0.
. "$(dirname "$0")/tap.sh"
F=$LAB/scripts/tests/fixtures/console
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/build/images" "$t/build/initramfs" "$t/build/tools"
# Only their existence matters to the stand-in.
echo image > "$t/build/images/rseq-y.bzImage"
printf 'release: 6.1.0-stand-in\nconfig_sha256: 0\n' > "$t/build/images/rseq-y.info"
echo base > "$t/build/initramfs/lab.cpio"
printf '#!/bin/sh\ncat "$1"\n' > "$t/build/tools/gen_init_cpio"
cat > "$t/bin/qemu-system-x86_64" <<'QEMU'
#!/usr/bin/env bash
# A stand-in QEMU: the console is $FAKE_CONSOLE; the guest reports status 0 on the data port.
[ "$1" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
n=0 console= data=
while [ $# -gt 0 ]; do
	if [ "$1" = -serial ]; then n=$((n + 1)); if [ $n = 1 ]; then console=${2#file:}; else data=${2#file:}; fi; shift; fi
	shift
done
sed 's/$/\r/' "$FAKE_CONSOLE" > "$console"
d=$(mktemp -d); echo 0 > "$d/lab-status"; echo "command output" > "$d/lab-output"
{ echo LAB-DATA-BEGIN; tar -c -C "$d" . | base64; echo LAB-DATA-END; } > "$data"; rm -rf "$d"
QEMU
chmod +x "$t/bin/qemu-system-x86_64" "$t/build/tools/gen_init_cpio"
export PATH="$t/bin:$PATH" BUILD="$t/build" ACCEL=tcg TIMEOUT=20 QUIET=1
field() { sed -n "s/^$2: //p" "$1/lab-boot.info" 2>/dev/null; }
# replay LOG: boot rseq-y with LOG as its console; $out is stderr, $r the status.
replay() { out=$(FAKE_CONSOLE=$F/$1 OUTDIR=$t/o-$1 "$LAB/scripts/boot" rseq-y -- true 2>&1 >/dev/null); r=$?; }

# The seam itself: a clean console and the status the stand-in sends come back as a good boot.
replay clean.log
is "$r" 0 "clean console, guest status 0: the boot succeeds (the stand-in works)"
is "$(field "$t/o-clean.log" boot)/$(field "$t/o-clean.log" guest_status)" "ok/0" "lab-boot.info: ok, guest status 0"
replay guest-prints-crash-words.log
is "$r" 0 "a guest printing crash words: status 0, not a crash"

# Each kind of crash, though the guest sent status 0: a failed boot naming the kernel's line.
while read -r log want; do
	replay "$log"
	is "$r" 125 "$log: a crash with guest status 0 fails the boot (125)"
	like "$(head -n 1 <<<"$out")" "^error: rseq-y \(tcg\): kernel crashed: $want" "$log: error: line names the crash"
	is "$(field "$t/o-$log" boot)/$(field "$t/o-$log" guest_status)" "failed: crash/none" \
		"$log: lab-boot.info: failed: crash, no guest status"
done <<'EOF'
gpf.log general protection fault
kernel-bug-at.log kernel BUG at mm/slub.c:435!
oops-first-line.log Oops: invalid opcode
rcu-detected-stalls.log rcu: INFO: rcu_preempt detected stalls
warn.log WARNING: CPU: 1 PID: 57
oops.log BUG: kernel NULL pointer dereference
soft-lockup.log watchdog: BUG: soft lockup
hung-task.log INFO: task lab-percpu:61 blocked
EOF
done_testing
