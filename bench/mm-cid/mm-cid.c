/* SPDX-License-Identifier: MIT */
/*
 * lab-mmcid: what Linux 6.3's rseq fields node_id and mm_cid give user space.
 *   reads:      ns per read of cpu_id, node_id and mm_cid from this thread's rseq area
 *               (glibc's at __rseq_offset, or our own registered at the size the kernel
 *               announces); a field the kernel does not provide is "unavailable", not a number.
 *   strategies: per-CPU vs per-mm_cid counters and lists (the slot index read inside the rseq
 *               critical section: cpu_id or mm_cid), at each thread count, with the process's
 *               affinity as given (--cpus N restricts it to N CPUs): ns per operation and the
 *               memory footprint (slots touched; slots are LAB_CACHE_LINE bytes), with exact checks:
 *               counter slots sum to threads x iterations, every list node is found again, and
 *               mm_cid stays below min(threads, CPUs allowed).
 * usage: lab-mmcid [--mode reads|strategies|all] [--threads N,N...] [--cpus N]
 *                  [--restrict N,N...|none] [--iters N] [--read-iters N] [--out DIR]
 *                  [--variant NAME] [--accel NAME] [--list]
 * --out DIR: reads.csv, strategies.csv and mm-cid.meta (a "note:" line per section) there, as
 * the lab's driver (scripts/bench-run) runs every bench; without it the CSV goes to stdout, a
 * "# " line before each section. --restrict: after the strategies on the CPUs allowed, again,
 * in a fresh process, with the affinity cut to N CPUs, for each N below that (default 1).
 * --variant and --accel are the driver's (it records them in the meta itself). --list: parse
 * the options (exit 2 on a bad one) and print the sections. Exit 1 when a check failed or a file could not be written.
 * --threads default: half the allowed CPUs, that many, twice and four times as many.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab/harness.h"
#include "lab/threads.h"
#include "mm-cid-area.h"
#include "mm-cid-cs.h"

#define MAX_THREADS 1024

struct run {
	const char *strategy; /* "counter" or "list" */
	unsigned long off;    /* MC_OFF_CPU_ID or MC_OFF_MM_CID */
	int threads;
	unsigned long iters;
	char *slots;          /* nslots lines */
	int nslots;
	pthread_barrier_t done;
};

struct thr {
	volatile struct mc_rseq *area;
	uint64_t aborts;
	uint32_t max_cid;     /* the largest mm_cid this thread saw (sampled) */
	struct mc_node node __attribute__((aligned(LAB_CACHE_LINE)));
} __attribute__((aligned(LAB_CACHE_LINE)));

static struct mc_info info;
static struct thr thr[MAX_THREADS];
/* Where each section goes: stdout, or its file under --out (a note to the meta). */
static FILE *reads_f, *strat_f, *meta_f;
static const char *out_dir;

/* The harness's threads (lab/threads.h): each registers its area before the release. */
static int thread_setup(int tid, void *arg, char *msg, size_t len)
{
	(void)arg;
	memset(&thr[tid], 0, sizeof(thr[tid]));
	thr[tid].area = mc_area_thread(&info);
	if (thr[tid].area)
		return 0;
	snprintf(msg, len, "rseq registration failed: %s", strerror(errno));
	return -1;
}

static void thread_body(int tid, void *arg)
{
	struct run *r = arg;
	struct thr *t = &thr[tid];
	volatile struct mc_rseq *area = t->area;
	struct mc_node *held = &t->node;
	int list = !strcmp(r->strategy, "list");

	for (unsigned long i = 0; i < r->iters; i++) {
		if (!list) {
			mc_inc(area, r->off, r->slots, &t->aborts);
		} else if (held) {
			mc_push(area, r->off, r->slots, held, &t->aborts);
			held = NULL;
		} else {
			held = mc_pop(area, r->off, r->slots, &t->aborts);
		}
		if ((i & 15) == 0 && mc_has_field(&info, MC_OFF_MM_CID) && area->mm_cid > t->max_cid)
			t->max_cid = area->mm_cid;
	}
	/* Whatever it holds goes back, so that the check finds every node in a list. */
	if (list && held)
		mc_push(area, r->off, r->slots, held, &t->aborts);
}

