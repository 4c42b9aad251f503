// SPDX-License-Identifier: MIT
/*
 * turner-kvm: the 2015 interface's notify-resume hook on KVM's guest-entry path, in a guest
 * booted with the turner-2015 variant (a KVM host) on a CPU with SVM (QEMU's TCG emulates it).
 *
 * A thread registers a 2015 CPU pointer, then runs a nested guest with KVM_RUN while a second
 * thread pinned to the same CPU takes turns with it. Each switch of the registered thread sets
 * TIF_NOTIFY_RESUME, and KVM's guest-entry loop runs that work with no user registers
 * (resume_user_mode_work(NULL)). The hook must not touch the registers (a NULL dereference:
 * the guest kernel oopses and this program never prints its plan), and must not set the flag
 * again (the loop would spin: the nested guest would stop advancing after the first switch).
 * The second thread sees whether the nested guest ran while it was switched out.
 *
 * Options: --seconds N how long KVM_RUN runs (default 2). TAP on stdout; exit 0 only if every
 * case passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include "lab/tap.h"
#include "turner-abi.h"

#define GUEST_MEM	0x10000
#define GUEST_CODE	0x1000
#define GUEST_COUNTER	0x2000

/* Real mode: inc dword [GUEST_COUNTER]; jmp back. The nested guest never exits on its own. */
static const uint8_t guest_code[] = {
	0x66, 0xff, 0x06, GUEST_COUNTER & 0xff, GUEST_COUNTER >> 8,
	0xeb, 0xf9,
};

static volatile uint32_t *counter;
static atomic_int stop;
/* Written by the spinner: how often it was switched out, and how often the guest ran meanwhile. */
static long turns, turns_advanced;

/* This thread's context switches so far. */
static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * Spin on the same CPU, and each time this thread was switched out (its own count of switches
 * moved: a gap in host time would also count the host descheduling the whole guest), see
 * whether the nested guest's counter moved meanwhile.
 */
static void *spinner(void *arg)
{
	uint32_t last = *counter;
	long last_sw = switches();

	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint32_t c = *counter;
		long sw = switches();

		if (sw != last_sw) {
			turns++;
			turns_advanced += c != last;
		}
		last = c;
		last_sw = sw;
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART: KVM_RUN returns */
	struct itimerval it = { 0 };
	struct kvm_userspace_memory_region region = { 0 };
	struct kvm_sregs sregs;
	struct kvm_regs regs = { 0 };
	static uint32_t cpu_ptr = UINT32_MAX;
	cpu_set_t cpu0;
	sigset_t alrm;
	pthread_t th;
	uint8_t *mem;
	long seconds = 2, sw;
	int kvm, vm, vcpu, r, e;

	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = strtol(argv[2], NULL, 10);
	if (seconds < 1) {
		fprintf(stderr, "usage: turner-kvm [--seconds N (at least 1)]\n");
		return 2;
	}
	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (!tap_ok(kvm >= 0, "/dev/kvm opens (%s)", kvm >= 0 ? "yes" : strerror(errno)))
		return tap_done();
	tap_ok(ioctl(kvm, KVM_GET_API_VERSION, 0) == KVM_API_VERSION, "KVM API version %d",
	       KVM_API_VERSION);
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	mem = mmap(NULL, GUEST_MEM, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (vm < 0 || mem == MAP_FAILED) {
		tap_ok(0, "a VM and its memory (%s)", strerror(errno));
		return tap_done();
	}
	memcpy(mem + GUEST_CODE, guest_code, sizeof(guest_code));
	counter = (volatile uint32_t *)(mem + GUEST_COUNTER);
	region.memory_size = GUEST_MEM;
	region.userspace_addr = (uintptr_t)mem;
	vcpu = -1;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) == 0)
		vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0 || ioctl(vcpu, KVM_GET_SREGS, &sregs)) {
		tap_ok(0, "a vCPU (%s)", strerror(errno));
		return tap_done();
	}
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	regs.rip = GUEST_CODE;
	regs.rflags = 2;
	tap_ok(!ioctl(vcpu, KVM_SET_SREGS, &sregs) && !ioctl(vcpu, KVM_SET_REGS, &regs),
	       "a real-mode vCPU at 0x%x", GUEST_CODE);

	/* Both threads on CPU 0; SIGALRM only for this one (the spinner inherits it blocked). */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	tap_ok(sched_setaffinity(0, sizeof(cpu0), &cpu0) == 0, "pinned to CPU 0");
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigaction(SIGALRM, &sa, NULL);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	r = turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)&cpu_ptr, 0, 0);
	if (!tap_ok(r == 0, "a 2015 CPU pointer registered (%s)", r ? strerror(errno) : "0"))
		return tap_done();
	pthread_create(&th, NULL, spinner, NULL);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);

	it.it_value.tv_sec = seconds;
	setitimer(ITIMER_REAL, &it, NULL);
	sw = switches();
	r = ioctl(vcpu, KVM_RUN, 0);
	e = errno;
	sw = switches() - sw;
	atomic_store(&stop, 1);
	pthread_join(th, NULL);

	tap_ok(r == -1 && e == EINTR, "KVM_RUN ran until the alarm (returned %d, %s)", r,
	       r == -1 ? strerrorname_np(e) : "no error");
	tap_ok(*counter > 0, "the nested guest ran (%u increments)", *counter);
	tap_ok(sw >= 5, "the registered thread was switched %ld times inside KVM_RUN "
	       "(its notify-resume work ran with no user registers)", sw);
	/*
	 * Not every turn, and fewer on a busy host (most likely the guest's timer is already due
	 * when the thread is switched back in: the nested guest exits before its first
	 * instruction). A re-raised flag stops it in every turn.
	 */
	tap_ok(turns >= 5 && turns_advanced * 4 >= turns,
	       "the nested guest kept running between switches: it advanced in %ld of the %ld "
	       "turns the spinner was switched out, at least 1 in 4 (a re-raised flag would stop it)",
	       turns_advanced, turns);
	tap_ok(cpu_ptr == 0, "the CPU pointer reads the pinned CPU (%u)", cpu_ptr);
	return tap_done();
}
