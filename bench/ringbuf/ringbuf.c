/* SPDX-License-Identifier: MIT */
/*
 * lab-ringbuf: the cost of writing one event (32-bit header + 32-bit payload) into a tracer's
 * per-CPU ring buffer, getcpu + atomics against rseq, with a per-thread buffer as the lower
 * bound. Each strategy is timed with 1, 2, ... 2 x NCPU writer threads while a reader drains
 * and checks every record; R repetitions interleaved. A seed-format table on stdout, CSV and
 * metadata in --out DIR. --check instead runs each strategy under 6 x NCPU disturbed threads
 * and prints TAP.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/harness.h"
#include "lab/mt-bench.h"
#include "lab/options.h"
#include "lab/results-cols.h"
#include "lab/selftests-rseq.h"
#include "lab/stats.h"
#include "lab/tap.h"
#include "lab/threads.h"
#include "ringbuf-buf.h"

#define USAGE "usage: lab-ringbuf [--method M,...] [--threads N,...] [--reps N] " \
	      "[--duration MS] [--cpu N] [--subbuf BYTES] [--subbufs N] " \
	      "[--disturb yield,migrate,signal|all|none] [--every N] [--signal-us US] " \
	      "[--no-pin] [--out DIR] [--variant NAME] [--accel NAME] [--check] " \
	      "[--check-threads N] [--check-ops N] [--list]"

static const struct rb_strategy *const strategies[] = { &rb_getcpu_atomic, &rb_rseq,
							 &rb_per_thread };
#define NSTRAT ((int)(sizeof(strategies) / sizeof(strategies[0])))

struct options {
	struct lab_mt_options mt;
	int nsub;
	long subbuf;
};

static const char *case_name(int i)
{
	return strategies[i]->name;
}

/* Thread and CPU numbers go in 12 bits of the record header; payloads are 32-bit. */
static const struct lab_mt_bench bench = {
	"lab-ringbuf", "ringbuf", USAGE, NSTRAT, case_name, 4095, 50000, 1L << 31,
};

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option own[] = {
		{ "subbuf", required_argument, NULL, 'S' }, { "subbufs", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	lab_mt_options_init(&o->mt, &bench);
	o->subbuf = 0; /* 16 KiB for timing; 512 bytes for --check, to wrap and fill often */
	o->nsub = 4;
	while ((opt = lab_mt_getopt(argc, argv, own, &o->mt)) != -1) {
		switch (opt) {
		case 'S':
			o->subbuf = lab_parse_long(optarg, "--subbuf (bytes)", RB_REC, 1L << 24);
			if (o->subbuf & (o->subbuf - 1))
				lab_usage_error("--subbuf must be a power of two, not %ld", o->subbuf);
			break;
		case 'N':
			o->nsub = lab_parse_long(optarg, "--subbufs", 2, RB_MAX_SUB);
			if (o->nsub & (o->nsub - 1))
				lab_usage_error("--subbufs must be a power of two, not %d", o->nsub);
			break;
		}
	}
	if (!o->subbuf)
		o->subbuf = o->mt.check ? 512 : 16384;
}

static struct rb_run make_run(const struct options *o, const struct rb_strategy *s, int nthreads,
			      uint64_t iters, const struct lab_mt_cpus *c)
{
	struct rb_run run = { nthreads, iters, s->per_thread ? nthreads : c->nslots, o->subbuf,
			      o->nsub, o->mt.check, !o->mt.check,
			      lab_mt_disturb(&o->mt, c) };
	return run;
}

static int run_checks(const struct options *o, const struct lab_mt_cpus *c, int have_rseq)
{
	int nthreads = lab_mt_check_threads(&o->mt, c);
	char dist[64];

	lab_disturb_name(o->mt.disturb, dist, sizeof(dist));
	printf("# lab-ringbuf --check: %s/%s, %d CPUs, %d threads x %llu events, %d x %ld-byte "
	       "sub-buffers, disturbances %s\n", o->mt.variant, o->mt.accel, c->ncpu, nthreads,
	       (unsigned long long)o->mt.check_ops, o->nsub, o->subbuf, dist);
	for (int i = 0; i < NSTRAT; i++) {
		const struct rb_strategy *s = strategies[i];
		struct rb_run run = make_run(o, s, nthreads, o->mt.check_ops, c);
		struct rb_outcome out;
		int ok;

		if (!o->mt.selected[i])
			continue;
		if (s->rseq && !have_rseq) {
			tap_skip("ENOSYS", "%s", s->name);
			continue;
		}
		ok = rb_run(s, &run, NULL, &out) == 0;
		tap_ok(ok, "%s: %d threads x %llu events with %s: %s", s->name, nthreads,
		       (unsigned long long)o->mt.check_ops, dist,
		       ok ? "every event read once, intact, in its writer's buffer" : out.error);
		printf("#   %s: %llu records read, %llu aborts, %llu remote commits, %llu full waits, "
		       "%llu signals\n", s->name, (unsigned long long)out.read,
		       (unsigned long long)out.aborts, (unsigned long long)out.remote,
		       (unsigned long long)out.waits, (unsigned long long)out.signals);
	}
	return tap_done();
}

struct row {
	struct lab_result r;
	const struct rb_strategy *s;
	struct rb_run run;
	uint64_t waits, remote;
};

static void extra_cols(FILE *f, int i, void *arg)
{
	struct row *w = &((struct row *)arg)[i];
	uint64_t ops = lab_result_ops(&w->r);

	lab_csv_field(f, ops ? (double)w->waits * 1e6 / (double)ops : NAN);
	lab_csv_field(f, ops && w->s->rseq ? (double)w->remote * 1e6 / (double)ops : NAN);
	lab_csv_field(f, (double)w->run.subbuf);
	lab_csv_field(f, (double)w->run.nsub);
}

static void write_meta(FILE *f, void *arg)
{
	const struct options *o = arg;

	fprintf(f, "subbuf_bytes: %ld\nsubbufs: %d\nrecord_bytes: %d\n"
		"mode: flight recorder (overwrite), no reader during the timed run; afterwards the "
		"counts are reconciled and the newest records checked\n"
		"rseq_helpers: kernel tree tools/testing/selftests/rseq\n", o->subbuf, o->nsub, RB_REC);
	if (!strcmp(o->mt.accel, "icount"))
		fprintf(f, "figures: virtual time per op (QEMU icount: virtual ns over a timed loop, "
			"timer ticks and interrupts included), not an exact instruction count\n");
}

/* One run of a row (lab_mt_rows' run): iters events per thread. */
static int run_row(void *p, const int *pin, uint64_t iters, int timed, struct lab_mt_outcome *m)
{
	struct row *w = p;
	struct rb_outcome out;

	w->run.iters = iters;
	if (rb_run(w->s, &w->run, pin, &out)) {
		snprintf(m->error, sizeof(m->error), "%s", out.error);
		return -1;
	}
	m->wall_ns = out.wall_ns;
	m->ops = out.read;
	m->aborts = out.aborts;
	if (timed) {
		w->waits += out.waits;
		w->remote += out.remote;
	}
	return 0;
}

static double median_of(const struct row *w)
{
	return lab_result_ok(&w->r) ? lab_summarize(w->r.ns, w->r.reps).median : NAN;
}

/* The seed's form: each strategy's ns/event, and rseq's speedup over getcpu + atomic. */
static void report(const struct row *rows, int n)
{
	printf("%-52s %7s %9s %10s %8s  %s\n", "event write (header + payload)", "threads",
	       "ns/event", "spread", "speedup", "seed x86-64");
	for (int k = 0; k < n; k++) {
		const struct row *w = &rows[k];
		double ref = NAN, m = median_of(w);
		struct lab_summary s;
		char seed[16] = "";

		if (!lab_result_ok(&w->r)) {
			printf("- %-50s %7d %s\n", w->s->label, w->r.threads, w->r.status);
			continue;
		}
		for (int j = 0; j < n && w->s->versus; j++)
			if (!strcmp(rows[j].s->name, w->s->versus) && rows[j].r.threads == w->r.threads)
				ref = median_of(&rows[j]);
		s = lab_summarize(w->r.ns, w->r.reps);
		if (w->r.seed_ns > 0)
			snprintf(seed, sizeof(seed), "%.1f ns", w->r.seed_ns);
		printf("- %-50s %7d %6.2f ns %9.1f%% ", w->s->label, w->r.threads, m, 100 * s.spread);
		if (isnan(ref))
			printf("%8s", "");
		else
			printf("%7.2fx", ref / m);
		printf("  %s\n", seed);
	}
	printf("speedup: the getcpu + atomic row's ns/event over this row's, same thread count "
	       "(seed: 117.4 / 98.0 = 1.2x)\n");
}

int main(int argc, char **argv)
{
	struct options o;
	struct lab_mt_cpus c;
	/* Calibrated up to 0xfffffff0 events: the payload is a 32-bit event number. */
	struct lab_mt_rows timed = { NULL, sizeof(struct row), 0, run_row, 256, 1ull << 30,
				     0xfffffff0ull, "" };
	struct row *rows;
	int have_rseq, n = 0;

	parse_options(argc, argv, &o);
	if (o.mt.list) {
		for (int i = 0; i < NSTRAT; i++)
			printf("%-24s %s\n", strategies[i]->name, strategies[i]->label);
		return 0;
	}
	if (lab_mt_cpus(&o.mt, &c))
		return 1;
	if (c.nslots > 4096) {
		fprintf(stderr, "lab-ringbuf: CPU numbers above 4095 do not fit the record header\n");
		return 1;
	}
	have_rseq = rseq_available();
	for (int i = 0; i < NSTRAT; i++)
		if (!strategies[i]->rseq || have_rseq)
			strategies[i]->path(); /* also looks up the vDSO's getcpu */
	if (o.mt.check)
		return run_checks(&o, &c, have_rseq);
	lab_mt_timing_start(&o.mt, &c);
	rows = calloc((size_t)NSTRAT * o.mt.nthreads, sizeof(*rows));
	for (int ti = 0; ti < o.mt.nthreads; ti++)
		for (int i = 0; i < NSTRAT; i++) {
			const struct rb_strategy *s = strategies[i];
			struct row *w = &rows[n];

			if (!o.mt.selected[i])
				continue;
			n++;
			w->s = s;
			w->run = make_run(&o, s, o.mt.threads[ti], 0, &c);
			lab_mt_row(&w->r, &o.mt, o.mt.threads[ti], have_rseq,
				   &(struct lab_mt_case){ s->name, s->label, "ringbuf-write", s->rseq,
							  s->seed_ns, s->path });
		}
	printf("lab-ringbuf: %s/%s, %d CPUs, writers pinned %s, overwrite mode, %d reps x "
	       "%ld ms per row, %d x %ld-byte sub-buffers per buffer, glibc rseq %s\n",
	       o.mt.variant, o.mt.accel, c.ncpu, o.mt.pin ? "round-robin" : "no", o.mt.reps,
	       o.mt.duration_ms, o.nsub, o.subbuf, lab_mode_name(lab_mode_now()));
	fflush(stdout);
	timed.rows = rows;
	timed.n = n;
	if (lab_mt_time(&o.mt, &c, &timed))
		return 1;
	report(rows, n);
	if (o.mt.out &&
	    lab_mt_write(&o.mt, &c, &timed,
			 ",full_waits_per_mop,remote_commits_per_mop,subbuf_bytes,subbufs",
			 extra_cols, write_meta, &o))
		return 1;
	return 0;
}