/* Stay registered (and counted by mm_cid) until every thread is done. */
static void thread_teardown(int tid, void *arg)
{
	struct run *r = arg;

	(void)tid;
	pthread_barrier_wait(&r->done);
	mc_area_thread_done(&info);
}

static int allowed_cpus(void)
{
	cpu_set_t s;

	return sched_getaffinity(0, sizeof(s), &s) ? -1 : CPU_COUNT(&s);
}

/* Keep the first N CPUs of the affinity mask: 0 on success. */
static int restrict_cpus(int n)
{
	cpu_set_t s, k;
	int kept = 0;

	if (sched_getaffinity(0, sizeof(s), &s))
		return -1;
	CPU_ZERO(&k);
	for (int c = 0; c < CPU_SETSIZE && kept < n; c++)
		if (CPU_ISSET(c, &s)) {
			CPU_SET(c, &k);
			kept++;
		}
	return kept == n ? sched_setaffinity(0, sizeof(k), &k) : -1;
}

static int bad;

/* The largest mm_cid seen, or nothing when the kernel has none. */
static const char *max_cid_s(uint32_t v)
{
	static char b[16];

	if (!mc_has_field(&info, MC_OFF_MM_CID))
		return "";
	snprintf(b, sizeof(b), "%u", v);
	return b;
}

/* Whether the kernel has rseq at all: ENOSYS on RSEQ=n (any other answer to a NULL area). */
static int rseq_exists(void)
{
	errno = 0;
	syscall(SYS_rseq, NULL, 0, 0, 0);
	return errno != ENOSYS;
}

static void strategy_row(const char *strategy, const char *index, int threads,
			 unsigned long iters)
{
	struct run r = { .strategy = strategy, .threads = threads, .iters = iters };
	int allowed = allowed_cpus(), ncpu = (int)sysconf(_SC_NPROCESSORS_CONF), touched = 0;
	int used = threads < allowed ? threads : allowed;
	/* mm_cid < the process's threads (ours and main) and < the CPUs it may run on. */
	int cid_bound = threads + 1 < allowed ? threads + 1 : allowed;
	uint64_t sum = 0, aborts = 0, want;
	uint32_t max_cid = 0;
	struct lab_thread_job job = { .nthreads = threads, .arg = &r, .setup = thread_setup,
				      .body = thread_body, .teardown = thread_teardown };
	char msg[256];
	double wall, ns;
	int ok;

	r.off = !strcmp(index, "mm_cid") ? MC_OFF_MM_CID : MC_OFF_CPU_ID;
	/* Without rseq no index is ever written: the row says so instead of waiting for one. */
	if (!rseq_exists() || (!mc_has_field(&info, r.off) && r.off != MC_OFF_CPU_ID)) {
		fprintf(strat_f, "%s,%s,%d,%d,%d,%lu,unavailable,,,,,,,,\n", strategy, index, threads,
			allowed, ncpu, iters);
		fflush(strat_f);
		return;
	}
	/* Any index the kernel can hand out fits: both are below the number of possible CPUs. */
	r.nslots = ncpu;
	if (posix_memalign((void **)&r.slots, LAB_CACHE_LINE, (size_t)r.nslots * LAB_CACHE_LINE)) {
		fprintf(stderr, "error: out of memory\n");
		exit(1);
	}
	memset(r.slots, 0, (size_t)r.nslots * LAB_CACHE_LINE);
	pthread_barrier_init(&r.done, NULL, threads);
	/* The run: from the threads' release to the last one's end. */
	wall = lab_threads_run(&job, msg, sizeof(msg));
	pthread_barrier_destroy(&r.done);
	if (wall < 0) {
		fprintf(stderr, "error: %s\n", msg);
		exit(1);
	}
	for (int i = 0; i < threads; i++) {
		aborts += thr[i].aborts;
		if (thr[i].max_cid > max_cid)
			max_cid = thr[i].max_cid;
	}
	/* The checks: exact sums, every node found again. */
	for (int s = 0; s < r.nslots; s++) {
		uint64_t *slot = (uint64_t *)(r.slots + (size_t)s * LAB_CACHE_LINE);

		if (!strcmp(strategy, "counter")) {
			sum += *slot;
			touched += *slot != 0;
		} else {
			int n = 0;

			for (struct mc_node *p = (struct mc_node *)*slot; p && n <= threads; p = p->next)
				n++;
			sum += n;
			touched += n != 0;
		}
	}
	want = !strcmp(strategy, "counter") ? (uint64_t)threads * iters : (uint64_t)threads;
	ok = sum == want;
	if (mc_has_field(&info, MC_OFF_MM_CID) && max_cid >= (uint32_t)cid_bound)
		ok = 0;
	bad |= !ok;
	ns = wall * used / ((double)threads * iters);
	fprintf(strat_f, "%s,%s,%d,%d,%d,%lu,%s,%.3f,%.3f,%.4f,%d,%d,%d,%d,%s\n", strategy, index,
		threads, allowed, ncpu, iters, ok ? "ok" : "FAILED", ns,
		(double)threads * iters / wall * 1e3, aborts * 1e6 / ((double)threads * iters),
		touched, touched * LAB_CACHE_LINE, r.nslots * LAB_CACHE_LINE, cid_bound,
		max_cid_s(max_cid));
	fflush(strat_f);
	free(r.slots);
}

