/* SPDX-License-Identifier: MIT */
/*
 * Disturbances for the correctness runs of the multi-threaded benches (percpu, ringbuf, alloc): yields
 * and self-migrations every N operations, and a per-thread timer whose SIGALRM lands wherever
 * the thread is, often inside an rseq critical section, which the kernel must then abort.
 */
#ifndef LAB_DISTURB_H
#define LAB_DISTURB_H

#include <stddef.h>
#include <stdint.h>

#define LAB_DIS_YIELD 1u
#define LAB_DIS_MIGRATE 2u
#define LAB_DIS_SIGNAL 4u
#define LAB_DIS_ALL (LAB_DIS_YIELD | LAB_DIS_MIGRATE | LAB_DIS_SIGNAL)

struct lab_disturb {
	unsigned what;    /* LAB_DIS_* */
	uint64_t every;   /* operations between two yields/migrations */
	long signal_us;   /* timer interval */
	const int *cpus;  /* migration walks these */
	int ncpus;
};

struct lab_disturb_thread {
	const struct lab_disturb *d;
	uint64_t countdown;
	int next_cpu;
};

/* "yield,migrate,signal", "all" or "none" to LAB_DIS_* bits; -1 (as unsigned) for a bad word,
 * with the word in bad (len bytes). */
unsigned lab_disturb_parse(const char *text, char *bad, size_t len);
void lab_disturb_name(unsigned what, char *buf, size_t len);

/* Per thread, before the timed part: counters, and the signal timer when asked (0 or -1). */
int lab_disturb_start(struct lab_disturb_thread *t, const struct lab_disturb *d, int tid,
		      char *msg, size_t len);
/* Stop the timer; returns the signals this thread received. */
uint64_t lab_disturb_stop(void);

void lab_disturb_now(struct lab_disturb_thread *t);

/* After each operation: yield/migrate every d->every operations. */
static inline void lab_disturb_tick(struct lab_disturb_thread *t)
{
	if (t->d && (t->d->what & (LAB_DIS_YIELD | LAB_DIS_MIGRATE)) && --t->countdown == 0)
		lab_disturb_now(t);
}

#endif
