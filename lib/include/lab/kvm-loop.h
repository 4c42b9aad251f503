/* SPDX-License-Identifier: MIT */
/*
 * A nested guest that runs while its thread is switched: for the kernels' notify-resume work
 * on KVM's guest-entry path, which runs with no user registers (resume_user_mode_work(NULL))
 * each time the thread running KVM_RUN was switched out and back. Needs a KVM host kernel and
 * a CPU with SVM or VMX (QEMU's TCG CPU model emulates SVM).
 *
 * The guest is one real-mode loop incrementing a counter. lab_kvm_loop_run() pins the calling
 * thread and a spinning thread to CPU 0, so that the two take turns, runs KVM_RUN until an
 * alarm, and reports how often the caller was switched inside KVM_RUN and, from the spinner's
 * side, in how many of its turns away the guest ran.
 */
#ifndef LAB_KVM_LOOP_H
#define LAB_KVM_LOOP_H

#include <stdint.h>
#include <stddef.h>

struct lab_kvm_loop {
	int kvm, vm, vcpu;
	volatile uint32_t *counter;	/* the guest's counter, in its memory */
};

struct lab_kvm_turns {
	int run_ret, run_errno;		/* KVM_RUN's result: -1 and EINTR at the alarm */
	long caller_switches;		/* the caller's context switches inside KVM_RUN */
	long spinner_switches;		/* the spinner's, meanwhile */
	long spinner_turns;		/* loops of the spinner that saw its count move */
	long spinner_turns_advanced;	/* those during which the guest's counter moved too */
};

/* Open /dev/kvm and make the VM and its vCPU: 0, or -1 with a reason in err. */
int lab_kvm_loop_open(struct lab_kvm_loop *g, char *err, size_t len);

/*
 * Pin the caller to CPU 0 and start the spinner there, run the guest for seconds, stop the
 * spinner: 0, or -1 with a reason in err (pinning failed). The caller's SIGALRM disposition
 * is replaced (a handler without SA_RESTART, so that KVM_RUN returns).
 */
int lab_kvm_loop_run(struct lab_kvm_loop *g, int seconds, struct lab_kvm_turns *t, char *err,
		     size_t len);

/* This thread's context switches so far. */
long lab_thread_switches(void);

#endif
