/* SPDX-License-Identifier: MIT */
/*
 * The main of a bench that is a table of cases (lab/case-bench.h): every case verified on
 * every CPU first, R repetitions interleaved, a seed-format table on stdout, CSV + metadata
 * in --out DIR. Cases that need glibc's rseq registration the other way round from this
 * process run in a worker: this program re-executed with GLIBC_TUNABLES flipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/options.h"
#include "lab/case-bench.h"
#include "lab/icount.h"
#include "lab/meta.h"
#include "lab/outfile.h"
#include "lab/pmu.h"
#include "lab/results.h"
#include "lab/stats.h"
#include "lab/tap.h"

/* 2^40, or LONG_MAX where long is 32 bits (arm): 1L << 40 would be 0 there. */
#define LAB_OPS_MAX ((long)((1ULL << 40) < (unsigned long long)LONG_MAX ? (1ULL << 40) : LONG_MAX))

#define USAGE_OPTIONS "[--method M,...] [--reps N] [--duration MS] [--cpu N] [--out DIR] " \
	"[--variant NAME] [--accel NAME] [--icount] [--iters N] [--no-worker] [--check] [--list]"

struct options {
	int selected[64];
	int reps, cpu, check, worker, list;
	int icount;     /* count instructions (QEMU icount) instead of timing */
	uint64_t iters; /* fixed operations per loop; 0: calibrate to duration_ms */
	long duration_ms;
	const char *out, *variant, *accel;
};

static const struct lab_case_bench *bench;

