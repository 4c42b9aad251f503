/* SPDX-License-Identifier: MIT */
/*
 * lab-alloc: what a per-CPU cache in front of an allocator's arena costs and saves. Every
 * strategy (alloc-cache.h) is timed on alloc+free pairs with 1, 2, ... 2 x NCPU threads, and on a
 * request-shaped workload (bursts of mixed sizes, filled and read back) whose every request is
 * timed: mean, p50 and p99 request latency per rep, with 95 % t intervals across the reps (the
 * request times inside a rep are autocorrelated, so a pooled interval is far too narrow), and
 * the clock pair's own cost (an empty request) beside them, not subtracted. R repetitions
 * interleaved; a seed-format table on stdout, CSV and metadata in --out DIR. --check instead
 * runs both workloads under 6 x NCPU disturbed threads, claiming and verifying every object
 * and byte, then audits the arenas and caches, and prints TAP.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-cache.h"
#include "lab/harness.h"
#include "lab/mt-bench.h"
#include "lab/options.h"
#include "lab/percentile.h"
#include "lab/results-cols.h"
#include "lab/selftests-rseq.h"
#include "lab/stats.h"
#include "lab/tap.h"
#include "lab/threads.h"

#define USAGE "usage: lab-alloc [--method M,...] [--workload pair,request] [--threads N,...] " \
	      "[--req-threads N,...] [--burst N] [--reps N] [--duration MS] [--cpu N] " \
	      "[--max-samples N] [--disturb yield,migrate,signal|all|none] [--every N] " \
	      "[--signal-us US] [--no-pin] [--out DIR] [--variant NAME] [--accel NAME] [--check] " \
	      "[--check-threads N] [--check-ops N] [--list]"

static const struct al_strategy *const strategies[] = { &al_getcpu_cas, &al_rseq, &al_percpu_lock,
							 &al_tcache, &al_arena, &al_glibc };
#define NSTRAT ((int)(sizeof(strategies) / sizeof(strategies[0])))

struct options {
	struct lab_mt_options mt;
	int rthreads[LAB_MT_MAX_COUNTS], nrthreads, burst, pair, request;
	long max_samples;
};

static void parse_workloads(struct options *o, char *list)
{
	char *save;

	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save))
		if (!strcmp(m, "pair"))
			o->pair = 1;
		else if (!strcmp(m, "request"))
			o->request = 1;
		else
			lab_usage_error("unknown workload '%s' (pair, request)", m);
}

static const char *case_name(int i)
{
	return strategies[i]->name;
}

static const struct lab_mt_bench bench = {
	"lab-alloc", "alloc", USAGE, NSTRAT, case_name, 4096, 5000, 1L << 32,
};

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option own[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "req-threads", required_argument, NULL, 'R' },
		{ "burst", required_argument, NULL, 'b' },
		{ "max-samples", required_argument, NULL, 'M' }, { NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	lab_mt_options_init(&o->mt, &bench);
	o->burst = 16;
	o->max_samples = 50000;
	while ((opt = lab_mt_getopt(argc, argv, own, &o->mt)) != -1) {
		switch (opt) {
		case 'w': parse_workloads(o, optarg); break;
		case 'R':
			o->nrthreads = lab_mt_parse_counts(optarg, o->rthreads, "--req-threads", 4096);
			break;
		case 'b': o->burst = lab_parse_long(optarg, "--burst", 1, 256); break;
		case 'M': o->max_samples = lab_parse_long(optarg, "--max-samples", 100, 10000000); break;
		}
	}
	if (!o->pair && !o->request)
		o->pair = o->request = 1;
}

/* ---- one run ---- */

struct outcome {
	double wall_ns, clock_ns;
	uint64_t aborts, refills, flushes, signals;
	char error[256];
};

struct job {
	const struct al_strategy *s;
	const struct al_run *run;
	struct al_thread *th;
};

static int setup(int tid, void *p, char *msg, size_t len)
{
	struct job *j = p;
	struct al_thread *t = &j->th[tid];

	t->run = j->run;
	t->tid = tid;
	t->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(tid + 1);
	if (j->run->request && !(t->samples = malloc(j->run->max_samples * sizeof(double)))) {
		snprintf(msg, len, "out of memory for latency samples");
		return -1;
	}
	if (j->s->thread_setup && j->s->thread_setup(t, msg, len))
		return -1;
	return lab_disturb_start(&t->dt, &j->run->dis, tid, msg, len);
}

