/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu: which per-CPU strategy, at what cost. Every case (lab/percpu.h) is timed with 1,
 * 2, ... up to 2x the CPU count threads, R repetitions interleaved, every run checked exact;
 * a seed-format table on stdout, CSV + metadata in --out DIR. --check instead runs each case
 * under 6 x NCPU threads with disturbances and prints TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/options.h"
#include "lab/harness.h"
#include "lab/meta.h"
#include "lab/outfile.h"
#include "lab/selftests-rseq.h"
#include "percpu-run.h"
#include "lab/stats.h"
#include "lab/tap.h"
#include "lab/threads.h"

/* 2^40, or LONG_MAX where long is 32 bits (arm): 1L << 40 would be 0 there. */
#define LAB_OPS_MAX ((long)((1ULL << 40) < (unsigned long long)LONG_MAX ? (1ULL << 40) : LONG_MAX))

#define USAGE "usage: lab-percpu [--method M,...] [--threads N,...] [--reps N] " \
	      "[--duration MS] [--cpu N] [--disturb yield,migrate,signal|all|none] " \
	      "[--every N] [--signal-us US] [--no-pin] [--out DIR] [--variant NAME] " \
	      "[--accel NAME] [--check] [--check-threads N] [--check-ops N] [--layout] [--list]"
#define MAX_THREADS 64 /* distinct thread counts */

struct options {
	int selected[32], threads[MAX_THREADS], nthreads;
	int reps, cpu, check, list, pin, check_threads;
	long duration_ms, signal_us;
	uint64_t every, check_ops;
	unsigned disturb;
	const char *out, *variant, *accel;
};

static void select_methods(struct options *o, char *list)
{
	for (char *m = strtok(list, ","); m; m = strtok(NULL, ",")) {
		int i;

		for (i = 0; i < lab_pc_ncases; i++)
			if (!strcmp(m, lab_pc_cases[i]->name))
				break;
		if (i == lab_pc_ncases)
			lab_usage_error("unknown method '%s' (--list shows them)", m);
		o->selected[i] = 1;
	}
}

