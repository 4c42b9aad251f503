/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu: which per-CPU strategy, at what cost. Every case (lab/percpu.h) is timed with 1,
 * 2, ... up to 2x the CPU count threads, R repetitions interleaved, every run checked exact;
 * a seed-format table on stdout, CSV + metadata in --out DIR. --check instead runs each case
 * under 6 x NCPU threads with disturbances and prints TAP.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "lab/harness.h"
#include "lab/mt-bench.h"
#include "lab/selftests-rseq.h"
#include "lab/tap.h"
#include "explore.h"
#include "interleave.h"
#include "percpu-run.h"

#define USAGE "usage: lab-percpu [--method M,...] [--threads N,...] [--reps N] " \
	      "[--duration MS] [--cpu N] [--disturb yield,migrate,signal|all|none] " \
	      "[--every N] [--signal-us US] [--no-pin] [--out DIR] [--variant NAME] " \
	      "[--accel NAME] [--check] [--check-threads N] [--check-ops N] [--check-pinned] " \
	      "[--layout] [--interleave] [--explore [--bound K]] [--list]"

static const char *case_name(int i)
{
	return lab_pc_cases[i]->name;
}

static const char *no_path(void)
{
	return "";
}

/* How a strategy finds the CPU ("" when it does not say). */
static const char *path(const struct lab_strategy *c)
{
	return c->path ? c->path() : "";
}

/* --check-pinned: the check's threads pinned round-robin, as the timed runs' are, so that
 * every preemption inside an operation hands the CPU (and its slot) to another thread. */
static int check_pinned;
/* --interleave: the deterministic interleaving check (interleave.h) instead of --check;
 * --explore: the bounded exploration of schedules (explore.h), up to --bound events each. */
static int interleave, explore, bound = LAB_EX_BOUND;

static void parse_options(int argc, char **argv, struct lab_mt_options *o)
{
	static struct lab_mt_bench bench = {
		"lab-percpu", "percpu", USAGE, 0, case_name, 4096, 20000, LAB_OPS_MAX,
	};
	static const struct option own[] = {
		{ "layout", no_argument, NULL, 'L' }, { "check-pinned", no_argument, NULL, 'P' },
		{ "interleave", no_argument, NULL, 'I' }, { "explore", no_argument, NULL, 'E' },
		{ "bound", required_argument, NULL, 'B' }, { NULL, 0, NULL, 0 },
	};

	bench.ncases = lab_pc_ncases;
	lab_mt_options_init(o, &bench);
	int c;

	while ((c = lab_mt_getopt(argc, argv, own, o)) != -1) {
		if (c == 'L')
			lab_pc_layout_out = stdout;
		else if (c == 'I')
			interleave = 1;
		else if (c == 'E')
			explore = 1;
		else if (c == 'B') {
			char *end;
			long k = strtol(optarg, &end, 10);

			if (*end || end == optarg || k < 0 || k > 8) {
				fprintf(stderr, "error: --bound %s: a number of events from 0 to 8\n", optarg);
				exit(2);
			}
			bound = (int)k;
		} else
			check_pinned = 1;
	}
}

static struct lab_pc_run make_run(const struct lab_mt_options *o, int nthreads, uint64_t iters,
				  const struct lab_mt_cpus *c)
{
	struct lab_pc_run run = { nthreads, iters, c->nslots,
				  lab_mt_disturb(o, c) };
	return run;
}

