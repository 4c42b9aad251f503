// SPDX-License-Identifier: MIT
/* The nested guest that runs while its thread is switched (lab/kvm-loop.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include "lab/kvm-loop.h"

#define GUEST_MEM	0x10000
#define GUEST_CODE	0x1000
#define GUEST_COUNTER	0x2000

/* Real mode: inc dword [GUEST_COUNTER]; jmp back. The guest never exits on its own. */
static const uint8_t guest_code[] = {
	0x66, 0xff, 0x06, GUEST_COUNTER & 0xff, GUEST_COUNTER >> 8,
	0xeb, 0xf9,
};

long lab_thread_switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

int lab_kvm_loop_open(struct lab_kvm_loop *g, char *err, size_t len)
{
	struct kvm_userspace_memory_region region = { .memory_size = GUEST_MEM };
	struct kvm_regs regs = { .rip = GUEST_CODE, .rflags = 2 };
	struct kvm_sregs sregs;
	uint8_t *mem;

	g->kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (g->kvm < 0) {
		snprintf(err, len, "/dev/kvm: %s", strerror(errno));
		return -1;
	}
	if (ioctl(g->kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		snprintf(err, len, "KVM API version is not %d", KVM_API_VERSION);
		return -1;
	}
	g->vm = ioctl(g->kvm, KVM_CREATE_VM, 0);
	mem = mmap(NULL, GUEST_MEM, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g->vm < 0 || mem == MAP_FAILED) {
		snprintf(err, len, "a VM and its memory: %s", strerror(errno));
		return -1;
	}
	memcpy(mem + GUEST_CODE, guest_code, sizeof(guest_code));
	g->counter = (volatile uint32_t *)(mem + GUEST_COUNTER);
	region.userspace_addr = (uintptr_t)mem;
	g->vcpu = -1;
	if (ioctl(g->vm, KVM_SET_USER_MEMORY_REGION, &region) == 0)
		g->vcpu = ioctl(g->vm, KVM_CREATE_VCPU, 0);
	if (g->vcpu < 0 || ioctl(g->vcpu, KVM_GET_SREGS, &sregs)) {
		snprintf(err, len, "a vCPU: %s", strerror(errno));
		return -1;
	}
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(g->vcpu, KVM_SET_SREGS, &sregs) || ioctl(g->vcpu, KVM_SET_REGS, &regs)) {
		snprintf(err, len, "the vCPU's registers: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct spinner {
	volatile uint32_t *counter;
	atomic_int stop;
	long switches, turns, advanced;
};

/*
 * Spin on the same CPU; each time this thread's own count of switches moves (a gap in time
 * would also count the host descheduling the whole guest), see whether the guest's counter
 * moved meanwhile.
 */
static void *spin(void *arg)
{
	struct spinner *s = arg;
	uint32_t last = *s->counter;
	long sw0 = lab_thread_switches(), last_sw = sw0;

	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		uint32_t c = *s->counter;
		long sw = lab_thread_switches();

		if (sw != last_sw) {
			s->turns++;
			s->advanced += c != last;
		}
		last = c;
		last_sw = sw;
	}
	s->switches = last_sw - sw0;
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
}

int lab_kvm_loop_run(struct lab_kvm_loop *g, int seconds, struct lab_kvm_turns *t, char *err,
		     size_t len)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value.tv_sec = seconds };
	struct spinner s = { .counter = g->counter };
	cpu_set_t cpu0;
	sigset_t alrm;
	pthread_t th;
	long sw;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		snprintf(err, len, "pinning to CPU 0: %s", strerror(errno));
		return -1;
	}
	/* SIGALRM for this thread only: the spinner starts with it blocked. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigaction(SIGALRM, &sa, NULL);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	pthread_create(&th, NULL, spin, &s);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);

	setitimer(ITIMER_REAL, &it, NULL);
	sw = lab_thread_switches();
	t->run_ret = ioctl(g->vcpu, KVM_RUN, 0);
	t->run_errno = errno;
	t->caller_switches = lab_thread_switches() - sw;
	atomic_store(&s.stop, 1);
	pthread_join(th, NULL);
	t->spinner_switches = s.switches;
	t->spinner_turns = s.turns;
	t->spinner_turns_advanced = s.advanced;
	return 0;
}
