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
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/harness.h"
#include "lab/meta.h"
#include "lab/options.h"
#include "lab/outfile.h"
#include "lab/results-cols.h"
#include "lab/selftests-rseq.h"
#include "lab/stats.h"
#include "lab/tap.h"
#include "lab/threads.h"
#include "ringbuf.h"

#define USAGE "usage: lab-ringbuf [--method M,...] [--threads N,...] [--reps N] " \
	      "[--duration MS] [--cpu N] [--subbuf BYTES] [--subbufs N] " \
	      "[--disturb yield,migrate,signal|all|none] [--every N] [--signal-us US] " \
	      "[--no-pin] [--out DIR] [--variant NAME] [--accel NAME] [--check] " \
	      "[--check-threads N] [--check-ops N] [--list]"
#define MAX_THREADS 64

static const struct rb_strategy *const strategies[] = { &rb_getcpu_atomic, &rb_rseq,
							 &rb_per_thread };
#define NSTRAT ((int)(sizeof(strategies) / sizeof(strategies[0])))

struct options {
	int selected[NSTRAT], threads[MAX_THREADS], nthreads;
	int reps, cpu, check, list, pin, check_threads, nsub;
	long duration_ms, signal_us, subbuf;
	uint64_t every, check_ops;
	unsigned disturb;
	const char *out, *variant, *accel;
};

