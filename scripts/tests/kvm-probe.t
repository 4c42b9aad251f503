#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/kvm-probe against a stand-in QEMU (first on PATH) and a stand-in /dev/kvm (KVM_DEV):
# the trial boot ignores the caller's APPEND, MEM, GUEST_ENV, CPUS, TIMEOUT; "tcg" is cached,
# with its reason, only when QEMU itself failed; a guest that panics under KVM is not cached as
# "tcg"; KVM_PROBE_REFRESH=1 probes again; no temporary directory is left.
. "$(dirname "$0")/tap.sh"
v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
require_image "${v:-${TEST_VARIANTS%% *}}" "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/build" "$t/tmp"
for d in images initramfs tools; do ln -s "$BUILD/$d" "$t/build/$d"; done
cat > "$t/bin/qemu-system-x86_64" <<'QEMU'
#!/usr/bin/env bash
# A stand-in QEMU: FAKE_QEMU=nokvm|panic|ok says what happens; its arguments go to FAKE_ARGS.
[ "$1" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
printf '%s\n' "$@" > "$FAKE_ARGS"
n=0 console= data=
while [ $# -gt 0 ]; do
	# The command's archive (run.env with GUEST_ENV) ends the initrd, stored as plain text.
	[ "$1" = -initrd ] && tail -c 4096 "$2" > "$FAKE_ARGS.initrd-tail"
	if [ "$1" = -serial ]; then n=$((n + 1)); if [ $n = 1 ]; then console=${2#file:}; else data=${2#file:}; fi; shift; fi
	shift
done
case $FAKE_QEMU in
hang) sleep 60 ;;
nokvm) echo "Could not access KVM kernel module: Permission denied" >&2; exit 1 ;;
panic) printf '[    0.000000] Linux version 6.1\r\n[    0.400000] Kernel panic - not syncing: stand-in\r\n' > "$console" ;;
ok) printf '[    0.000000] Linux version 6.1\r\nLAB: init reached after 0.1 s\r\n' > "$console"
	d=$(mktemp -d); echo 0 > "$d/lab-status"; : > "$d/lab-output"
	{ echo LAB-DATA-BEGIN; tar -c -C "$d" . | base64; echo LAB-DATA-END; } > "$data"; rm -rf "$d" ;;
esac
QEMU
chmod +x "$t/bin/qemu-system-x86_64"
: > "$t/kvm"
export PATH="$t/bin:$PATH" BUILD="$t/build" KVM_DEV="$t/kvm" TMPDIR="$t/tmp" FAKE_ARGS="$t/args"
probe() { "$LAB/scripts/kvm-probe" "$v" 2>"$t/err"; }
cache=$t/build/kvm-probe

# QEMU cannot use KVM, and the caller's environment is set as a bench would set it.
out=$(FAKE_QEMU=nokvm APPEND=caller-append MEM=64M GUEST_ENV=CALLER=1 CPUS=4 TIMEOUT=1 probe)
is "$out" tcg "QEMU failing under KVM: tcg"
is "$(sed -n 2p "$cache")" tcg "cached as tcg"
like "$(sed -n 3p "$cache")" '^reason: .*failed before its kernel ran: .*qemu exited with status 1' "the cache says why"
args=$(cat "$t/args")
ok $(grep -q caller-append <<<"$args"; echo $((!$?))) "the trial boot does not get the caller's APPEND"
is "$(grep -A1 '^-m$' <<<"$args" | tail -n 1)/$(grep -A1 '^-smp$' <<<"$args" | tail -n 1)" "512M/1" "nor MEM or CPUS (512M, 1 vCPU)"
like "$(grep -a -o 'export [A-Z_]*=[^ ]*' "$t/args.initrd-tail")" 'LAB_VARIANT=' "(the guest's environment is readable here)"
ok $(grep -aq 'CALLER=1' "$t/args.initrd-tail"; echo $((!$?))) "nor GUEST_ENV"
rm -f "$t/args"
is "$(FAKE_QEMU=ok probe)" tcg "the answer is cached: tcg again"
ok $([ ! -e "$t/args" ]; echo $?) "without a new trial boot"

# Refreshing: a working KVM.
is "$(KVM_PROBE_REFRESH=1 FAKE_QEMU=ok probe)" kvm "KVM_PROBE_REFRESH=1 probes again: kvm"
like "$(cat "$cache")" $'\nkvm\nreason: a trial boot of' "cached as kvm, with its reason"

# A guest kernel that panics under KVM: KVM works, the variant does not; nothing cached.
rm -f "$cache"
is "$(KVM_PROBE_REFRESH=1 FAKE_QEMU=panic probe)" kvm "a guest panic under KVM: kvm (the boot will report the crash)"
ok $([ ! -e "$cache" ]; echo $?) "and not cached"
like "$(cat "$t/err")" "KVM ran the $v kernel, which then failed: .*kernel crashed: Kernel panic.*not cached" "saying why"

# No usable /dev/kvm.
is "$(KVM_DEV=$t/none FAKE_QEMU=ok probe)" tcg "no /dev/kvm: tcg"
like "$(sed -n 3p "$cache")" "^reason: no usable $t/none" "cached with that reason"

# The trial boot stops before QEMU (here: no initramfs): tcg for now, nothing cached.
rm -f "$cache"; mv "$t/build/initramfs" "$t/build/initramfs.away"
is "$(KVM_PROBE_REFRESH=1 FAKE_QEMU=ok probe)" tcg "a trial boot that stops before QEMU runs: tcg"
ok $([ ! -e "$cache" ]; echo $?) "not cached"
like "$(cat "$t/err")" "stopped before QEMU ran: .*no initramfs.*not cached" "saying why"
mv "$t/build/initramfs.away" "$t/build/initramfs"

# Ctrl-C during the trial boot: the probe stops at once and caches nothing.
rm -f "$cache" "$t/args"
FAKE_QEMU=hang setsid "${SIGINT_DEFAULT[@]}" "$LAB/scripts/kvm-probe" "$v" >/dev/null 2>&1 &
pid=$!
for i in $(seq 1 40); do sleep 0.25; [ -s "$t/args" ] && [ "$(cat "$t/args" 2>/dev/null | head -c1)" ] && break; done
sleep 1
t0=$(date +%s%N); kill -INT -- "-$pid"; wait "$pid"; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
ok $((rc == 0 || ms > 5000)) "Ctrl-C in the trial boot: the probe stops (status $rc, $ms ms)"
ok $([ ! -e "$cache" ]; echo $?) "and caches nothing"
is "$(ls -A "$t/tmp")" "" "no temporary directory of the probe is left"
is "$(ls -A "$t/build/runs" 2>/dev/null)" "" "no run directory of its trial boots is left"
done_testing