/* The clock pair around a request, timed around nothing: the median of 1001 empty requests. */
#define AL_EMPTY 1001
static double empty_request_ns(void)
{
	double v[AL_EMPTY];

	for (int i = 0; i < AL_EMPTY; i++) {
		uint64_t t0 = al_now_ns();

		v[i] = (double)(al_now_ns() - t0);
	}
	lab_sort_doubles(v, AL_EMPTY);
	return v[AL_EMPTY / 2];
}

static void body(int tid, void *p)
{
	struct job *j = p;

	if (j->run->request)
		j->th[tid].clock_ns = empty_request_ns();
	(j->run->request ? j->s->request : j->s->pair)(&j->th[tid], j->run->iters);
}

static void teardown(int tid, void *p)
{
	struct job *j = p;

	j->th[tid].signals = lab_disturb_stop();
	if (j->s->thread_end)
		j->s->thread_end(&j->th[tid]);
}

/* samples (may be NULL): the request latencies are appended to *samples (*n of them). */
static int al_run(const struct al_strategy *s, const struct al_run *run, const int *pin,
		  struct outcome *out, double **samples, size_t *n)
{
	struct al_thread *th = calloc(run->nthreads, sizeof(*th));
	struct job j = { s, run, th };
	struct lab_thread_job job = { run->nthreads, pin, &j, setup, body, teardown };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!th || al_reset(run)) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		goto done;
	}
	out->wall_ns = lab_threads_run(&job, out->error, sizeof(out->error));
	if (out->wall_ns < 0)
		goto done;
	for (int i = 0; i < run->nthreads; i++) {
		struct al_thread *t = &th[i];

		out->aborts += t->aborts;
		out->refills += t->refills;
		out->flushes += t->flushes;
		out->signals += t->signals;
		out->clock_ns += t->clock_ns / run->nthreads;
		if (t->errors && !out->error[0])
			snprintf(out->error, sizeof(out->error), "thread %d: %s (%d errors)", i,
				 t->error, t->errors);
		if (samples && t->nsamples) {
			double *m = realloc(*samples, (*n + t->nsamples) * sizeof(double));

			if (!m) {
				snprintf(out->error, sizeof(out->error), "out of memory");
				goto done;
			}
			*samples = m;
			memcpy(m + *n, t->samples, t->nsamples * sizeof(double));
			*n += t->nsamples;
		}
	}
	if (out->error[0])
		goto done;
	if (s->own && al_audit(run->nslots, out->error, sizeof(out->error)))
		goto done;
	ret = 0;
done:
	for (int i = 0; th && i < run->nthreads; i++)
		free(th[i].samples);
	free(th);
	return ret;
}

static struct al_run make_run(const struct options *o, int nthreads, int request,
			      const struct lab_mt_cpus *c)
{
	struct al_run run = { nthreads, 0, request, o->burst, o->mt.check, c->nslots,
			      (size_t)o->max_samples,
			      lab_mt_disturb(&o->mt, c) };
	return run;
}

static int run_checks(const struct options *o, const struct lab_mt_cpus *c, int have_rseq)
{
	int nthreads = lab_mt_check_threads(&o->mt, c);
	char dist[64];

	lab_disturb_name(o->mt.disturb, dist, sizeof(dist));
	printf("# lab-alloc --check: %s/%s, %d CPUs, %d threads x %llu pairs and requests of %d "
	       "objects, disturbances %s\n", o->mt.variant, o->mt.accel, c->ncpu, nthreads,
	       (unsigned long long)o->mt.check_ops, o->burst, dist);
	for (int i = 0; i < NSTRAT; i++)
		for (int w = 0; w < 2; w++) {
			const struct al_strategy *s = strategies[i];
			struct al_run run = make_run(o, nthreads, w, c);
			struct outcome out;
			int ok;

			if (!o->mt.selected[i] || !(w ? o->request : o->pair))
				continue;
			if (s->rseq && !have_rseq) {
				tap_skip("ENOSYS", "%s %s", s->name, w ? "request" : "pair");
				continue;
			}
			run.iters = o->mt.check_ops;
			run.max_samples = 0;
			ok = al_run(s, &run, NULL, &out, NULL, NULL) == 0;
			tap_ok(ok, "%s %s: %d threads x %llu with %s: %s", s->name,
			       w ? "request" : "pair", nthreads, (unsigned long long)o->mt.check_ops,
			       dist, !ok ? out.error : s->own
				? "no object handed out twice, none lost, every byte intact"
				: "every byte intact (glibc: no audit of its heap)");
			printf("#   %s %s: %llu aborts, %llu refills, %llu flushes, %llu signals\n",
			       s->name, w ? "request" : "pair", (unsigned long long)out.aborts,
			       (unsigned long long)out.refills, (unsigned long long)out.flushes,
			       (unsigned long long)out.signals);
		}
	return tap_done();
}