static void parse_list(struct options *o, char *list, int methods)
{
	char *save;

	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		if (!methods) {
			if (o->nthreads == MAX_THREADS)
				lab_usage_error("--threads takes at most %d counts", MAX_THREADS);
			o->threads[o->nthreads++] =
				lab_parse_long(m, "--threads (each count)", 1, 4095);
			continue;
		}
		int i;

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
		{ "method", required_argument, NULL, 'm' }, { "threads", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' }, { "duration", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, 'c' }, { "subbuf", required_argument, NULL, 'S' },
		{ "subbufs", required_argument, NULL, 'N' }, { "disturb", required_argument, NULL, 'D' },
		{ "every", required_argument, NULL, 'e' }, { "signal-us", required_argument, NULL, 's' },
		{ "no-pin", no_argument, NULL, 'P' }, { "out", required_argument, NULL, 'o' },
		{ "variant", required_argument, NULL, 'V' }, { "accel", required_argument, NULL, 'a' },
		{ "check", no_argument, NULL, 'k' }, { "check-threads", required_argument, NULL, 'T' },
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
	o->check_ops = 50000;
	o->subbuf = 0; /* 16 KiB for timing; 512 bytes for --check, to wrap and fill often */
	o->nsub = 4;
	o->disturb = (unsigned)-1;
	o->variant = getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "host";
	o->accel = getenv("LAB_ACCEL") ? getenv("LAB_ACCEL") : "none";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (opt) {
		case 'm': parse_list(o, optarg, 1); any = 1; break;
		case 't': o->nthreads = 0; parse_list(o, optarg, 0); break;
		case 'r': o->reps = lab_parse_long(optarg, "--reps", 1, 1000); break;
		case 'd': o->duration_ms = lab_parse_long(optarg, "--duration (ms)", 1, 600000); break;
		case 'c': o->cpu = lab_parse_long(optarg, "--cpu", 0, 4095); break;
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
		case 'T': o->check_threads = lab_parse_long(optarg, "--check-threads", 1, 4095); break;
		case 'O': o->check_ops = lab_parse_long(optarg, "--check-ops", 1, 1L << 31); break;
		case 'l': o->list = 1; break;
		case 'h': printf(USAGE "\n"); exit(0);
		default: lab_usage_error("bad option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		lab_usage_error("unexpected argument '%s'", argv[optind]);
	for (int i = 0; i < NSTRAT; i++)
		o->selected[i] |= !any;
	if (o->disturb == (unsigned)-1)
		o->disturb = o->check ? LAB_DIS_ALL : 0;
	if (!o->subbuf)
		o->subbuf = o->check ? 512 : 16384;
}

static int default_threads(int ncpu, int *out)
{
	int n = 0;

	for (int t = 1; t <= 2 * ncpu && n < MAX_THREADS; t++)
		if (!(t & (t - 1)) || t == ncpu || t == 2 * ncpu)
			out[n++] = t;
	return n;
}

static struct rb_run make_run(const struct options *o, const struct rb_strategy *s, int nthreads,
			      uint64_t iters, int nslots, const int *cpus, int ncpu)
{
	struct rb_run run = { nthreads, iters, s->per_thread ? nthreads : nslots, o->subbuf,
			      o->nsub, o->check, !o->check, { o->disturb, o->every, o->signal_us, cpus, ncpu } };
	return run;
}

static int run_checks(const struct options *o, const int *cpus, int ncpu, int nslots,
		      int have_rseq)
{
	int nthreads = o->check_threads ? o->check_threads : 6 * ncpu;
	char dist[64];

	lab_disturb_name(o->disturb, dist, sizeof(dist));
	printf("# lab-ringbuf --check: %s/%s, %d CPUs, %d threads x %llu events, %d x %ld-byte "
	       "sub-buffers, disturbances %s\n", o->variant, o->accel, ncpu, nthreads,
	       (unsigned long long)o->check_ops, o->nsub, o->subbuf, dist);
	for (int i = 0; i < NSTRAT; i++) {
		const struct rb_strategy *s = strategies[i];
		struct rb_run run = make_run(o, s, nthreads, o->check_ops, nslots, cpus, ncpu);
		struct rb_outcome out;
		int ok;

		if (!o->selected[i])
			continue;
		if (s->rseq && !have_rseq) {
			tap_skip("ENOSYS", "%s", s->name);
			continue;
		}
		ok = rb_run(s, &run, NULL, &out) == 0;
		tap_ok(ok, "%s: %d threads x %llu events with %s: %s", s->name, nthreads,
		       (unsigned long long)o->check_ops, dist,
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

static int write_results(const struct options *o, struct row *rows, int n, int ncpu)
{
	struct lab_result *res = calloc(n, sizeof(*res));
	struct lab_labels labels = { o->variant, o->accel };
	struct lab_outfile files[2];
	FILE *csv, *meta;
	int bad;

	for (int i = 0; i < n; i++)
		res[i] = rows[i].r;
	csv = lab_outfile_open(&files[0], o->out, "ringbuf.csv");
	meta = csv ? lab_outfile_open(&files[1], o->out, "ringbuf.meta") : NULL;
	if (!meta) {
		fprintf(stderr, "lab-ringbuf: cannot write in %s: %s\n", o->out, strerror(errno));
		if (csv)
			lab_outfile_abandon(&files[0]);
		return -1;
	}
	bad = lab_results_csv_cols(csv, &labels, res, n, -1,
				   ",full_waits_per_mop,remote_commits_per_mop,subbuf_bytes,subbufs",
				   extra_cols, rows);
	fprintf(meta, "bench: ringbuf\nvariant: %s\naccel: %s\n", o->variant, o->accel);
	lab_meta_write_system(meta);
	fprintf(meta, "glibc_rseq: %s\nbench_cpu: %d\ncpus: %d\nreps: %d\nduration_ms_per_rep: %ld\n"
		"pinned: %s\nsubbuf_bytes: %ld\nsubbufs: %d\nrecord_bytes: %d\n"
		"mode: flight recorder (overwrite), no reader during the timed run; afterwards the "
		"counts are reconciled and the newest records checked\n"
		"rseq_helpers: kernel tree tools/testing/selftests/rseq\n",
		lab_mode_name(lab_mode_now()), o->cpu, ncpu, o->reps, o->duration_ms,
		o->pin ? "yes, round-robin over the allowed CPUs" : "no", o->subbuf, o->nsub, RB_REC);
	free(res);
	if (bad || lab_outfile_commit(files, 2)) {
		fprintf(stderr, "lab-ringbuf: cannot finish %s: %s\n", files[0].path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Events per thread that make one run last about target_ns. */
static int calibrate(struct row *w, const int *pin, uint64_t target_ns, char *msg, size_t len)
{
	uint64_t probe = target_ns / 10 > 1000000 ? target_ns / 10 : 1000000;
	struct rb_outcome out;

	for (w->run.iters = 256;; w->run.iters *= 2) {
		if (rb_run(w->s, &w->run, pin, &out)) {
			snprintf(msg, len, "%s", out.error);
			return -1;
		}
		if (out.wall_ns >= (double)probe || w->run.iters >= (1ull << 30))
			break;
	}
	w->run.iters = (uint64_t)((double)w->run.iters * (double)target_ns /
				  (out.wall_ns > 1 ? out.wall_ns : 1));
	if (w->run.iters > 0xfffffff0ull)
		w->run.iters = 0xfffffff0ull; /* the payload is a 32-bit event number */
	if (!w->run.iters)
		w->run.iters = 1;
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
	struct row *rows;
	cpu_set_t allowed;
	int cpus[CPU_SETSIZE], ncpu, nslots = 0, have_rseq, n = 0;
	char msg[256];

	lab_usage_init("lab-ringbuf", USAGE);
	parse_options(argc, argv, &o);
	if (o.list) {
		for (int i = 0; i < NSTRAT; i++)
			printf("%-24s %s\n", strategies[i]->name, strategies[i]->label);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("lab-ringbuf: sched_getaffinity");
		return 1;
	}
	ncpu = lab_cpu_list(&allowed, cpus, CPU_COUNT(&allowed));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			nslots = c + 1;
	if (nslots > 4096) {
		fprintf(stderr, "lab-ringbuf: CPU numbers above 4095 do not fit the record header\n");
		return 1;
	}
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
	{
		int need = 0;

		for (int ti = 0; ti < o.nthreads; ti++)
			need = o.threads[ti] > need ? o.threads[ti] : need;
		int *pin = calloc(need, sizeof(int));

		for (int i = 0; i < need; i++)
			pin[i] = cpus[i % ncpu];
		rows = calloc((size_t)NSTRAT * o.nthreads, sizeof(*rows));
		for (int ti = 0; ti < o.nthreads; ti++)
			for (int i = 0; i < NSTRAT; i++) {
				const struct rb_strategy *s = strategies[i];
				struct row *w = &rows[n];
				int why = s->rseq && !have_rseq;

				if (!o.selected[i])
					continue;
				n++;
				w->s = s;
				w->run = make_run(&o, s, o.threads[ti], 0, nslots, cpus, ncpu);
				w->r.method = s->name;
				w->r.label = s->label;
				w->r.strategy = "ringbuf-write";
				w->r.seed_ns = o.threads[ti] == 1 ? s->seed_ns : 0;
				w->r.threads = o.threads[ti];
				w->r.cpu = o.threads[ti] == 1 && o.pin ? o.cpu : -1;
				w->r.reps = o.reps;
				w->r.glibc_rseq = lab_mode_name(lab_mode_now());
				w->r.counts_aborts = s->rseq;
				snprintf(w->r.status, sizeof(w->r.status), "%s", why ? "ENOSYS" : "ok");
				if (!why)
					snprintf(w->r.path, sizeof(w->r.path), "%s", s->path());
			}
		printf("lab-ringbuf: %s/%s, %d CPUs, writers pinned %s, overwrite mode, %d reps x "
		       "%ld ms per row, %d x %ld-byte sub-buffers per buffer, glibc rseq %s\n",
		       o.variant, o.accel, ncpu, o.pin ? "round-robin" : "no", o.reps, o.duration_ms,
		       o.nsub, o.subbuf, lab_mode_name(lab_mode_now()));
		fflush(stdout);
		for (int k = 0; k < n; k++) {
			struct row *w = &rows[k];

			if (!lab_result_ok(&w->r))
				continue;
			if (calibrate(w, o.pin ? pin : NULL, o.duration_ms * 1000000ull, msg,
				      sizeof(msg))) {
				fprintf(stderr, "lab-ringbuf: %s (%d threads): %s\n", w->s->name,
					w->r.threads, msg);
				return 1;
			}
			w->r.iters = w->run.iters;
			w->r.ns = calloc(o.reps, sizeof(double));
		}
		for (int rep = 0; rep < o.reps; rep++)
			for (int k = 0; k < n; k++) {
				struct row *w = &rows[(k + rep) % n];
				struct rb_outcome out;

				if (!lab_result_ok(&w->r))
					continue;
				if (rb_run(w->s, &w->run, o.pin ? pin : NULL, &out)) {
					fprintf(stderr, "lab-ringbuf: %s (%d threads): %s\n",
						w->s->name, w->r.threads, out.error);
					return 1;
				}
				w->r.ns[rep] = lab_per_op(out.wall_ns, w->run.iters);
				w->r.wall_ns_total += out.wall_ns;
				w->r.ops_total += out.read;
				w->r.aborts += out.aborts;
				w->waits += out.waits;
				w->remote += out.remote;
			}
		free(pin);
	}
	report(rows, n);
	if (o.out && write_results(&o, rows, n, ncpu))
		return 1;
	return 0;
}
