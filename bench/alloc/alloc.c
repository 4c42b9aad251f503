/* SPDX-License-Identifier: MIT */
/*
 * lab-alloc: what a per-CPU cache in front of an allocator's arena costs and saves. Every
 * strategy (lab/alloc.h) is timed on alloc+free pairs with 1, 2, ... 2 x NCPU threads, and on a
 * request-shaped workload (bursts of mixed sizes, filled and read back) whose every request is
 * timed: mean, p50 and p99 request latency with 95 % confidence intervals. R repetitions
 * interleaved; a seed-format table on stdout, CSV and metadata in --out DIR. --check instead
 * runs both workloads under 6 x NCPU disturbed threads, claiming and verifying every object
 * and byte, then audits the arenas and caches, and prints TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "lab/harness.h"
#include "lab/meta.h"
#include "lab/options.h"
#include "lab/outfile.h"
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
#define MAX_THREADS 64

static const struct al_strategy *const strategies[] = { &al_getcpu_cas, &al_rseq, &al_percpu_lock,
							 &al_tcache, &al_arena, &al_glibc };
#define NSTRAT ((int)(sizeof(strategies) / sizeof(strategies[0])))

struct options {
	int selected[NSTRAT], threads[MAX_THREADS], nthreads, rthreads[MAX_THREADS], nrthreads;
	int reps, cpu, check, list, pin, check_threads, burst, pair, request;
	long duration_ms, signal_us, max_samples;
	uint64_t every, check_ops;
	unsigned disturb;
	const char *out, *variant, *accel;
};

static int parse_counts(char *list, int *out, const char *what)
{
	char *save;
	int n = 0;

	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		if (n == MAX_THREADS)
			lab_usage_error("%s takes at most %d counts", what, MAX_THREADS);
		out[n++] = lab_parse_long(m, what, 1, 4096);
	}
	if (!n)
		lab_usage_error("%s needs at least one count", what);
	return n;
}

static void parse_words(struct options *o, char *list, int methods)
{
	char *save;

	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		int i;

		if (!methods) {
			if (!strcmp(m, "pair"))
				o->pair = 1;
			else if (!strcmp(m, "request"))
				o->request = 1;
			else
				lab_usage_error("unknown workload '%s' (pair, request)", m);
			continue;
		}
		for (i = 0; i < NSTRAT && strcmp(m, strategies[i]->name); i++)
			;
		if (i == NSTRAT)
			lab_usage_error("unknown method '%s' (--list shows them)", m);
		o->selected[i] = 1;
	}
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "method", required_argument, NULL, 'm' }, { "workload", required_argument, NULL, 'w' },
		{ "threads", required_argument, NULL, 't' }, { "req-threads", required_argument, NULL, 'R' },
		{ "burst", required_argument, NULL, 'b' }, { "reps", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' }, { "cpu", required_argument, NULL, 'c' },
		{ "max-samples", required_argument, NULL, 'M' },
		{ "disturb", required_argument, NULL, 'D' }, { "every", required_argument, NULL, 'e' },
		{ "signal-us", required_argument, NULL, 's' }, { "no-pin", no_argument, NULL, 'P' },
		{ "out", required_argument, NULL, 'o' }, { "variant", required_argument, NULL, 'V' },
		{ "accel", required_argument, NULL, 'a' }, { "check", no_argument, NULL, 'k' },
		{ "check-threads", required_argument, NULL, 'T' },
		{ "check-ops", required_argument, NULL, 'O' }, { "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt, any = 0;
	char bad[64];

	memset(o, 0, sizeof(*o));
	o->reps = 5;
	o->duration_ms = 100;
	o->cpu = -1;
	o->pin = 1;
	o->every = 64;
	o->signal_us = 200;
	o->check_ops = 5000;
	o->burst = 16;
	o->max_samples = 50000;
	o->disturb = (unsigned)-1;
	o->variant = getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "host";
	o->accel = getenv("LAB_ACCEL") ? getenv("LAB_ACCEL") : "none";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (opt) {
		case 'm': parse_words(o, optarg, 1); any = 1; break;
		case 'w': parse_words(o, optarg, 0); break;
		case 't': o->nthreads = parse_counts(optarg, o->threads, "--threads (each count)"); break;
		case 'R':
			o->nrthreads = parse_counts(optarg, o->rthreads, "--req-threads (each count)");
			break;
		case 'b': o->burst = lab_parse_long(optarg, "--burst", 1, 256); break;
		case 'r': o->reps = lab_parse_long(optarg, "--reps", 1, 1000); break;
		case 'd': o->duration_ms = lab_parse_long(optarg, "--duration (ms)", 1, 600000); break;
		case 'c': o->cpu = lab_parse_long(optarg, "--cpu", 0, CPU_SETSIZE - 1); break;
		case 'M': o->max_samples = lab_parse_long(optarg, "--max-samples", 100, 10000000); break;
		case 'D':
			o->disturb = lab_disturb_parse(optarg, bad, sizeof(bad));
			if (o->disturb == (unsigned)-1)
				lab_usage_error("unknown disturbance '%s' (yield, migrate, signal, all, none)", bad);
			break;
		case 'e': o->every = lab_parse_long(optarg, "--every (operations)", 1, 1L << 40); break;
		case 's': o->signal_us = lab_parse_long(optarg, "--signal-us", 10, 10000000); break;
		case 'P': o->pin = 0; break;
		case 'o': o->out = optarg; break;
		case 'V': o->variant = optarg; break;
		case 'a': o->accel = optarg; break;
		case 'k': o->check = 1; break;
		case 'T': o->check_threads = lab_parse_long(optarg, "--check-threads", 1, 4096); break;
		case 'O': o->check_ops = lab_parse_long(optarg, "--check-ops", 1, 1L << 32); break;
		case 'l': o->list = 1; break;
		case 'h': printf(USAGE "\n"); exit(0);
		default: lab_usage_error("bad option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		lab_usage_error("unexpected argument '%s'", argv[optind]);
	for (int i = 0; i < NSTRAT; i++)
		o->selected[i] |= !any;
	if (!o->pair && !o->request)
		o->pair = o->request = 1;
	if (o->disturb == (unsigned)-1)
		o->disturb = o->check ? LAB_DIS_ALL : 0;
}

/* ---- one run ---- */