/* ---- timing ---- */

struct row {
	struct lab_result r;
	const struct al_strategy *s;
	struct al_run run;
	double *samples;
	size_t nsamples;
	uint64_t refills, flushes;
	/* Per timed rep (a request row): its samples' mean, p50, p99 over all its threads, and the
	 * empty request; the intervals are across these. */
	double *rep_mean, *rep_p50, *rep_p99, *rep_clock;
	size_t nrep;
	struct lab_ci mean, p50, p99;
	double clock_ns, pooled_p50, pooled_p99;
};

static void extra_cols(FILE *f, int i, void *arg)
{
	struct row *w = &((struct row *)arg)[i];
	uint64_t ops = lab_result_ops(&w->r);
	const struct lab_ci *c[3] = { &w->mean, &w->p50, &w->p99 };
	int req = w->run.request && w->nsamples;

	for (int k = 0; k < 3; k++) {
		lab_csv_field(f, req ? c[k]->est : NAN);
		lab_csv_field(f, req ? c[k]->lo : NAN);
		lab_csv_field(f, req ? c[k]->hi : NAN);
	}
	lab_csv_field(f, req ? (double)w->nsamples : NAN);
	lab_csv_field(f, w->run.request ? w->run.burst : 1);
	lab_csv_field(f, ops && w->s->own ? (double)w->refills * 1e6 / (double)ops : NAN);
	lab_csv_field(f, ops && w->s->own ? (double)w->flushes * 1e6 / (double)ops : NAN);
	lab_csv_field(f, req ? (double)w->nrep : NAN);
	lab_csv_field(f, req ? w->clock_ns : NAN);
	lab_csv_field(f, req ? w->pooled_p50 : NAN);
	lab_csv_field(f, req ? w->pooled_p99 : NAN);
}

static void write_meta(FILE *f, void *arg)
{
	const struct options *o = arg;

	fprintf(f, "classes: 16 32 64 128 256 512\ncache_objects: %d\nbatch: %d\nburst: %d\n"
		"pair_bytes: %zu\nci: 95 %%, Student t across reps over each rep's mean, p50 and "
		"p99 (a rep's quantiles over the request times of all its threads); req_*_ns is the "
		"mean of the per-rep figures, req_p50/p99_pooled_ns the quantile of all samples "
		"pooled\nclock: req_clock_ns is the median of 1001 empty requests (the clock pair "
		"alone) per thread, averaged; included in every request time, not subtracted\n"
		"rseq_helpers: kernel tree tools/testing/selftests/rseq\n", AL_CAP, AL_BATCH,
		o->burst, al_size(AL_PAIR_CLASS));
	if (!strcmp(o->mt.accel, "icount"))
		fprintf(f, "figures: virtual time per op (QEMU icount: virtual ns over a timed loop, "
			"timer ticks and interrupts included), not an exact instruction count\n");
}

