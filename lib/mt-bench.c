/* SPDX-License-Identifier: MIT */
/* What the multi-threaded per-CPU benches share; see lab/mt-bench.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/disturb.h"
#include "lab/harness.h"
#include "lab/meta.h"
#include "lab/mt-bench.h"
#include "lab/options.h"
#include "lab/outfile.h"
#include "lab/results-cols.h"
#include "lab/stats.h"
#include "lab/threads.h"

enum {
	OPT_METHOD = LAB_MT_OWN_MAX, OPT_THREADS, OPT_REPS, OPT_DURATION, OPT_CPU, OPT_DISTURB,
	OPT_EVERY, OPT_SIGNAL_US, OPT_NO_PIN, OPT_OUT, OPT_VARIANT, OPT_ACCEL, OPT_CHECK,
	OPT_CHECK_THREADS, OPT_CHECK_OPS, OPT_LIST, OPT_HELP,
};

static const struct option shared[] = {
	{ "method", required_argument, NULL, OPT_METHOD },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "disturb", required_argument, NULL, OPT_DISTURB },
	{ "every", required_argument, NULL, OPT_EVERY },
	{ "signal-us", required_argument, NULL, OPT_SIGNAL_US },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "accel", required_argument, NULL, OPT_ACCEL },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "check-threads", required_argument, NULL, OPT_CHECK_THREADS },
	{ "check-ops", required_argument, NULL, OPT_CHECK_OPS },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "help", no_argument, NULL, OPT_HELP },
};
#define NSHARED ((int)(sizeof(shared) / sizeof(shared[0])))
#define MAX_OWN 16

static int methods_given;

void lab_mt_options_init(struct lab_mt_options *o, const struct lab_mt_bench *b)
{
	if (b->ncases > LAB_MT_MAX_CASES) {
		fprintf(stderr, "%s: %d cases, at most %d (LAB_MT_MAX_CASES)\n", b->prog, b->ncases,
			LAB_MT_MAX_CASES);
		exit(1);
	}
	memset(o, 0, sizeof(*o));
	o->b = b;
	o->reps = 5;
	o->duration_ms = 100;
	o->cpu = -1;
	o->pin = 1;
	o->every = 64;
	o->signal_us = 200;
	o->check_ops = b->check_ops;
	o->disturb = (unsigned)-1; /* unset: none for timing, all for --check */
	o->variant = getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "host";
	o->accel = getenv("LAB_ACCEL") ? getenv("LAB_ACCEL") : "none";
	lab_usage_init(b->prog, b->usage);
	methods_given = 0;
	opterr = 0;
}

int lab_mt_parse_counts(char *list, int *out, const char *option, int max)
{
	char *save, what[64];
	int n = 0;

	snprintf(what, sizeof(what), "%s (each count)", option);
	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		if (n == LAB_MT_MAX_COUNTS)
			lab_usage_error("%s takes at most %d counts", option, LAB_MT_MAX_COUNTS);
		out[n++] = lab_parse_long(m, what, 1, max);
	}
	if (!n)
		lab_usage_error("%s needs at least one count", option);
	return n;
}

static void select_methods(struct lab_mt_options *o, char *list)
{
	char *save;

	for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < o->b->ncases && strcmp(m, o->b->case_name(i)); i++)
			;
		if (i == o->b->ncases)
			lab_usage_error("unknown method '%s' (--list shows them)", m);
		o->selected[i] = 1;
	}
	methods_given = 1;
}

/* 0 when opt was a shared option (now in o); -1 when it is not one. */
static int shared_option(struct lab_mt_options *o, int opt, char *arg)
{
	const struct lab_mt_bench *b = o->b;
	char bad[64];

	switch (opt) {
	case OPT_METHOD: select_methods(o, arg); break;
	case OPT_THREADS:
		o->nthreads = lab_mt_parse_counts(arg, o->threads, "--threads", b->max_count);
		break;
	case OPT_REPS: o->reps = lab_parse_long(arg, "--reps", 1, 1000); break;
	case OPT_DURATION: o->duration_ms = lab_parse_long(arg, "--duration (ms)", 1, 600000); break;
	case OPT_CPU: o->cpu = lab_parse_long(arg, "--cpu", 0, CPU_SETSIZE - 1); break;
	case OPT_DISTURB:
		o->disturb = lab_disturb_parse(arg, bad, sizeof(bad));
		if (o->disturb == (unsigned)-1)
			lab_usage_error("unknown disturbance '%s' (yield, migrate, signal, all, none)", bad);
		break;
	case OPT_EVERY: o->every = lab_parse_long(arg, "--every (operations)", 1, LAB_OPS_MAX); break;
	case OPT_SIGNAL_US: o->signal_us = lab_parse_long(arg, "--signal-us", 10, 10000000); break;
	case OPT_NO_PIN: o->pin = 0; break;
	case OPT_OUT: o->out = arg; break;
	case OPT_VARIANT: o->variant = arg; break;
	case OPT_ACCEL: o->accel = arg; break;
	case OPT_CHECK: o->check = 1; break;
	case OPT_CHECK_THREADS:
		o->check_threads = lab_parse_long(arg, "--check-threads", 1, b->max_count);
		break;
	case OPT_CHECK_OPS: o->check_ops = lab_parse_long(arg, "--check-ops", 1, b->max_check_ops); break;
	case OPT_LIST: o->list = 1; break;
	case OPT_HELP: printf("%s\n", b->usage); exit(0);
	default: return -1;
	}
	return 0;
}