/* A section's note: a "note:" line of the meta under --out, a "# " line before its CSV on stdout. */
static void note(const char *fmt, ...)
{
	va_list ap;

	fputs(out_dir ? "note: " : "# ", meta_f);
	va_start(ap, fmt);
	vfprintf(meta_f, fmt, ap);
	va_end(ap);
	fflush(meta_f);
}

/* open_out NAME MODE: DIR/NAME under --out (MODE "a" in the re-executed copy), else stdout. */
static FILE *open_out(const char *name, const char *mode)
{
	char path[4096];
	FILE *f;

	if (!out_dir)
		return stdout;
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, mode);
	if (!f) {
		fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* close_out F NAME: every byte written, or exit 1 (a truncated file is no result). */
static void close_out(FILE *f, const char *name)
{
	if (f == stdout ? fflush(f) != 0 || ferror(f) : ferror(f) | fclose(f)) {
		fprintf(stderr, "error: cannot write %s: %s\n", name, strerror(errno));
		exit(1);
	}
}

/* A field of glibc's area counts only within __rseq_size (glibc 2.35-2.39 say 20 bytes). */
static int field_ok(unsigned long off)
{
	return mc_has_field(&info, off) && (!info.glibc || info.glibc_size >= off + 4);
}

static void read_rows(unsigned long n, int header)
{
	static const struct { const char *name; unsigned long off; } f[] = {
		{ "cpu_id", MC_OFF_CPU_ID }, { "node_id", MC_OFF_NODE_ID }, { "mm_cid", MC_OFF_MM_CID },
	};
	volatile struct mc_rseq *area = mc_area_thread(&info);

	if (header) {
		note("reads: AT_RSEQ_FEATURE_SIZE %lu, AT_RSEQ_ALIGN %lu, glibc __rseq_size %u "
		     "__rseq_offset %ld\n", info.feature_size, info.align, info.glibc_size,
		     info.glibc_offset);
		fprintf(reads_f, "field,area,area_size,status,ns_per_read,value\n");
	}
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		volatile uint32_t *p;
		uint32_t v = 0;
		double t0, t1;

		if (!area || !field_ok(f[i].off) ||
		    (f[i].off == MC_OFF_CPU_ID && (int32_t)area->cpu_id < 0)) {
			/* 6.1: the field is in memory, but the kernel never writes it. */
			fprintf(reads_f, "%s,%s,%lu,%s,,\n", f[i].name, info.glibc ? "glibc" : "own",
			       info.glibc ? info.glibc_size : info.reg_size,
			       !area || !mc_has_field(&info, f[i].off) ? "unavailable"
								       : "beyond_rseq_size");
			continue;
		}
		p = (volatile uint32_t *)((volatile char *)area + f[i].off);
		t0 = (double)lab_now_ns();
		for (unsigned long k = 0; k < n; k++)
			v += *p;
		t1 = (double)lab_now_ns();
		fprintf(reads_f, "%s,%s,%lu,ok,%.3f,%u\n", f[i].name, info.glibc ? "glibc" : "own",
			info.glibc ? info.glibc_size : info.reg_size, (t1 - t0) / n, *p);
	}
	fflush(reads_f);
}