/* One run of a row (lab_mt_rows' run): a timed request run keeps its latencies. */
static int run_row(void *p, const int *pin, uint64_t iters, int timed, struct lab_mt_outcome *m)
{
	struct row *w = p;
	struct outcome out;
	size_t first = w->nsamples;

	w->run.iters = iters;
	if (al_run(w->s, &w->run, pin, &out, timed && w->run.request ? &w->samples : NULL,
		   &w->nsamples)) {
		snprintf(m->error, sizeof(m->error), "%s", out.error);
		return -1;
	}
	m->wall_ns = out.wall_ns;
	m->ops = iters * w->run.nthreads;
	m->aborts = out.aborts;
	if (timed) {
		w->refills += out.refills;
		w->flushes += out.flushes;
	}
	if (timed && w->run.request && w->nsamples > first && w->rep_mean) {
		double *v = w->samples + first;
		size_t k = w->nsamples - first;

		w->rep_mean[w->nrep] = lab_mean_ci(v, k).est;
		lab_sort_doubles(v, k);
		w->rep_p50[w->nrep] = lab_quantile_ci(v, k, 0.5).est;
		w->rep_p99[w->nrep] = lab_quantile_ci(v, k, 0.99).est;
		w->rep_clock[w->nrep++] = out.clock_ns;
	}
	return 0;
}

static double median_of(const struct row *w)
{
	return lab_result_ok(&w->r) ? lab_summarize(w->r.ns, w->r.reps).median : NAN;
}

static const struct row *versus(const struct row *rows, int n, const struct row *w)
{
	for (int j = 0; j < n && w->s->versus; j++)
		if (!strcmp(rows[j].s->name, w->s->versus) && rows[j].r.threads == w->r.threads &&
		    rows[j].run.request == w->run.request && lab_result_ok(&rows[j].r))
			return &rows[j];
	return NULL;
}

static void report(const struct row *rows, int n)
{
	int any = 0;

	for (int k = 0; k < n; k++) {
		const struct row *w = &rows[k], *v = versus(rows, n, w);

		if (w->run.request)
			continue;
		if (!any++)
			printf("%-46s %7s %10s %7s %8s\n", "alloc+free pair (64 bytes)", "threads",
			       "ns/pair", "spread", "speedup");
		if (!lab_result_ok(&w->r)) {
			printf("- %-44s %7d %s\n", w->s->label, w->r.threads, w->r.status);
			continue;
		}
		printf("- %-44s %7d %7.2f ns %6.1f%% ", w->s->label, w->r.threads, median_of(w),
		       100 * lab_summarize(w->r.ns, w->r.reps).spread);
		if (v)
			printf("%7.2fx", median_of(v) / median_of(w));
		printf("\n");
	}
	any = 0;
	for (int k = 0; k < n; k++) {
		const struct row *w = &rows[k], *v = versus(rows, n, w);

		if (!w->run.request)
			continue;
		if (!any++)
			printf("%-38s %3s %22s %22s %22s %6s %s\n",
			       "request (burst, ns, 95% CI across reps)", "thr", "mean", "p50", "p99",
			       "clock", "p50/p99 vs getcpu+CAS");
		if (!lab_result_ok(&w->r)) {
			printf("- %-36s %3d %s\n", w->s->label, w->r.threads, w->r.status);
			continue;
		}
		printf("- %-36s %3d", w->s->label, w->r.threads);
		for (int c = 0; c < 3; c++) {
			const struct lab_ci *ci = c == 0 ? &w->mean : c == 1 ? &w->p50 : &w->p99;
			char buf[40];

			if (isnan(ci->lo)) /* one rep: no interval across reps */
				snprintf(buf, sizeof(buf), "%.0f (1 rep)", ci->est);
			else
				snprintf(buf, sizeof(buf), "%.0f [%.0f, %.0f]", ci->est, ci->lo,
					 ci->hi);
			printf(" %22s", buf);
		}
		printf(" %6.0f", w->clock_ns);
		if (v)
			printf(" %+.1f%% / %+.1f%%", 100 * (w->p50.est / v->p50.est - 1),
			       100 * (w->p99.est / v->p99.est - 1));
		printf("\n");
	}
	printf("request: mean of the per-rep figures, 95 %% t interval across the reps; clock: "
	       "an empty request (the clock pair), included in every figure, not subtracted\n");
	printf("speedup: getcpu+CAS's ns/pair over the row's; vs getcpu+CAS: the row's latency "
	       "change (negative: lower). Seed (jemalloc at Facebook): 1-2 %% lower average, 2-3 %% "
	       "lower p99 latency with rseq per-CPU caches\n");
}