static int run_checks(const struct lab_mt_options *o, const struct lab_mt_cpus *cpus,
		      int have_rseq)
{
	int nthreads = lab_mt_check_threads(o, cpus);
	char dist[64];

	lab_disturb_name(o->disturb, dist, sizeof(dist));
	printf("# lab-percpu --check: %s/%s, %d CPUs, %d threads x %llu ops, disturbances %s\n",
	       o->variant, o->accel, cpus->ncpu, nthreads, (unsigned long long)o->check_ops, dist);
	for (int i = 0; i < lab_pc_ncases; i++) {
		const struct lab_strategy *c = lab_pc_cases[i];
		struct lab_pc_run run = make_run(o, nthreads, o->check_ops, cpus);
		struct lab_pc_outcome out;
		int ok;

		if (!o->selected[i])
			continue;
		if (c->rseq && !have_rseq) {
			tap_skip("ENOSYS", "%s", c->name);
			continue;
		}
		/* Not pinned (unless asked): the scheduler (and the migrate disturbance) moves
		   threads freely. */
		ok = lab_pc_run_case(c, &run, check_pinned, &out) == 0;
		tap_ok(ok, "%s: %d threads x %llu ops with %s: %s%s%s", c->name, nthreads,
		       (unsigned long long)o->check_ops, dist,
		       !ok ? out.error : !strcmp(c->shape, "list")
				? "every node once (count, checksum)" : "exact sum",
		       *path(c) ? ", via " : "", path(c));
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

/* --interleave: each selected case interrupted at every instruction of its operation; TAP,
 * with the coverage of each (instructions, interleavings, aborts) on a comment line. */
static int run_interleave(const struct lab_mt_options *o, const struct lab_mt_cpus *cpus,
			  int have_rseq)
{
	int cpu1 = cpus->ncpu > 1 ? cpus->cpus[1] : -1;

	printf("# lab-percpu --interleave: %s/%s, each operation interrupted at every "
	       "instruction on CPU %d: preempted, signalled", o->variant, o->accel, cpus->cpus[0]);
	if (cpu1 >= 0)
		printf(", moved to CPU %d\n", cpu1);
	else
		printf(" (one CPU: no migration pass)\n");
	for (int i = 0; i < lab_pc_ncases; i++) {
		const struct lab_strategy *c = lab_pc_cases[i];
		struct lab_il_result r;

		if (!o->selected[i])
			continue;
		if (c->rseq && !have_rseq) {
			tap_skip("ENOSYS", "%s", c->name);
			continue;
		}
		lab_pc_interleave(c, cpus->cpus[0], cpu1, &r);
		if (r.status == 2)
			tap_ok(0, "%s: cannot check: %s", c->name, r.error);
		else
			tap_ok(!r.status, "%s: %s", c->name, r.status ? r.error
			       : "every boundary interleaved, every invariant held");
		printf("#   %s: instructions %d, passes %d, interleavings %d, aborts %llu, "
		       "waits %llu, steps %llu, seconds %.3f\n", c->name, r.ninsn, r.passes,
		       r.interleavings, (unsigned long long)r.aborts, (unsigned long long)r.waits,
		       (unsigned long long)r.steps, r.seconds);
	}
	return tap_done();
}

/* --explore: each selected case's schedules explored (explore.h); TAP, with the bound
 * and what was explored on a comment line, and the schedule that broke an invariant. */
static int run_explore(const struct lab_mt_options *o, const struct lab_mt_cpus *cpus,
			  int have_rseq)
{
	int cpu1 = cpus->ncpu > 1 ? cpus->cpus[1] : -1;

	printf("# lab-percpu --explore: %s/%s, 3 threads (T0, T1 on CPU %d", o->variant, o->accel,
	       cpus->cpus[0]);
	if (cpu1 >= 0)
		printf(", T2 on CPU %d in parallel)", cpu1);
	else
		printf("; one CPU: nothing in parallel, no migration)");
	printf(", every schedule with up to %d preemptions, signals and migrations\n", bound);
	for (int i = 0; i < lab_pc_ncases; i++) {
		const struct lab_strategy *c = lab_pc_cases[i];
		struct lab_ex_result r;

		if (!o->selected[i])
			continue;
		if (c->rseq && !have_rseq) {
			tap_skip("ENOSYS", "%s", c->name);
			continue;
		}
		lab_pc_explore(c, cpus->cpus[0], cpu1, bound, &r);
		if (r.status == 2)
			tap_ok(0, "%s: cannot check: %s", c->name, r.error);
		else
			tap_ok(!r.status, "%s: %s", c->name, r.status ? r.error
			       : "every schedule explored, every invariant held");
		if (*r.schedule)
			printf("#   %s: schedule: %s\n", c->name, r.schedule);
		printf("#   %s: bound %d, threads %d, cpus %d, runs %d, states %llu, schedules %llu, "
		       "end states %llu, transitions %llu, steps %llu, aborts %llu, seconds %.3f\n",
		       c->name, r.bound, r.threads, r.cpus, r.runs, (unsigned long long)r.states,
		       (unsigned long long)r.schedules, (unsigned long long)r.outcomes,
		       (unsigned long long)r.transitions,
		       (unsigned long long)r.steps, (unsigned long long)r.aborts, r.seconds);
	}
	return tap_done();
}

struct row {
	struct lab_result r;
	const struct lab_strategy *c;
	struct lab_pc_run run;
};

static void write_meta(FILE *f, void *arg)
{
	const struct lab_mt_options *o = arg;
	char dist[64];

	lab_disturb_name(o->disturb, dist, sizeof(dist));
	fprintf(f, "disturb: %s\nrseq_helpers: kernel tree tools/testing/selftests/rseq\n"
		"kstats: %s\n", dist, lab_kstats_available() ? LAB_KSTATS_FILE : "none");
	/* make strategy's files (name@sha256 prefix), which the binary cannot know by itself. */
	if (getenv("LAB_STRATEGY"))
		fprintf(f, "strategy: %s\nstrategy_rows: %s\nstrategy_interleaved: %s\n"
			"strategy_explored: %s\n", getenv("LAB_STRATEGY"),
			getenv("LAB_STRATEGY_ROWS") ? getenv("LAB_STRATEGY_ROWS") : "",
			getenv("LAB_STRATEGY_INTERLEAVED") ? getenv("LAB_STRATEGY_INTERLEAVED") : "",
			getenv("LAB_STRATEGY_EXPLORED") ? getenv("LAB_STRATEGY_EXPLORED") : "");
	/* the row each of them is compared with (its .versus), for the report's speedup */
	if (getenv("LAB_STRATEGY_ROWS")) {
		const char *rows = getenv("LAB_STRATEGY_ROWS"), *sep = "";

		fprintf(f, "strategy_versus: ");
		for (int i = 0; i < lab_pc_ncases; i++) {
			const struct lab_strategy *c = lab_pc_cases[i];
			size_t n = strlen(c->name);

			for (const char *p = rows; c->versus && (p = strstr(p, c->name)); p += n)
				if ((p == rows || p[-1] == ',') && (p[n] == ',' || !p[n])) {
					fprintf(f, "%s%s=%s", sep, c->name, c->versus);
					sep = ",";
					break;
				}
		}
		fprintf(f, "\n");
	}
}

/* One run of a row (lab_mt_rows' run), checked exact; the kernel's counters when timed. */
static int run_row(void *p, const int *pin, uint64_t iters, int timed, struct lab_mt_outcome *m)
{
	struct row *w = p;
	struct lab_pc_outcome out;

	w->run.iters = iters;
	if (lab_pc_run_case(w->c, &w->run, pin != NULL, &out)) {
		snprintf(m->error, sizeof(m->error), "%s", out.error);
		return -1;
	}
	m->wall_ns = out.wall_ns;
	m->ops = out.ops;
	m->aborts = out.aborts;
	if (timed) {
		w->r.has_kstats = out.has_kstats;
		for (int i = 0; i < LAB_KSTATS_N; i++)
			w->r.kstats[i] += out.kstats[i];
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct lab_mt_options o;
	struct lab_mt_cpus cpus;
	struct lab_mt_rows timed = { NULL, sizeof(struct row), 0, run_row, 256, 1ull << 36, 0,
				     " lost operations" };
	struct row *rows;
	int have_rseq, n = 0;
	char dist[64], err[256];

	if (lab_pc_cases_load(err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return 2;
	}
	parse_options(argc, argv, &o);
	if (o.list) {
		for (int i = 0; i < lab_pc_ncases; i++)
			printf("%-26s %-8s %s\n", lab_pc_cases[i]->name, lab_pc_cases[i]->shape,
			       lab_pc_cases[i]->label);
		return 0;
	}
	if (lab_mt_cpus(&o, &cpus))
		return 1;
	have_rseq = rseq_available();
	if (interleave)
		return run_interleave(&o, &cpus, have_rseq);
	if (explore)
		return run_explore(&o, &cpus, have_rseq);
	if (o.check)
		return run_checks(&o, &cpus, have_rseq);
	lab_mt_timing_start(&o, &cpus);
	rows = calloc((size_t)lab_pc_ncases * o.nthreads, sizeof(*rows));
	for (int ti = 0; ti < o.nthreads; ti++)
		for (int i = 0; i < lab_pc_ncases; i++) {
			const struct lab_strategy *c = lab_pc_cases[i];
			struct row *w = &rows[n];

			if (!o.selected[i])
				continue;
			n++;
			w->c = c;
			w->run = make_run(&o, o.threads[ti], 0, &cpus);
			lab_mt_row(&w->r, &o, o.threads[ti], have_rseq,
				   &(struct lab_mt_case){ c->name, c->label, c->shape, c->rseq,
							  c->seed_ns, c->path ? c->path : no_path });
			w->r.counts_aborts = c->aborts;
		}
	lab_disturb_name(o.disturb, dist, sizeof(dist));
	printf("lab-percpu: %s/%s, %d CPUs, threads pinned %s, %d reps x %ld ms per row, "
	       "disturbances %s, glibc rseq %s, kernel rseq stats %s\n", o.variant, o.accel,
	       cpus.ncpu, o.pin ? "round-robin" : "no", o.reps, o.duration_ms, dist,
	       lab_mode_name(lab_mode_now()), lab_kstats_available() ? "yes" : "no");
	fflush(stdout);
	timed.rows = rows;
	timed.n = n;
	if (lab_mt_time(&o, &cpus, &timed))
		return 1;
	{
		struct lab_result *res = calloc(n, sizeof(*res));

		for (int k = 0; k < n; k++)
			res[k] = rows[k].r;
		lab_pc_report(stdout, res, n, cpus.ncpu);
		free(res);
	}
	if (o.out && lab_mt_write(&o, &cpus, &timed, NULL, NULL, write_meta, &o))
		return 1;
	return 0;
}