static void usage(void)
{
	fprintf(stderr, "usage: lab-mmcid [--mode reads|strategies|all] [--threads N,N...] "
		"[--cpus N] [--restrict N,N...|none] [--iters N] [--read-iters N] [--out DIR] "
		"[--variant NAME] [--accel NAME] [--list]\n");
	exit(2);
}

static unsigned long num(const char *s, const char *opt)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s ? s : "", &e, 10);
	if (!s || !*s || *e || errno || v == 0) {
		fprintf(stderr, "error: %s needs a positive number, not '%s'\n", opt, s ? s : "");
		exit(2);
	}
	return v;
}

/* restricted_run N TLIST ITERS: this program again, its strategies on N CPUs, appending its rows
 * (--append); nonzero when it failed. */
static int restricted_run(int n, const char *tlist, unsigned long iters)
{
	char ns[16], is[32];
	const char *args[16] = { "/proc/self/exe", "--mode", "strategies", "--cpus", ns,
				 "--restrict", "none", "--iters", is, "--append" };
	int na = 10, status;
	pid_t pid;

	snprintf(ns, sizeof(ns), "%d", n);
	snprintf(is, sizeof(is), "%lu", iters);
	if (tlist)
		args[na++] = "--threads", args[na++] = tlist;
	if (out_dir)
		args[na++] = "--out", args[na++] = out_dir;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv(args[0], (char *const *)args);
		fprintf(stderr, "error: cannot re-execute /proc/self/exe: %s\n", strerror(errno));
		_exit(1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "error: the run on %d CPUs could not start: %s\n", n, strerror(errno));
		return 1;
	}
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* default_threads ALLOWED THREADS: half the CPUs, that many, twice and four times as many. */
static int default_threads(int allowed, int *threads)
{
	int n = 0;

	threads[n++] = allowed / 2 > 0 ? allowed / 2 : 1;
	if (allowed > 1)
		threads[n++] = allowed;
	threads[n++] = 2 * allowed;
	threads[n++] = 4 * allowed;
	return n;
}

/* strategy_rows: every strategy and index at each thread count, on the CPUs now allowed (the
 * CSV header first unless HEADER is 0). */
static void strategy_rows(const int *threads, int nthreads, unsigned long iters, int header)
{
	note("strategies: %d CPUs allowed of %ld, slots of %d bytes\n", allowed_cpus(),
	     sysconf(_SC_NPROCESSORS_CONF), LAB_CACHE_LINE);
	if (header)
		fprintf(strat_f, "strategy,index,threads,cpus_allowed,cpus_possible,iters,status,"
			"ns_per_op,mops_per_s,aborts_per_mop,slots_touched,bytes_touched,"
			"bytes_allocated,mm_cid_bound,max_mm_cid\n");
	for (int i = 0; i < nthreads; i++)
		for (int s = 0; s < 2; s++)
			for (int x = 0; x < 2; x++)
				strategy_row(s ? "list" : "counter", x ? "mm_cid" : "cpu", threads[i],
					     iters);
}