int lab_mt_getopt(int argc, char **argv, const struct option *own, struct lab_mt_options *o)
{
	static struct option all[NSHARED + MAX_OWN + 1];
	int n = 0, opt;

	memcpy(all, shared, sizeof(shared));
	for (; own && own[n].name; n++) {
		if (n == MAX_OWN) {
			fprintf(stderr, "%s: more than %d options of its own\n", o->b->prog, MAX_OWN);
			exit(1);
		}
		all[NSHARED + n] = own[n];
	}
	memset(&all[NSHARED + n], 0, sizeof(all[0]));
	while ((opt = getopt_long(argc, argv, "", all, NULL)) != -1) {
		if (opt > 0 && opt < LAB_MT_OWN_MAX && opt != '?')
			return opt;
		if (shared_option(o, opt, optarg))
			lab_usage_error("bad option '%s'", argv[optind - 1]);
	}
	if (optind < argc)
		lab_usage_error("unexpected argument '%s'", argv[optind]);
	for (int i = 0; i < o->b->ncases; i++)
		o->selected[i] |= !methods_given;
	if (o->disturb == (unsigned)-1)
		o->disturb = o->check ? LAB_DIS_ALL : 0;
	return -1;
}

int lab_mt_cpus(struct lab_mt_options *o, struct lab_mt_cpus *c)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		fprintf(stderr, "%s: sched_getaffinity: %s\n", o->b->prog, strerror(errno));
		return -1;
	}
	c->ncpu = lab_cpu_list(&allowed, c->cpus, CPU_COUNT(&allowed));
	c->nslots = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			c->nslots = cpu + 1;
	if (o->cpu < 0)
		o->cpu = sched_getcpu();
	if (!CPU_ISSET(o->cpu, &allowed))
		lab_usage_error("--cpu %d is not a CPU this process may run on", o->cpu);
	/* Rows with one thread run on --cpu; the others round-robin from there. */
	for (int i = 0; c->cpus[0] != o->cpu && i < c->ncpu; i++) {
		int first = c->cpus[0];

		memmove(c->cpus, c->cpus + 1, (c->ncpu - 1) * sizeof(int));
		c->cpus[c->ncpu - 1] = first;
	}
	return 0;
}

struct lab_disturb lab_mt_disturb(const struct lab_mt_options *o, const struct lab_mt_cpus *c)
{
	struct lab_disturb d = { o->disturb, o->every, o->signal_us, c->cpus, c->ncpu };

	return d;
}

int lab_mt_check_threads(const struct lab_mt_options *o, const struct lab_mt_cpus *c)
{
	return o->check_threads ? o->check_threads : 6 * c->ncpu;
}

void lab_mt_timing_start(struct lab_mt_options *o, const struct lab_mt_cpus *c)
{
	if (o->out)
		lab_outfile_guard_signals();
	if (o->nthreads)
		return;
	for (int t = 1; t <= 2 * c->ncpu && o->nthreads < LAB_MT_MAX_COUNTS; t++)
		if (!(t & (t - 1)) || t == c->ncpu || t == 2 * c->ncpu)
			o->threads[o->nthreads++] = t;
}

void lab_mt_row(struct lab_result *r, const struct lab_mt_options *o, int threads, int have_rseq,
		const struct lab_mt_case *c)
{
	int enosys = c->rseq && !have_rseq;

	r->method = c->name;
	r->label = c->label;
	r->strategy = c->strategy;
	r->seed_ns = threads == 1 ? c->seed_ns : 0;
	r->threads = threads;
	r->cpu = threads == 1 && o->pin ? o->cpu : -1;
	r->reps = o->reps;
	r->glibc_rseq = lab_mode_name(lab_mode_now());
	r->counts_aborts = c->rseq;
	snprintf(r->status, sizeof(r->status), "%s", enosys ? "ENOSYS" : "ok");
	if (!enosys)
		snprintf(r->path, sizeof(r->path), "%s", c->path());
}

