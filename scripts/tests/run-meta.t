#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The record layer and the accelerator policy: lab_run_meta (bench-lib.sh) puts every shared
# run key at the top of a bench's meta, once, over the program's own values of those keys;
# accel_check/accel_apply (lib.sh) refuse a bad ACCEL, CPUS or MEM in one line and give one
# vCPU under icount, two elsewhere.
. "$(dirname "$0")/tap.sh"
. "$LAB/scripts/bench-lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
keys="lab_commit lab_describe lab_dirty host host_cpu host_microcode host_kernel host_cpus compiler glibc qemu accel vcpus mem guest_cpu kernel_release image_sha256 initramfs_sha256 variant command"
printf 'bench: x\ncompiler: cc 1\nreps: 3\n' > "$t/host.meta"
lab_run_meta "$t/host.meta" host - scripts/bench-host --reps 3
for k in $keys; do
	is "$(grep -c "^$k: " "$t/host.meta")" 1 "host run: $k once"
done
is "$(kv "$t/host.meta" accel)/$(kv "$t/host.meta" vcpus)/$(kv "$t/host.meta" guest_cpu)" none/none/host \
	"host run: no accelerator, no vCPUs, the host's CPU"
like "$(kv "$t/host.meta" compiler)" "^${CC:-cc} |^cc \\(" "the compiler's --version line wins over the program's"
is "$(kv "$t/host.meta" reps)/$(kv "$t/host.meta" bench)" 3/x "the program's other keys stay"
is "$(kv "$t/host.meta" command)" "scripts/bench-host --reps 3" "the command"
printf 'variant: rseq-y\naccel: icount\ncpus: 1\nmem: 512M\nguest_cpu: max\nqemu: QEMU 9\nkernel_release: 6.1.1\n' > "$t/info"
printf 'image_sha256: %064d\ninitramfs_sha256: %064d\n' 1 2 >> "$t/info"
lab_run_meta "$t/guest.meta" rseq-y "$t/info" scripts/bench-guest rseq-y
is "$(kv "$t/guest.meta" image_sha256) $(kv "$t/guest.meta" initramfs_sha256)" "$(printf '%064d %064d' 1 2)" \
	"guest run: the booted image's and initramfs's hashes from the boot"
is "$(kv "$t/host.meta" image_sha256)" none "host run: no image"
is "$(kv "$t/guest.meta" accel),$(kv "$t/guest.meta" vcpus),$(kv "$t/guest.meta" mem),$(kv "$t/guest.meta" guest_cpu),$(kv "$t/guest.meta" kernel_release),$(kv "$t/guest.meta" qemu)" \
	"icount,1,512M,max,6.1.1,QEMU 9" "guest run: accelerator, vCPUs, memory, CPU model, release, QEMU from the boot"
out=$( (lab_run_meta "$t/x.meta" rseq-y "$t/nope" cmd) 2>&1); r=$?
ok $((r == 0)) "a missing boot record fails"
is "$(printf '%s\n' "$out" | wc -l)" 1 "in one line ($out)"

# The accelerator policy.
pol() { (unset CPUS MEM; eval "$1"; accel_apply "$2"; echo "$CPUS $MEM") 2>&1; }
is "$(pol : icount)" "1 512M" "icount: one vCPU by default"
is "$(pol : tcg)" "2 512M" "tcg: two"
is "$(pol CPUS=3 icount)" "3 512M" "CPUS given wins"
for bad in "ACCEL=qemu" "CPUS=0" "CPUS=two" "MEM=lots" "MEM=0"; do
	out=$( (eval "export $bad"; accel_check) 2>&1); r=$?
	ok $([ $r -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; echo $?) "$bad: one-line error ($out)"
done
( export ACCEL=tcg CPUS=2 MEM=1G; accel_check ); ok $? "ACCEL=tcg CPUS=2 MEM=1G pass"
is "$(ACCEL=tcg accel_args cpu-read)" "--reps 3 --duration 40" "cpu-read's tcg defaults from its meta"
is "$(ACCEL=kvm accel_args cpu-read)" "" "none under kvm"
done_testing