int main(int argc, char **argv)
{
	struct options o;
	struct lab_mt_cpus c;
	struct lab_mt_rows timed = { NULL, sizeof(struct row), 0, run_row, 16, 1ull << 34, 0, "" };
	struct row *rows;
	int have_rseq, n = 0;

	parse_options(argc, argv, &o);
	if (o.mt.list) {
		for (int i = 0; i < NSTRAT; i++)
			printf("%-20s %s\n", strategies[i]->name, strategies[i]->label);
		return 0;
	}
	if (lab_mt_cpus(&o.mt, &c))
		return 1;
	have_rseq = rseq_available();
	for (int i = 0; i < NSTRAT; i++)
		if (!strategies[i]->rseq || have_rseq)
			strategies[i]->path(); /* also looks up the vDSO's getcpu */
	if (o.mt.check)
		return run_checks(&o, &c, have_rseq);
	lab_mt_timing_start(&o.mt, &c);
	if (!o.nrthreads) {
		o.rthreads[o.nrthreads++] = 1;
		if (c.ncpu > 1)
			o.rthreads[o.nrthreads++] = c.ncpu;
	}
	rows = calloc((size_t)NSTRAT * (o.mt.nthreads + o.nrthreads), sizeof(*rows));
	for (int w = 0; w < 2; w++) {
		int cnt = w ? o.nrthreads : o.mt.nthreads, *list = w ? o.rthreads : o.mt.threads;

		if (!(w ? o.request : o.pair))
			continue;
		for (int ti = 0; ti < cnt; ti++)
			for (int i = 0; i < NSTRAT; i++) {
				const struct al_strategy *s = strategies[i];
				struct row *r = &rows[n];

				if (!o.mt.selected[i])
					continue;
				n++;
				r->s = s;
				r->run = make_run(&o, list[ti], w, &c);
				if (w && !(r->rep_mean = calloc(4 * (size_t)o.mt.reps, sizeof(double)))) {
					fprintf(stderr, "lab-alloc: out of memory\n");
					return 1;
				}
				if (w) {
					r->rep_p50 = r->rep_mean + o.mt.reps;
					r->rep_p99 = r->rep_p50 + o.mt.reps;
					r->rep_clock = r->rep_p99 + o.mt.reps;
				}
				lab_mt_row(&r->r, &o.mt, list[ti], have_rseq,
					   &(struct lab_mt_case){ s->name, s->label,
								  w ? "alloc-request" : "alloc-pair",
								  s->rseq, 0, s->path });
			}
	}
	printf("lab-alloc: %s/%s, %d CPUs, threads pinned %s, %d reps x %ld ms per row, burst %d, "
	       "glibc rseq %s\n", o.mt.variant, o.mt.accel, c.ncpu, o.mt.pin ? "round-robin" : "no",
	       o.mt.reps, o.mt.duration_ms, o.burst, lab_mode_name(lab_mode_now()));
	fflush(stdout);
	timed.rows = rows;
	timed.n = n;
	if (lab_mt_time(&o.mt, &c, &timed))
		return 1;
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];

		if (!w->nsamples)
			continue;
		w->mean = lab_across_ci(w->rep_mean, w->nrep);
		w->p50 = lab_across_ci(w->rep_p50, w->nrep);
		w->p99 = lab_across_ci(w->rep_p99, w->nrep);
		w->clock_ns = lab_across_ci(w->rep_clock, w->nrep).est;
		lab_sort_doubles(w->samples, w->nsamples);
		w->pooled_p50 = lab_quantile_ci(w->samples, w->nsamples, 0.5).est;
		w->pooled_p99 = lab_quantile_ci(w->samples, w->nsamples, 0.99).est;
	}
	report(rows, n);
	if (o.mt.out && lab_mt_write(&o.mt, &c, &timed,
				     ",req_mean_ns,req_mean_lo,req_mean_hi,req_p50_ns,req_p50_lo,"
				     "req_p50_hi,req_p99_ns,req_p99_lo,req_p99_hi,req_samples,"
				     "objects_per_op,refills_per_mop,flushes_per_mop,req_reps,"
				     "req_clock_ns,req_p50_pooled_ns,req_p99_pooled_ns",
				     extra_cols, write_meta, &o))
		return 1;
	return 0;
}