/* Operations per thread that make one run of the row last about target_ns. */
static int calibrate(const struct lab_mt_rows *rows, int k, const int *pin, uint64_t target_ns,
		     char *msg, size_t len)
{
	uint64_t probe = target_ns / 10 > 1000000 ? target_ns / 10 : 1000000, n;
	struct lab_result *r = lab_mt_result(rows, k);
	struct lab_mt_outcome out;

	for (n = rows->first_iters;; n *= 2) {
		if (rows->run(r, pin, n, 0, &out)) {
			snprintf(msg, len, "%s", out.error);
			return -1;
		}
		if (out.wall_ns >= (double)probe || n >= rows->probe_iters)
			break;
	}
	n = (uint64_t)((double)n * (double)target_ns / (out.wall_ns > 1 ? out.wall_ns : 1));
	if (rows->max_iters && n > rows->max_iters)
		n = rows->max_iters;
	r->iters = n ? n : 1;
	return 0;
}

int lab_mt_time(const struct lab_mt_options *o, const struct lab_mt_cpus *c,
		const struct lab_mt_rows *rows)
{
	int need = 1, *pin, ret = -1;
	char msg[256];

	for (int k = 0; k < rows->n; k++)
		if (lab_mt_result(rows, k)->threads > need)
			need = lab_mt_result(rows, k)->threads;
	pin = calloc(need, sizeof(int));
	for (int i = 0; pin && i < need; i++)
		pin[i] = c->cpus[i % c->ncpu];
	for (int k = 0; k < rows->n; k++) {
		struct lab_result *r = lab_mt_result(rows, k);

		if (!lab_result_ok(r))
			continue;
		if (calibrate(rows, k, o->pin ? pin : NULL, o->duration_ms * 1000000ull, msg,
			      sizeof(msg))) {
			fprintf(stderr, "%s: %s (%d threads): %s\n", o->b->prog, r->method, r->threads,
				msg);
			goto done;
		}
		r->ns = calloc(o->reps, sizeof(double));
	}
	for (int rep = 0; rep < o->reps; rep++)
		for (int k = 0; k < rows->n; k++) {
			struct lab_result *r = lab_mt_result(rows, (k + rep) % rows->n);
			struct lab_mt_outcome out;

			if (!lab_result_ok(r))
				continue;
			if (rows->run(r, o->pin ? pin : NULL, r->iters, 1, &out)) {
				fprintf(stderr, "%s: %s (%d threads)%s: %s\n", o->b->prog, r->method,
					r->threads, rows->lost, out.error);
				goto done;
			}
			r->ns[rep] = lab_per_op(out.wall_ns, r->iters);
			r->wall_ns_total += out.wall_ns;
			r->ops_total += out.ops;
			r->aborts += out.aborts;
		}
	ret = 0;
done:
	free(pin);
	return ret;
}

int lab_mt_write(const struct lab_mt_options *o, const struct lab_mt_cpus *c,
		 const struct lab_mt_rows *rows, const char *extra_header,
		 void (*extra)(FILE *f, int row, void *arg), void (*meta)(FILE *f, void *arg),
		 void *arg)
{
	struct lab_result *res = calloc(rows->n, sizeof(*res));
	struct lab_labels labels = { o->variant, o->accel };
	struct lab_outfile files[2];
	char name[64];
	FILE *csv, *m;
	int bad;

	for (int i = 0; res && i < rows->n; i++)
		res[i] = *lab_mt_result(rows, i);
	snprintf(name, sizeof(name), "%s.csv", o->b->name);
	csv = res ? lab_outfile_open(&files[0], o->out, name) : NULL;
	snprintf(name, sizeof(name), "%s.meta", o->b->name);
	m = csv ? lab_outfile_open(&files[1], o->out, name) : NULL;
	if (!m) {
		fprintf(stderr, "%s: cannot write in %s: %s\n", o->b->prog, o->out, strerror(errno));
		if (csv)
			lab_outfile_abandon(&files[0]);
		free(res);
		return -1;
	}
	if (extra) {
		bad = lab_results_csv_cols(csv, &labels, res, rows->n, -1, extra_header, extra,
					   rows->rows);
	} else {
		lab_results_csv(csv, &labels, res, rows->n, -1);
		bad = ferror(csv);
	}
	fprintf(m, "bench: %s\nvariant: %s\naccel: %s\n", o->b->name, o->variant, o->accel);
	lab_meta_write_system(m);
	fprintf(m, "glibc_rseq: %s\nbench_cpu: %d\ncpus: %d\nreps: %d\nduration_ms_per_rep: %ld\n"
		"pinned: %s\n", lab_mode_name(lab_mode_now()), o->cpu, c->ncpu, o->reps,
		o->duration_ms, o->pin ? "yes, round-robin over the allowed CPUs" : "no");
	if (meta)
		meta(m, arg);
	free(res);
	if (bad || lab_outfile_commit(files, 2)) {
		fprintf(stderr, "%s: cannot finish %s: %s\n", o->b->prog, files[0].path,
			strerror(errno));
		return -1;
	}
	return 0;
}