struct outcome {
	double wall_ns;
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

static void body(int tid, void *p)
{
	struct job *j = p;

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

static struct al_run make_run(const struct options *o, int nthreads, int request, int nslots,
			      const int *cpus, int ncpu)
{
	struct al_run run = { nthreads, 0, request, o->burst, o->check, nslots,
			      (size_t)o->max_samples,
			      { o->disturb, o->every, o->signal_us, cpus, ncpu } };
	return run;
}

static int run_checks(const struct options *o, const int *cpus, int ncpu, int nslots,
		      int have_rseq)
{
	int nthreads = o->check_threads ? o->check_threads : 6 * ncpu;
	char dist[64];

	lab_disturb_name(o->disturb, dist, sizeof(dist));
	printf("# lab-alloc --check: %s/%s, %d CPUs, %d threads x %llu pairs and requests of %d "
	       "objects, disturbances %s\n", o->variant, o->accel, ncpu, nthreads,
	       (unsigned long long)o->check_ops, o->burst, dist);
	for (int i = 0; i < NSTRAT; i++)
		for (int w = 0; w < 2; w++) {
			const struct al_strategy *s = strategies[i];
			struct al_run run = make_run(o, nthreads, w, nslots, cpus, ncpu);
			struct outcome out;
			int ok;

			if (!o->selected[i] || !(w ? o->request : o->pair))
				continue;
			if (s->rseq && !have_rseq) {
				tap_skip("ENOSYS", "%s %s", s->name, w ? "request" : "pair");
				continue;
			}
			run.iters = o->check_ops;
			run.max_samples = 0;
			ok = al_run(s, &run, NULL, &out, NULL, NULL) == 0;
			tap_ok(ok, "%s %s: %d threads x %llu with %s: %s", s->name,
			       w ? "request" : "pair", nthreads, (unsigned long long)o->check_ops, dist,
			       !ok ? out.error : s->own
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
	struct lab_ci mean, p50, p99;
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
}

static int write_results(const struct options *o, struct row *rows, int n, int ncpu)
{
	struct lab_result *res = calloc(n, sizeof(*res));
	struct lab_labels labels = { o->variant, o->accel };
	struct lab_outfile files[2];
	FILE *csv, *meta;
	int bad;

	for (int i = 0; i < n; i++)
		res[i] = rows[i].r;
	csv = lab_outfile_open(&files[0], o->out, "alloc.csv");
	meta = csv ? lab_outfile_open(&files[1], o->out, "alloc.meta") : NULL;
	if (!meta) {
		fprintf(stderr, "lab-alloc: cannot write in %s: %s\n", o->out, strerror(errno));
		if (csv)
			lab_outfile_abandon(&files[0]);
		return -1;
	}
	bad = lab_results_csv_cols(csv, &labels, res, n, -1,
				   ",req_mean_ns,req_mean_lo,req_mean_hi,req_p50_ns,req_p50_lo,"
				   "req_p50_hi,req_p99_ns,req_p99_lo,req_p99_hi,req_samples,"
				   "objects_per_op,refills_per_mop,flushes_per_mop",
				   extra_cols, rows);
	fprintf(meta, "bench: alloc\nvariant: %s\naccel: %s\n", o->variant, o->accel);
	lab_meta_write_system(meta);
	fprintf(meta, "glibc_rseq: %s\nbench_cpu: %d\ncpus: %d\nreps: %d\nduration_ms_per_rep: %ld\n"
		"pinned: %s\nclasses: 16 32 64 128 256 512\ncache_objects: %d\nbatch: %d\n"
		"burst: %d\npair_bytes: %zu\nci: 95 %%, quantiles by order statistics, mean by "
		"normal approximation, samples pooled over reps and threads\n"
		"rseq_helpers: kernel tree tools/testing/selftests/rseq\n",
		lab_mode_name(lab_mode_now()), o->cpu, ncpu, o->reps, o->duration_ms,
		o->pin ? "yes, round-robin over the allowed CPUs" : "no", AL_CAP, AL_BATCH, o->burst,
		al_size(AL_PAIR_CLASS));
	free(res);
	if (bad || lab_outfile_commit(files, 2)) {
		fprintf(stderr, "lab-alloc: cannot finish %s: %s\n", files[0].path, strerror(errno));
		return -1;
	}
	return 0;
}

static int calibrate(struct row *w, const int *pin, uint64_t target_ns, char *msg, size_t len)
{
	uint64_t probe = target_ns / 10 > 1000000 ? target_ns / 10 : 1000000;
	struct outcome out;

	for (w->run.iters = 16;; w->run.iters *= 2) {
		if (al_run(w->s, &w->run, pin, &out, NULL, NULL)) {
			snprintf(msg, len, "%s", out.error);
			return -1;
		}
		if (out.wall_ns >= (double)probe || w->run.iters >= (1ull << 34))
			break;
	}
	w->run.iters = (uint64_t)((double)w->run.iters * (double)target_ns /
				  (out.wall_ns > 1 ? out.wall_ns : 1));
	if (!w->run.iters)
		w->run.iters = 1;
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
			printf("%-38s %3s %22s %22s %22s %s\n", "request (burst, ns, 95% CI)", "thr",
			       "mean", "p50", "p99", "p50/p99 vs getcpu+CAS");
		if (!lab_result_ok(&w->r)) {
			printf("- %-36s %3d %s\n", w->s->label, w->r.threads, w->r.status);
			continue;
		}
		printf("- %-36s %3d", w->s->label, w->r.threads);
		for (int c = 0; c < 3; c++) {
			const struct lab_ci *ci = c == 0 ? &w->mean : c == 1 ? &w->p50 : &w->p99;
			char buf[40];

			snprintf(buf, sizeof(buf), "%.0f [%.0f, %.0f]", ci->est, ci->lo, ci->hi);
			printf(" %22s", buf);
		}
		if (v)
			printf(" %+.1f%% / %+.1f%%", 100 * (w->p50.est / v->p50.est - 1),
			       100 * (w->p99.est / v->p99.est - 1));
		printf("\n");
	}
	printf("speedup: getcpu+CAS's ns/pair over the row's; vs getcpu+CAS: the row's latency "
	       "change (negative: lower). Seed (jemalloc at Facebook): 1-2 %% lower average, 2-3 %% "
	       "lower p99 latency with rseq per-CPU caches\n");
}

static int default_threads(int ncpu, int *out)
{
	int n = 0;

	for (int t = 1; t <= 2 * ncpu && n < MAX_THREADS; t++)
		if (!(t & (t - 1)) || t == ncpu || t == 2 * ncpu)
			out[n++] = t;
	return n;
}

int main(int argc, char **argv)
{
	struct options o;
	struct row *rows;
	cpu_set_t allowed;
	int cpus[CPU_SETSIZE], ncpu, nslots = 0, have_rseq, n = 0, *pin, need = 1;
	char msg[256];

	lab_usage_init("lab-alloc", USAGE);
	parse_options(argc, argv, &o);
	if (o.list) {
		for (int i = 0; i < NSTRAT; i++)
			printf("%-20s %s\n", strategies[i]->name, strategies[i]->label);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("lab-alloc: sched_getaffinity");
		return 1;
	}
	ncpu = lab_cpu_list(&allowed, cpus, CPU_COUNT(&allowed));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			nslots = c + 1;
	if (o.cpu < 0)
		o.cpu = sched_getcpu();
	if (!CPU_ISSET(o.cpu, &allowed))
		lab_usage_error("--cpu %d is not a CPU this process may run on", o.cpu);
	have_rseq = rseq_available();
	for (int i = 0; i < NSTRAT; i++)
		if (!strategies[i]->rseq || have_rseq)
			strategies[i]->path(); /* also looks up the vDSO's getcpu */
	for (int i = 0; cpus[0] != o.cpu && i < ncpu; i++) {
		int first = cpus[0];

		memmove(cpus, cpus + 1, (ncpu - 1) * sizeof(int));
		cpus[ncpu - 1] = first;
	}
	if (o.check)
		return run_checks(&o, cpus, ncpu, nslots, have_rseq);
	if (o.out)
		lab_outfile_guard_signals();
	if (!o.nthreads)
		o.nthreads = default_threads(ncpu, o.threads);
	if (!o.nrthreads) {
		o.rthreads[o.nrthreads++] = 1;
		if (ncpu > 1)
			o.rthreads[o.nrthreads++] = ncpu;
	}
	for (int i = 0; i < o.nthreads; i++)
		need = o.threads[i] > need ? o.threads[i] : need;
	for (int i = 0; i < o.nrthreads; i++)
		need = o.rthreads[i] > need ? o.rthreads[i] : need;
	pin = calloc(need, sizeof(int));
	for (int i = 0; i < need; i++)
		pin[i] = cpus[i % ncpu];
	rows = calloc((size_t)NSTRAT * (o.nthreads + o.nrthreads), sizeof(*rows));
	for (int w = 0; w < 2; w++) {
		int cnt = w ? o.nrthreads : o.nthreads, *list = w ? o.rthreads : o.threads;

		if (!(w ? o.request : o.pair))
			continue;
		for (int ti = 0; ti < cnt; ti++)
			for (int i = 0; i < NSTRAT; i++) {
				const struct al_strategy *s = strategies[i];
				struct row *r = &rows[n];
				int why = s->rseq && !have_rseq;

				if (!o.selected[i])
					continue;
				n++;
				r->s = s;
				r->run = make_run(&o, list[ti], w, nslots, cpus, ncpu);
				r->r.method = s->name;
				r->r.label = s->label;
				r->r.strategy = w ? "alloc-request" : "alloc-pair";
				r->r.threads = list[ti];
				r->r.cpu = list[ti] == 1 && o.pin ? o.cpu : -1;
				r->r.reps = o.reps;
				r->r.glibc_rseq = lab_mode_name(lab_mode_now());
				r->r.counts_aborts = s->rseq;
				snprintf(r->r.status, sizeof(r->r.status), "%s", why ? "ENOSYS" : "ok");
				if (!why)
					snprintf(r->r.path, sizeof(r->r.path), "%s", s->path());
			}
	}
	printf("lab-alloc: %s/%s, %d CPUs, threads pinned %s, %d reps x %ld ms per row, burst %d, "
	       "glibc rseq %s\n", o.variant, o.accel, ncpu, o.pin ? "round-robin" : "no", o.reps,
	       o.duration_ms, o.burst, lab_mode_name(lab_mode_now()));
	fflush(stdout);
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];

		if (!lab_result_ok(&w->r))
			continue;
		if (calibrate(w, o.pin ? pin : NULL, o.duration_ms * 1000000ull, msg, sizeof(msg))) {
			fprintf(stderr, "lab-alloc: %s (%d threads): %s\n", w->s->name, w->r.threads,
				msg);
			return 1;
		}
		w->r.iters = w->run.iters;
		w->r.ns = calloc(o.reps, sizeof(double));
	}
	for (int rep = 0; rep < o.reps; rep++)
		for (int k = 0; k < n; k++) {
			struct row *w = &rows[(k + rep) % n];
			struct outcome out;

			if (!lab_result_ok(&w->r))
				continue;
			if (al_run(w->s, &w->run, o.pin ? pin : NULL, &out,
				   w->run.request ? &w->samples : NULL, &w->nsamples)) {
				fprintf(stderr, "lab-alloc: %s (%d threads): %s\n", w->s->name,
					w->r.threads, out.error);
				return 1;
			}
			w->r.ns[rep] = lab_per_op(out.wall_ns, w->run.iters);
			w->r.wall_ns_total += out.wall_ns;
			w->r.ops_total += w->run.iters * w->run.nthreads;
			w->r.aborts += out.aborts;
			w->refills += out.refills;
			w->flushes += out.flushes;
		}
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];

		if (!w->nsamples)
			continue;
		w->mean = lab_mean_ci(w->samples, w->nsamples);
		lab_sort_doubles(w->samples, w->nsamples);
		w->p50 = lab_quantile_ci(w->samples, w->nsamples, 0.5);
		w->p99 = lab_quantile_ci(w->samples, w->nsamples, 0.99);
	}
	report(rows, n);
	if (o.out && write_results(&o, rows, n, ncpu))
		return 1;
	return 0;
}