static void parse_threads(struct options *o, char *list)
{
	o->nthreads = 0;
	for (char *m = strtok(list, ","); m; m = strtok(NULL, ",")) {
		if (o->nthreads == MAX_THREADS)
			lab_usage_error("--threads takes at most %d counts", MAX_THREADS);
		o->threads[o->nthreads++] = lab_parse_long(m, "--threads (each count)", 1, 4096);
	}
	if (!o->nthreads)
		lab_usage_error("--threads needs at least one count");
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "method", required_argument, NULL, 'm' }, { "threads", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' }, { "duration", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, 'c' }, { "disturb", required_argument, NULL, 'D' },
		{ "every", required_argument, NULL, 'e' }, { "signal-us", required_argument, NULL, 's' },
		{ "no-pin", no_argument, NULL, 'P' }, { "out", required_argument, NULL, 'o' },
		{ "variant", required_argument, NULL, 'V' }, { "accel", required_argument, NULL, 'a' },
		{ "check", no_argument, NULL, 'k' }, { "check-threads", required_argument, NULL, 'T' },
		{ "check-ops", required_argument, NULL, 'O' }, { "list", no_argument, NULL, 'l' },
		{ "layout", no_argument, NULL, 'L' },
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
	o->check_ops = 20000;
	o->disturb = (unsigned)-1; /* unset: none for timing, all for --check */
	o->variant = getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "host";
	o->accel = getenv("LAB_ACCEL") ? getenv("LAB_ACCEL") : "none";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (opt) {
		case 'm': select_methods(o, optarg); any = 1; break;
		case 't': parse_threads(o, optarg); break;
		case 'r': o->reps = lab_parse_long(optarg, "--reps", 1, 1000); break;
		case 'd': o->duration_ms = lab_parse_long(optarg, "--duration (ms)", 1, 600000); break;
		case 'c': o->cpu = lab_parse_long(optarg, "--cpu", 0, CPU_SETSIZE - 1); break;
		case 'D':
			o->disturb = lab_disturb_parse(optarg, bad, sizeof(bad));
			if (o->disturb == (unsigned)-1)
				lab_usage_error("unknown disturbance '%s' (yield, migrate, signal, all, none)", bad);
			break;
		case 'e': o->every = lab_parse_long(optarg, "--every (operations)", 1, LAB_OPS_MAX); break;
		case 's': o->signal_us = lab_parse_long(optarg, "--signal-us", 10, 10000000); break;
		case 'P': o->pin = 0; break;
		case 'o': o->out = optarg; break;
		case 'V': o->variant = optarg; break;
		case 'a': o->accel = optarg; break;
		case 'k': o->check = 1; break;
		case 'T': o->check_threads = lab_parse_long(optarg, "--check-threads", 1, 4096); break;
		case 'O': o->check_ops = lab_parse_long(optarg, "--check-ops", 1, LAB_OPS_MAX); break;
		case 'l': o->list = 1; break;
		case 'L': lab_pc_layout_out = stdout; break;
		case 'h': printf(USAGE "\n"); exit(0);
		default:
			lab_usage_error("bad option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		lab_usage_error("unexpected argument '%s'", argv[optind]);
	for (int i = 0; i < lab_pc_ncases; i++)
		o->selected[i] |= !any;
	if (o->disturb == (unsigned)-1)
		o->disturb = o->check ? LAB_DIS_ALL : 0;
}

/* 1, 2, 4, ... plus the CPU count and twice it, up to 2 x NCPU. */
static int default_threads(int ncpu, int *out)
{
	int n = 0;

	for (int t = 1; t <= 2 * ncpu && n < MAX_THREADS; t++)
		if (!(t & (t - 1)) || t == ncpu || t == 2 * ncpu)
			out[n++] = t;
	return n;
}

/* Why a case cannot run here, or NULL. */
static const char *unrunnable(const struct lab_pc_case *c, int have_rseq)
{
	return c->rseq && !have_rseq ? "ENOSYS" : NULL;
}

static int run_checks(const struct options *o, const int *cpus, int ncpu, int nslots,
		      int have_rseq)
{
	int nthreads = o->check_threads ? o->check_threads : 6 * ncpu;
	char dist[64];

	lab_disturb_name(o->disturb, dist, sizeof(dist));
	printf("# lab-percpu --check: %s/%s, %d CPUs, %d threads x %llu ops, disturbances %s\n",
	       o->variant, o->accel, ncpu, nthreads, (unsigned long long)o->check_ops, dist);
	for (int i = 0; i < lab_pc_ncases; i++) {
		const struct lab_pc_case *c = lab_pc_cases[i];
		struct lab_pc_run run = { nthreads, o->check_ops, nslots,
					  { o->disturb, o->every, o->signal_us, cpus, ncpu } };
		struct lab_pc_outcome out;
		const char *why = unrunnable(c, have_rseq);
		int ok;

		if (!o->selected[i])
			continue;
		if (why) {
			tap_skip(why, "%s", c->name);
			continue;
		}
		/* Not pinned: the scheduler (and the migrate disturbance) moves threads freely. */
		ok = lab_pc_run_case(c, &run, 0, &out) == 0;
		tap_ok(ok, "%s: %d threads x %llu ops with %s: %s%s%s", c->name, nthreads,
		       (unsigned long long)o->check_ops, dist,
		       !ok ? out.error : !strcmp(c->strategy, "list")
				? "every node once (count, checksum)" : "exact sum",
		       *c->path() ? ", via " : "", c->path());
		printf("#   %s: %llu aborts, %llu signals", c->name,
		       (unsigned long long)out.aborts, (unsigned long long)out.signals);
		if (out.has_kstats)
			printf(", kernel fixup %llu, ids %llu",
			       (unsigned long long)out.kstats[LAB_KS_FIXUP],
			       (unsigned long long)out.kstats[LAB_KS_IDS]);
		printf("\n");
	}
	return tap_done();
}

struct row {
	struct lab_result r;
	const struct lab_pc_case *c;
	struct lab_pc_run run;
};

static int write_results(const struct options *o, struct row *rows, int n, int ncpu)
{
	struct lab_result *res = calloc(n, sizeof(*res));
	struct lab_labels labels = { o->variant, o->accel };
	struct lab_outfile files[2];
	FILE *csv, *meta;
	char dist[64];

	for (int i = 0; i < n; i++)
		res[i] = rows[i].r;
	csv = lab_outfile_open(&files[0], o->out, "percpu.csv");
	meta = csv ? lab_outfile_open(&files[1], o->out, "percpu.meta") : NULL;
	if (!meta) {
		fprintf(stderr, "lab-percpu: cannot write in %s: %s\n", o->out, strerror(errno));
		if (csv)
			lab_outfile_abandon(&files[0]);
		return -1;
	}
	lab_results_csv(csv, &labels, res, n, -1);
	lab_disturb_name(o->disturb, dist, sizeof(dist));
	fprintf(meta, "bench: percpu\nvariant: %s\naccel: %s\n", o->variant, o->accel);
	lab_meta_write_system(meta);
	fprintf(meta, "glibc_rseq: %s\nbench_cpu: %d\ncpus: %d\nreps: %d\nduration_ms_per_rep: %ld\n"
		"pinned: %s\ndisturb: %s\nrseq_helpers: kernel tree tools/testing/selftests/rseq\n"
		"kstats: %s\n", lab_mode_name(lab_mode_now()), o->cpu, ncpu, o->reps,
		o->duration_ms, o->pin ? "yes, round-robin over the allowed CPUs" : "no", dist,
		lab_kstats_available() ? LAB_KSTATS_FILE : "none");
	free(res);
	if (lab_outfile_commit(files, 2)) {
		fprintf(stderr, "lab-percpu: cannot finish %s: %s\n", files[0].path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Per-thread operations that make one run last about target_ns. */
static int calibrate(struct row *w, int pin, uint64_t target_ns, char *msg, size_t len)
{
	uint64_t probe = target_ns / 10 > 1000000 ? target_ns / 10 : 1000000;
	struct lab_pc_outcome out;

	for (w->run.iters = 256;; w->run.iters *= 2) {
		if (lab_pc_run_case(w->c, &w->run, pin, &out)) {
			snprintf(msg, len, "%s", out.error);
			return -1;
		}
		if (out.wall_ns >= (double)probe || w->run.iters >= (1ull << 36))
			break;
	}
	w->run.iters = (uint64_t)((double)w->run.iters * (double)target_ns /
				  (out.wall_ns > 1 ? out.wall_ns : 1));
	if (!w->run.iters)
		w->run.iters = 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct row *rows;
	cpu_set_t allowed;
	int cpus[CPU_SETSIZE], ncpu, nslots = 0, have_rseq, n = 0;
	char msg[256], dist[64];

	lab_usage_init("lab-percpu", USAGE);
	parse_options(argc, argv, &o);
	if (o.list) {
		for (int i = 0; i < lab_pc_ncases; i++)
			printf("%-26s %-8s %s\n", lab_pc_cases[i]->name, lab_pc_cases[i]->strategy,
			       lab_pc_cases[i]->label);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("lab-percpu: sched_getaffinity");
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
	/* Rows with one thread run on --cpu; the others round-robin from there. */
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

	rows = calloc((size_t)lab_pc_ncases * o.nthreads, sizeof(*rows));
	for (int ti = 0; ti < o.nthreads; ti++) {
		for (int i = 0; i < lab_pc_ncases; i++) {
			struct row *w = &rows[n];
			const struct lab_pc_case *c = lab_pc_cases[i];
			const char *why = unrunnable(c, have_rseq);

			if (!o.selected[i])
				continue;
			n++;
			w->c = c;
			w->run = (struct lab_pc_run){ o.threads[ti], 0, nslots,
						      { o.disturb, o.every, o.signal_us, cpus, ncpu } };
			w->r.method = c->name;
			w->r.label = c->label;
			w->r.strategy = c->strategy;
			w->r.seed_ns = o.threads[ti] == 1 ? c->seed_ns : 0;
			w->r.threads = o.threads[ti];
			w->r.cpu = o.threads[ti] == 1 && o.pin ? o.cpu : -1;
			w->r.reps = o.reps;
			w->r.glibc_rseq = lab_mode_name(lab_mode_now());
			w->r.counts_aborts = c->rseq;
			snprintf(w->r.status, sizeof(w->r.status), "%s", why ? why : "ok");
			if (!why)
				snprintf(w->r.path, sizeof(w->r.path), "%s", c->path());
		}
	}
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];

		if (!lab_result_ok(&w->r))
			continue;
		if (calibrate(w, o.pin, o.duration_ms * 1000000ull, msg, sizeof(msg))) {
			fprintf(stderr, "lab-percpu: %s (%d threads): %s\n", w->c->name,
				w->r.threads, msg);
			return 1;
		}
		w->r.iters = w->run.iters;
		w->r.ns = calloc(o.reps, sizeof(double));
	}
	lab_disturb_name(o.disturb, dist, sizeof(dist));
	printf("lab-percpu: %s/%s, %d CPUs, threads pinned %s, %d reps x %ld ms per row, "
	       "disturbances %s, glibc rseq %s, kernel rseq stats %s\n", o.variant, o.accel, ncpu,
	       o.pin ? "round-robin" : "no", o.reps, o.duration_ms, dist,
	       lab_mode_name(lab_mode_now()), lab_kstats_available() ? "yes" : "no");
	fflush(stdout);
	/* R rounds over all rows, each round starting one row further on. */
	for (int rep = 0; rep < o.reps; rep++) {
		for (int k = 0; k < n; k++) {
			struct row *w = &rows[(k + rep) % n];
			struct lab_pc_outcome out;

			if (!lab_result_ok(&w->r))
				continue;
			if (lab_pc_run_case(w->c, &w->run, o.pin, &out)) {
				fprintf(stderr, "lab-percpu: %s (%d threads) lost operations: %s\n",
					w->c->name, w->r.threads, out.error);
				return 1;
			}
			w->r.ns[rep] = lab_per_op(out.wall_ns, w->run.iters);
			w->r.wall_ns_total += out.wall_ns;
			w->r.ops_total += out.ops;
			w->r.aborts += out.aborts;
			w->r.has_kstats = out.has_kstats;
			for (int i = 0; i < LAB_KSTATS_N; i++)
				w->r.kstats[i] += out.kstats[i];
		}
	}
	{
		struct lab_result *res = calloc(n, sizeof(*res));

		for (int k = 0; k < n; k++)
			res[k] = rows[k].r;
		lab_pc_report(stdout, res, n, o.threads, o.nthreads, ncpu);
		free(res);
	}
	if (o.out && write_results(&o, rows, n, ncpu))
		return 1;
	return 0;
}
