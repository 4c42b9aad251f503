#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The 2015 series on KVM's guest-entry path: booted with turner-2015 (a KVM host) under TCG,
# whose CPU model has SVM, turner-kvm runs a nested guest with KVM_RUN from a thread that
# registered a 2015 CPU pointer while a second thread on its CPU takes turns with it. Every
# switch has KVM's loop run the notify-resume work with no user registers. Without the
# series' regs == NULL check the guest kernel oopses (oops=panic: the boot fails and no plan
# is printed); with the flag raised again there the nested guest stops advancing.
# KVM_VARIANT names another variant (the check of this test itself).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
V=${KVM_VARIANT:-turner-2015}
cpio=$BUILD/initramfs/lab.cpio
require_image "$V" "$cpio"
grep -q '^CONFIG_KVM_AMD=y' "$BUILD/images/$V.config"; ok $? "$V is a KVM host (CONFIG_KVM_AMD=y)"
grep -q '^CONFIG_RSEQ_TURNER=y' "$BUILD/images/$V.config"; ok $? "$V has CONFIG_RSEQ_TURNER=y"
grep -qa 'lab/bin/turner-kvm' "$cpio"; ok $? "the initramfs has turner-kvm"

# TCG whatever ACCEL says: its CPU model emulates SVM; a KVM host's CPU has it only with
# nested virtualisation switched on. One vCPU (both threads share CPU 0 anyway): with two,
# QEMU 7.2's TCG was once seen running a stale int3 at the jump label the registration had
# just patched, on both vCPUs, after the kernel's patching had finished (an oops in
# exit_to_user_mode_prepare), a race of the emulator's cross-modifying code, not the series'.
CPUS=1 ACCEL=tcg GUEST_TIMEOUT=${TURNER_TIMEOUT:-300} guest_run turner-kvm "$V" turner-kvm --seconds 2
ok $r "turner-kvm passes in the $V guest (status $r)"
like "$out" "^ok [0-9]+ - KVM_RUN ran until the alarm" "the registered thread ran KVM_RUN until the alarm"
like "$out" "^ok [0-9]+ - the nested guest ran \\([1-9]" "the nested guest ran"
like "$out" "^ok [0-9]+ - the registered thread was switched [0-9]+ times inside KVM_RUN" \
	"and was switched inside KVM_RUN"
like "$out" "^ok [0-9]+ - the nested guest kept running between switches" \
	"the guest-entry loop did not spin"
like "$out" "^1\.\.[1-9][0-9]*\$" "and it printed its plan (the kernel lived)"
done_testing