int main(int argc, char **argv)
{
	const char *mode = "all", *tlist = NULL, *restrict_list = "1";
	unsigned long iters = 2000000, riters = 10000000;
	int cpus = 0, threads[16], nthreads = 0, allowed, child, list = 0, cut[16], ncut = 0;
	int append = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--mode") && v && (!strcmp(v, "reads") || !strcmp(v, "strategies") ||
						  !strcmp(v, "all")))
			mode = argv[++i];
		else if (!strcmp(a, "--threads") && v)
			tlist = argv[++i];
		else if (!strcmp(a, "--restrict") && v)
			restrict_list = argv[++i];
		else if (!strcmp(a, "--cpus"))
			cpus = (int)num(v, a), i++;
		else if (!strcmp(a, "--iters"))
			iters = num(v, a), i++;
		else if (!strcmp(a, "--read-iters"))
			riters = num(v, a), i++;
		else if (!strcmp(a, "--out") && v)
			out_dir = argv[++i];
		else if ((!strcmp(a, "--variant") || !strcmp(a, "--accel")) && v)
			i++;
		else if (!strcmp(a, "--list"))
			list = 1;
		else if (!strcmp(a, "--append")) /* a restricted run's, after its parent's rows */
			append = 1;
		else
			usage();
	}
	if (strcmp(restrict_list, "none"))
		for (char *s = strdupa(restrict_list), *tok; (tok = strsep(&s, ",")) && ncut < 16;)
			cut[ncut++] = (int)num(tok, "--restrict");
	if (cpus && restrict_cpus(cpus)) {
		fprintf(stderr, "error: --cpus %d: cannot restrict the affinity to %d CPUs "
			"(%d allowed)\n", cpus, cpus, allowed_cpus());
		return 2;
	}
	allowed = allowed_cpus();
	if (tlist) {
		for (char *s = strdupa(tlist), *tok; (tok = strsep(&s, ",")) && nthreads < 16;) {
			threads[nthreads] = (int)num(tok, "--threads");
			if (threads[nthreads] > MAX_THREADS) {
				fprintf(stderr, "error: --threads: at most %d\n", MAX_THREADS);
				return 2;
			}
			nthreads++;
		}
	} else {
		nthreads = default_threads(allowed, threads);
	}
	if (list) {
		printf("%s%s", strcmp(mode, "strategies") ? "reads\n" : "",
		       strcmp(mode, "reads") ? "strategies\n" : "");
		return 0;
	}
	mc_area_probe(&info);
	child = getenv("LAB_MMCID_CHILD") != NULL;
	meta_f = open_out("mm-cid.meta", child || append ? "a" : "w");
	if (strcmp(mode, "strategies")) {
		reads_f = open_out("reads.csv", child ? "a" : "w");
		read_rows(riters, !child);
		close_out(reads_f, "reads.csv");
	}
	/*
	 * glibc's area promises only __rseq_size bytes: when that leaves out mm_cid on a kernel
	 * that has it, go on in a copy of this program with glibc's registration off, which
	 * registers its own area at the kernel's size (and adds its read rows).
	 */
	if (info.glibc && !field_ok(MC_OFF_MM_CID) && mc_has_field(&info, MC_OFF_MM_CID) &&
	    !child) {
		close_out(meta_f, "mm-cid.meta");
		setenv("GLIBC_TUNABLES", "glibc.pthread.rseq=0", 1);
		setenv("LAB_MMCID_CHILD", "1", 1);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "error: cannot re-execute /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	if (strcmp(mode, "reads")) {
		strat_f = open_out("strategies.csv", append ? "a" : "w");
		strategy_rows(threads, nthreads, iters, !append);
		close_out(strat_f, "strategies.csv");
	}
	close_out(meta_f, "mm-cid.meta");
	/*
	 * The same with the affinity cut, for each count below what is allowed: each in a fresh
	 * process, since the kernel bounds mm_cid by every CPU the process has been allowed.
	 */
	for (int k = 0; k < ncut && strcmp(mode, "reads"); k++)
		if (cut[k] < allowed)
			bad |= restricted_run(cut[k], tlist, iters);
	return bad;
}
