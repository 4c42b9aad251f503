#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Our rseq counters on KVM's guest-entry path: booted with rseq-stats-kvm (the counters in a
# KVM host) under TCG, whose CPU model has SVM, rseq-stats-kvm runs a nested guest with
# KVM_RUN while a second thread on its CPU takes turns with it, both registered with rseq by
# glibc. KVM's loop runs the notify-resume work of each switch with no user registers, which
# is not a return to user mode: slowp and ids must grow with the spinner's switches only.
# With those passes counted (the series before its regs == NULL check) they grow with both
# threads' switches and this fails.
# KVM_STATS_VARIANT names another variant (the check of this test itself).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
V=${KVM_STATS_VARIANT:-rseq-stats-kvm}
cpio=$BUILD/initramfs/lab.cpio
require_image "$V" "$cpio"
grep -q '^CONFIG_KVM_AMD=y' "$BUILD/images/$V.config"; ok $? "$V is a KVM host (CONFIG_KVM_AMD=y)"
grep -q '^CONFIG_RSEQ_STATS=y' "$BUILD/images/$V.config"; ok $? "$V has CONFIG_RSEQ_STATS=y"
grep -qa 'lab/bin/rseq-stats-kvm' "$cpio"; ok $? "the initramfs has rseq-stats-kvm"

# TCG whatever ACCEL says: its CPU model emulates SVM (a KVM host's CPU has it only with
# nested virtualisation switched on). One vCPU: both threads share CPU 0 anyway.
CPUS=1 ACCEL=tcg GUEST_TIMEOUT=${KVM_STATS_TIMEOUT:-300} guest_run rseq-stats-kvm "$V" \
	rseq-stats-kvm --seconds 2
ok $r "rseq-stats-kvm passes in the $V guest (status $r)"
like "$out" "^ok [0-9]+ - the KVM thread was switched [0-9]+ times inside KVM_RUN" \
	"the KVM thread was switched inside KVM_RUN"
like "$out" "^ok [0-9]+ - slowp grew by [0-9]+: the spinner's" "slowp: the spinner's switches only"
like "$out" "^ok [0-9]+ - ids grew by [0-9]+: the spinner's" "ids: the spinner's switches only"
like "$out" "^1\.\.[1-9][0-9]*\$" "and it printed its plan"
done_testing