static void select_methods(struct options *o, char *list)
{
	for (char *m = strtok(list, ","); m; m = strtok(NULL, ",")) {
		int i;

		for (i = 0; i < bench->ncases; i++)
			if (!strcmp(m, bench->cases[i].name))
				break;
		if (i == bench->ncases)
			lab_usage_error("unknown method '%s' (--list shows them)", m);
		o->selected[i] = 1;
	}
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "method", required_argument, NULL, 'm' }, { "reps", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' }, { "cpu", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' }, { "variant", required_argument, NULL, 'V' },
		{ "accel", required_argument, NULL, 'a' }, { "no-worker", no_argument, NULL, 'W' },
		{ "icount", no_argument, NULL, 'I' }, { "iters", required_argument, NULL, 'n' },
		{ "check", no_argument, NULL, 'k' }, { "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt, any = 0, reps_given = 0;

	memset(o, 0, sizeof(*o));
	o->reps = 5;
	o->duration_ms = 250;
	o->cpu = -1;
	o->worker = 1;
	o->variant = getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "host";
	o->accel = getenv("LAB_ACCEL") ? getenv("LAB_ACCEL") : "none";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (opt) {
		case 'm': select_methods(o, optarg); any = 1; break;
		case 'r': o->reps = lab_parse_long(optarg, "--reps", 1, 1000); reps_given = 1; break;
		case 'I': o->icount = 1; break;
		case 'n': o->iters = lab_parse_long(optarg, "--iters", 1, LAB_OPS_MAX); break;
		case 'd': o->duration_ms = lab_parse_long(optarg, "--duration (ms)", 1, 600000); break;
		case 'c': o->cpu = lab_parse_long(optarg, "--cpu", 0, CPU_SETSIZE - 1); break;
		case 'o': o->out = optarg; break;
		case 'V': o->variant = optarg; break;
		case 'a': o->accel = optarg; break;
		case 'W': o->worker = 0; break;
		case 'k': o->check = 1; break;
		case 'l': o->list = 1; break;
		case 'h': printf("usage: %s " USAGE_OPTIONS "\n", bench->prog); exit(0);
		default:
			lab_usage_error("bad option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		lab_usage_error("unexpected argument '%s'", argv[optind]);
	/* Under QEMU icount the figures are exact instruction counts: one repetition says all. */
	o->icount |= !strcmp(o->accel, "icount");
	if (o->icount && !reps_given)
		o->reps = 1;
	if (o->icount && !o->iters)
		o->iters = LAB_ICOUNT_ITERS;
	for (int i = 0; i < bench->ncases; i++)
		o->selected[i] |= !any;
	o->selected[0] = 1; /* the baseline (an empty loop): every ratio is against it */
}

/* The executor a case runs in, or NULL with why not in *why. */
static struct lab_exec *place(const struct lab_case *c, struct lab_exec *local,
			      struct lab_exec *worker, const char **why)
{
	enum lab_mode want = c->need == LAB_NEED_GLIBC_RSEQ_ON ? LAB_MODE_ON : LAB_MODE_OFF;

	*why = NULL;
	if (c->need == LAB_NEED_ANY || local->mode == LAB_MODE_ENOSYS || local->mode == want)
		return local;
	if (worker->pid)
		return worker;
	*why = want == LAB_MODE_OFF ? "needs glibc's rseq off (GLIBC_TUNABLES=glibc.pthread.rseq=0)"
				    : "needs glibc's rseq registration (glibc.pthread.rseq=1)";
	return NULL;
}

/* A worker of its own for a case whose library reads c->env() as its process starts, in this
   process's glibc rseq state, pinned to cpu; NULL with why not in *why. */
static struct lab_exec *start_own(struct lab_exec *e, const struct lab_case *c,
				  const struct lab_exec *local, int cpu, const char **why)
{
	static char msg[256];
	enum lab_mode mode = local->mode == LAB_MODE_ENOSYS ? LAB_MODE_ON : local->mode;

	if (lab_exec_spawn_env(e, mode, c->env(), msg, sizeof(msg)) ||
	    lab_exec_pin(e, cpu, msg, sizeof(msg))) {
		*why = msg;
		return NULL;
	}
	*why = NULL;
	return e;
}

/* Every worker stopped. */
static void stop_all(struct lab_exec *worker, struct lab_exec *own, int n)
{
	lab_exec_stop(worker);
	for (int i = 0; i < n; i++)
		if (own[i].pid)
			lab_exec_stop(&own[i]);
}

struct row {
	struct lab_result r;
	struct lab_exec *exec;
	int idx;
};

static int write_results(const struct options *o, struct row *rows, int n, int baseline,
			 const char *modes, int checked)
{
	struct lab_result *res = calloc(n, sizeof(*res));
	struct lab_labels labels = { o->variant, o->accel };
	struct lab_outfile files[2];
	FILE *csv, *meta;

	for (int i = 0; i < n; i++)
		res[i] = rows[i].r;
	char csv_name[64], meta_name[64];

	snprintf(csv_name, sizeof(csv_name), "%s.csv", bench->name);
	snprintf(meta_name, sizeof(meta_name), "%s.meta", bench->name);
	csv = lab_outfile_open(&files[0], o->out, csv_name);
	meta = csv ? lab_outfile_open(&files[1], o->out, meta_name) : NULL;
	if (!meta) {
		fprintf(stderr, "%s: cannot write in %s: %s\n", bench->prog, o->out, strerror(errno));
		if (csv)
			lab_outfile_abandon(&files[0]);
		return -1;
	}
	lab_results_csv(csv, &labels, res, n, baseline);
	fprintf(meta, "bench: %s\nvariant: %s\naccel: %s\n", bench->name, o->variant, o->accel);
	lab_meta_write_system(meta);
	fprintf(meta, "glibc_rseq: %s\nbench_cpu: %d\ncpus_verified: %d\nreps: %d\n"
		"duration_ms_per_rep: %ld\ntsc_source: %s\n", modes, rows[0].r.cpu, checked,
		o->reps, o->iters ? 0 : o->duration_ms,
		rows[0].r.tsc ? "TSC ticks (tsc_* columns)" : "none (TSC not invariant)");
	fprintf(meta, "figures: %s\niters_fixed: %llu\npmu: %s\n",
		o->icount ? "instructions/op (QEMU icount); a case whose path changes with n: virtual "
			    "ns/op of its timed loop (ns_per_op, no instructions_per_op)" : "ns/op",
		(unsigned long long)o->iters, o->icount ? "not used (icount)" :
		lab_pmu_why() ? lab_pmu_why() : "yes (cycles, instructions)");
	if (o->icount)
		fprintf(meta, "icount_n: per row, at most iters_fixed (or %d), so that the 2n loop lasts "
			"at most 1/%d of the %.0f-instruction tick; the fixed cost from loops of n/2 "
			"and n and from n and 2n must agree within 6 counter steps + %d instructions, "
			"else the row is empty (stderr says why)\nicount_counter_step: %g instructions (a figure carries +- 2 steps / n)\n",
			LAB_ICOUNT_ITERS, LAB_ICOUNT_TICK_SHARE, LAB_ICOUNT_TICK, LAB_ICOUNT_SLACK,
			lab_icount_step());
	if (bench->meta)
		bench->meta(meta);
	free(res);
	if (lab_outfile_commit(files, 2)) {
		fprintf(stderr, "%s: cannot finish %s: %s\n", bench->prog, files[0].path, strerror(errno));
		return -1;
	}
	return 0;
}

int lab_case_bench_main(const struct lab_case_bench *b, int argc, char **argv)
{
	const struct lab_case *cases = b->cases;
	char usage[512];
	struct lab_exec local, worker = { 0 }, own[64] = { 0 };
	struct options o;
	struct row rows[64];
	cpu_set_t cpus;
	char msg[256], modes[64];
	int n = 0, checked = 0, failed = 0, tsc;

	if (argc == 2 && !strcmp(argv[1], "--worker"))
		return lab_worker_serve(cases, b->ncases);
	bench = b;
	snprintf(usage, sizeof(usage), "usage: %s " USAGE_OPTIONS, b->prog);
	lab_usage_init(b->prog, usage);
	parse_options(argc, argv, &o);
	if (o.list) {
		for (int i = 0; i < b->ncases; i++)
			printf("%-22s %s\n", cases[i].name, cases[i].label);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		fprintf(stderr, "%s: sched_getaffinity: %s\n", b->prog, strerror(errno));
		return 1;
	}
	if (o.cpu < 0)
		o.cpu = sched_getcpu();
	if (!CPU_ISSET(o.cpu, &cpus))
		lab_usage_error("--cpu %d is not a CPU this process may run on", o.cpu);
	if (o.out)
		lab_outfile_guard_signals();
	tsc = lab_tsc_invariant();

	lab_exec_local(&local);
	snprintf(modes, sizeof(modes), "%s", lab_mode_name(local.mode));
	if (o.worker && local.mode != LAB_MODE_ENOSYS) {
		enum lab_mode other = local.mode == LAB_MODE_ON ? LAB_MODE_OFF : LAB_MODE_ON;

		if (lab_exec_spawn(&worker, other, msg, sizeof(msg)))
			fprintf(stderr, "%s: warning: %s\n", b->prog, msg);
		else
			snprintf(modes, sizeof(modes), "%s here, %s in a worker", lab_mode_name(local.mode),
				 lab_mode_name(other));
	}
	if (lab_exec_pin(&local, o.cpu, msg, sizeof(msg)) ||
	    (worker.pid && lab_exec_pin(&worker, o.cpu, msg, sizeof(msg)))) {
		fprintf(stderr, "%s: %s\n", b->prog, msg);
		return 1;
	}

	/*
	 * Plan, prepare and verify every row before any timing; then verify every row once more,
	 * now that all are prepared, in the state the timing loops will find (a row whose
	 * per-thread state another row's preparation changed, e.g. the GS base, must restore it).
	 */
	for (int i = 0; i < b->ncases; i++) {
		struct row *w = &rows[n];
		const char *why;

		if (!o.selected[i])
			continue;
		n++;
		memset(w, 0, sizeof(*w));
		w->idx = i;
		w->r.method = cases[i].name;
		w->r.label = cases[i].label;
		w->r.seed_ns = cases[i].seed_ns;
		w->r.threads = 1;
		w->r.cpu = o.cpu;
		w->r.reps = o.reps;
		w->exec = cases[i].env ? start_own(&own[n - 1], &cases[i], &local, o.cpu, &why)
				       : place(&cases[i], &local, &worker, &why);
		w->r.glibc_rseq = lab_mode_name(w->exec ? w->exec->mode : local.mode);
		if (!w->exec || lab_exec_prepare(w->exec, cases, i, w->r.path, sizeof(w->r.path),
						 msg, sizeof(msg))) {
			snprintf(w->r.status, sizeof(w->r.status), "%s", why ? why : msg);
			w->exec = NULL;
			continue;
		}
		if (lab_exec_verify(w->exec, cases, i, &cpus, o.cpu, &checked, msg, sizeof(msg)))
			snprintf(w->r.status, sizeof(w->r.status), "wrong CPU: %.200s", msg);
		else
			snprintf(w->r.status, sizeof(w->r.status), "ok");
	}
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];
		const struct lab_case *c = &cases[w->idx];
		int ok;

		if (!w->exec) {
			if (o.check)
				tap_skip(w->r.status, "%s (glibc rseq %s)", w->r.method, w->r.glibc_rseq);
			continue;
		}
		if (lab_result_ok(&w->r) && lab_exec_verify(w->exec, cases, w->idx, &cpus, o.cpu,
							    &checked, msg, sizeof(msg)))
			snprintf(w->r.status, sizeof(w->r.status),
				 "wrong CPU once every row was prepared: %.200s", msg);
		ok = lab_result_ok(&w->r);
		if (o.check) {
			tap_ok(ok, "%s (glibc rseq %s) %s on each of %d CPUs%s%s%s%s",
			       w->r.method, w->r.glibc_rseq,
			       c->read ? "reads the pinned CPU" : "runs pinned",
			       ok ? checked : CPU_COUNT(&cpus), w->r.path[0] ? ", via " : "",
			       w->r.path, ok ? "" : ": ", ok ? "" : w->r.status);
		} else if (!ok) {
			fprintf(stderr, "%s: %s gives a %s\n", b->prog, w->r.method, w->r.status);
			failed = 1;
		}
	}
	if (o.check) {
		stop_all(&worker, own, n);
		return tap_done();
	}
	if (failed) {
		stop_all(&worker, own, n);
		return 1;
	}

	/* Loop counts, then R rounds over all rows, each round starting one row further on. */
	for (int k = 0; k < n; k++) {
		struct row *w = &rows[k];

		if (!w->exec)
			continue;
		/* A case timed under icount runs for --duration of virtual time, ticks averaged in. */
		w->r.iters = o.icount && cases[w->idx].icount_timed ? 0 : o.iters;
		if (!w->r.iters && lab_exec_calibrate(w->exec, cases, w->idx, o.duration_ms * 1000000ull,
						   &w->r.iters, msg, sizeof(msg))) {
			fprintf(stderr, "%s: %s: %s\n", b->prog, w->r.method, msg);
			return 1;
		}
		if (o.icount && !cases[w->idx].icount_timed) {
			w->r.instr = calloc(o.reps, sizeof(double));
			w->r.instr_source = "icount";
			continue;
		}
		w->r.ns = calloc(o.reps, sizeof(double));
		w->r.tsc = tsc ? calloc(o.reps, sizeof(double)) : NULL;
		if (!lab_pmu_why()) {
			w->r.instr = calloc(o.reps, sizeof(double));
			w->r.instr_source = "pmu";
			w->r.pmu_cycles = calloc(o.reps, sizeof(double));
		}
	}
	if (o.icount)
		printf("%s: %s/%s, CPU %d, instructions/op (QEMU icount), %d rep(s) x "
		       "%llu ops, glibc rseq %s\n", b->prog, o.variant, o.accel, o.cpu, o.reps,
		       (unsigned long long)o.iters, modes);
	else
		printf("%s: %s/%s, CPU %d, %d reps x %ld ms per row, glibc rseq %s\n",
		       b->prog, o.variant, o.accel, o.cpu, o.reps, o.duration_ms, modes);
	fflush(stdout);
	for (int rep = 0; rep < o.reps; rep++) {
		for (int k = 0; k < n; k++) {
			struct row *w = &rows[(k + rep) % n];
			struct lab_sample s;
			struct lab_kstats k0, k1;

			if (!w->exec)
				continue;
			if (o.icount && !cases[w->idx].icount_timed) {
				if (lab_exec_icount(w->exec, cases, w->idx, w->r.iters,
						    &w->r.instr[rep], msg, sizeof(msg))) {
					fprintf(stderr, "%s: %s: %s\n", b->prog, w->r.method, msg);
					return 1;
				}
				continue;
			}
			/* The kernel's rseq counters around the row (system-wide; absent: no figure). */
			lab_kstats_read(&k0);
			if (lab_exec_measure(w->exec, cases, w->idx, w->r.iters, &s, msg, sizeof(msg))) {
				fprintf(stderr, "%s: %s: %s\n", b->prog, w->r.method, msg);
				return 1;
			}
			lab_kstats_read(&k1);
			w->r.has_kstats = lab_kstats_add_delta(w->r.kstats, &k0, &k1) == 0;
			w->r.ns[rep] = lab_per_op(s.ns, w->r.iters);
			if (w->r.tsc)
				w->r.tsc[rep] = lab_per_op(s.ticks, w->r.iters);
			if (w->r.pmu_cycles && !isnan(s.pmu_cycles)) {
				w->r.pmu_cycles[rep] = lab_per_op(s.pmu_cycles, w->r.iters);
				w->r.instr[rep] = lab_per_op(s.pmu_instructions, w->r.iters);
			} else if (w->r.pmu_cycles) { /* the worker had no PMU: no figure */
				w->r.pmu_cycles = w->r.instr = NULL;
				w->r.instr_source = NULL;
			}
		}
	}
	stop_all(&worker, own, n);

	{
		struct lab_result res[64];

		for (int k = 0; k < n; k++)
			res[k] = rows[k].r;
		printf("\n%s\n", b->title);
		lab_results_table(stdout, res, n, 0);
		if (!o.icount && lab_pmu_why())
			printf("(%s: the PMU cycles/instructions columns are empty)\n", lab_pmu_why());
		if (!o.icount && b->goals)
			b->goals(stdout, res, n);
	}
	if (o.out && write_results(&o, rows, n, 0, modes, checked))
		return 1;
	return 0;
}
