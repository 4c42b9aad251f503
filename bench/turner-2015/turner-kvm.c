// SPDX-License-Identifier: MIT
/*
 * turner-kvm: the 2015 interface's notify-resume hook on KVM's guest-entry path, in a guest
 * booted with the turner-2015 variant (a KVM host) on a CPU with SVM (QEMU's TCG emulates it).
 *
 * A thread registers a 2015 CPU pointer, then runs a nested guest with KVM_RUN while a second
 * thread pinned to the same CPU takes turns with it (lab/kvm-loop.h). Each switch of the
 * registered thread sets TIF_NOTIFY_RESUME, and KVM's guest-entry loop runs that work with no
 * user registers (resume_user_mode_work(NULL)). The hook must not touch the registers (a NULL
 * dereference: the guest kernel oopses and this program never prints its plan), and must not
 * set the flag again (the loop would spin: the nested guest would stop advancing after the
 * first switch). The second thread sees whether the nested guest ran while it was away.
 *
 * Options: --seconds N how long KVM_RUN runs (default 2). TAP on stdout; exit 0 only if every
 * case passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lab/kvm-loop.h"
#include "lab/tap.h"
#include "turner-abi.h"

int main(int argc, char **argv)
{
	static uint32_t cpu_ptr = UINT32_MAX;
	struct lab_kvm_loop g;
	struct lab_kvm_turns t;
	long seconds = 2;
	char err[128];
	int r;

	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = strtol(argv[2], NULL, 10);
	if (seconds < 1) {
		fprintf(stderr, "usage: turner-kvm [--seconds N (at least 1)]\n");
		return 2;
	}
	r = lab_kvm_loop_open(&g, err, sizeof(err));
	if (!tap_ok(r == 0, "a real-mode nested guest%s%s", r ? ": " : "", r ? err : ""))
		return tap_done();
	r = turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)&cpu_ptr, 0, 0);
	if (!tap_ok(r == 0, "a 2015 CPU pointer registered (%s)", r ? strerror(errno) : "0"))
		return tap_done();
	r = lab_kvm_loop_run(&g, seconds, &t, err, sizeof(err));
	if (!tap_ok(r == 0, "CPU 0 shared with a spinner%s%s", r ? ": " : "", r ? err : ""))
		return tap_done();

	tap_ok(t.run_ret == -1 && t.run_errno == EINTR, "KVM_RUN ran until the alarm (returned %d, %s)",
	       t.run_ret, t.run_ret == -1 ? strerrorname_np(t.run_errno) : "no error");
	tap_ok(*g.counter > 0, "the nested guest ran (%u increments)", *g.counter);
	tap_ok(t.caller_switches >= 5, "the registered thread was switched %ld times inside KVM_RUN "
	       "(its notify-resume work ran with no user registers)", t.caller_switches);
	/*
	 * Not every turn, and fewer on a busy host (most likely the guest's timer is already due
	 * when the thread is switched back in: the nested guest exits before its first
	 * instruction). A re-raised flag stops it in every turn.
	 */
	tap_ok(t.spinner_turns >= 5 && t.spinner_turns_advanced * 4 >= t.spinner_turns,
	       "the nested guest kept running between switches: it advanced in %ld of the %ld "
	       "turns the spinner was switched out, at least 1 in 4 (a re-raised flag would stop it)",
	       t.spinner_turns_advanced, t.spinner_turns);
	tap_ok(cpu_ptr == 0, "the CPU pointer reads the pinned CPU (%u)", cpu_ptr);
	return tap_done();
}
