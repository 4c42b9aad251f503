// SPDX-License-Identifier: MIT
/*
 * rseq-stats-kvm: our rseq counters on KVM's guest-entry path, in a guest booted with the
 * variant rseq-stats-kvm (the counters in a KVM host) on a CPU with SVM (QEMU's TCG emulates
 * it).
 *
 * glibc registers rseq for both threads of lab/kvm-loop.h: one runs a nested guest with
 * KVM_RUN, the other spins on the same CPU. Each switch of the first has KVM's guest-entry loop
 * run the notify-resume work with no user registers: not a return to user mode, which upstream
 * does not count. So over the run, slowp and ids grow with the spinner's switches (each ends
 * in a return to user mode), not with the KVM thread's; counting those passes would add one
 * per switch of the KVM thread to each.
 *
 * Options: --seconds N how long KVM_RUN runs (default 2). TAP on stdout; exit 0 only if every
 * case passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lab/kstats.h"
#include "lab/kvm-loop.h"
#include "lab/tap.h"

int main(int argc, char **argv)
{
	struct lab_kstats before, after;
	struct lab_kvm_loop g;
	struct lab_kvm_turns t;
	long seconds = 2, slowp, ids;
	char err[128];
	int r;

	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = strtol(argv[2], NULL, 10);
	if (seconds < 1) {
		fprintf(stderr, "usage: rseq-stats-kvm [--seconds N (at least 1)]\n");
		return 2;
	}
	if (!tap_ok(lab_kstats_read(&before) == 0, "%s can be read", LAB_KSTATS_FILE))
		return tap_done();
	r = lab_kvm_loop_open(&g, err, sizeof(err));
	if (!tap_ok(r == 0, "a real-mode nested guest%s%s", r ? ": " : "", r ? err : ""))
		return tap_done();
	r = lab_kvm_loop_run(&g, seconds, &t, err, sizeof(err));
	if (!tap_ok(r == 0, "CPU 0 shared with a spinner%s%s", r ? ": " : "", r ? err : ""))
		return tap_done();
	if (!tap_ok(lab_kstats_read(&after) == 0, "and read again after KVM_RUN"))
		return tap_done();
	slowp = after.v[LAB_KS_SLOWP] - before.v[LAB_KS_SLOWP];
	ids = after.v[LAB_KS_IDS] - before.v[LAB_KS_IDS];

	tap_ok(t.run_ret == -1 && t.run_errno == EINTR, "KVM_RUN ran until the alarm (returned %d, %s)",
	       t.run_ret, t.run_ret == -1 ? strerrorname_np(t.run_errno) : "no error");
	tap_ok(*g.counter > 0, "the nested guest ran (%u increments)", *g.counter);
	tap_ok(t.caller_switches >= 20, "the KVM thread was switched %ld times inside KVM_RUN, at "
	       "least 20 (each a notify-resume pass with no user registers)", t.caller_switches);
	tap_diag("spinner switched %ld times; slowp +%ld, ids +%ld", t.spinner_switches, slowp, ids);
	/* Half the KVM thread's switches of slack: the shell and timers return to user too. */
	tap_ok(slowp <= t.spinner_switches + t.caller_switches / 2,
	       "slowp grew by %ld: the spinner's %ld switches, not also the KVM thread's %ld", slowp,
	       t.spinner_switches, t.caller_switches);
	tap_ok(ids <= t.spinner_switches + t.caller_switches / 2,
	       "ids grew by %ld: the spinner's %ld switches, not also the KVM thread's %ld", ids,
	       t.spinner_switches, t.caller_switches);
	tap_ok(slowp * 2 >= t.spinner_switches, "and slowp counted the spinner's switches (%ld of %ld)",
	       slowp, t.spinner_switches);
	return tap_done();
}
