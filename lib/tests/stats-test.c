/* SPDX-License-Identifier: MIT */
/* Unit test of the harness arithmetic (lab/stats.h) and the CSV row it feeds, on fixed inputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/results.h"
#include "lab/stats.h"
#include "lab/tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_per_op(void)
{
	tap_ok(near(lab_per_op(2500000000.0, 1000000000), 2.5), "2.5e9 ns over 1e9 ops is 2.5 ns/op");
	tap_ok(near(lab_per_op(53.9e6, 1000000), 53.9), "53.9 ms over 1e6 ops is 53.9 ns/op");
	tap_ok(isnan(lab_per_op(100, 0)), "zero ops gives no figure (NaN), not a number");
	tap_ok(near(lab_ratio(13.0, 0.8), 16.25), "ratio 13.0 / 0.8 is 16.25");
	tap_ok(isnan(lab_ratio(1, 0)) && isnan(lab_ratio(NAN, 1)), "ratio to 0 or of NaN is NaN");
}

static void test_summary(void)
{
	const double odd[] = { 0.83, 0.80, 0.81, 0.95, 0.79 };
	const double even[] = { 4, 1, 3, 2 };
	const double one[] = { 7 };
	double copy[5];
	struct lab_summary s;

	memcpy(copy, odd, sizeof(odd));
	s = lab_summarize(copy, 5);
	tap_ok(near(s.median, 0.81), "median of 5 unsorted values is the middle one (%g)", s.median);
	tap_ok(near(s.min, 0.79) && near(s.max, 0.95), "min 0.79 and max 0.95 (%g, %g)", s.min, s.max);
	tap_ok(near(s.spread, (0.95 - 0.79) / 0.81), "spread is (max - min) / median (%g)", s.spread);
	tap_ok(!memcmp(copy, odd, sizeof(odd)), "the input is left unsorted");

	s = lab_summarize(even, 4);
	tap_ok(near(s.median, 2.5), "median of 4 values is the mean of the middle two (%g)", s.median);
	tap_ok(near(s.spread, 3 / 2.5), "spread of 1..4 is 1.2 (%g)", s.spread);

	s = lab_summarize(one, 1);
	tap_ok(near(s.median, 7) && near(s.spread, 0), "one value: median 7, spread 0");

	s = lab_summarize(NULL, 0);
	tap_ok(isnan(s.median) && isnan(s.spread), "no values: NaN, never a made-up zero");
}

/* The CSV row: ns_per_op is the median, ratio against the baseline, empty fields when no data. */
static void test_csv(void)
{
	double ens[3] = { 1.0, 1.2, 0.8 }, mns[3] = { 4.0, 5.0, 3.0 };
	struct lab_result r[3] = {
		{ .method = "empty", .label = "Baseline", .status = "ok", .glibc_rseq = "on",
		  .threads = 1, .cpu = 0, .reps = 3, .iters = 100, .ns = ens },
		{ .method = "m", .label = "a, \"quoted\" label", .status = "ok", .glibc_rseq = "on",
		  .threads = 1, .cpu = 0, .reps = 3, .iters = 50, .ns = mns, .seed_ns = 53.9 },
		{ .method = "rdpid", .label = "RDPID", .status = "unsupported: CPUID has no RDPID",
		  .glibc_rseq = "on", .threads = 1, .reps = 3 },
	};
	struct lab_labels l = { "host", "none" };
	char *buf = NULL, *line2, *line3;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lab_results_csv(f, &l, r, 3, 0);
	fclose(f);
	tap_ok(!strncmp(buf, "variant,accel,method,label,path,glibc_rseq,threads,", 51),
	       "CSV header starts with the required columns");
	line2 = strchr(buf, '\n') + 1;
	line2 = strchr(line2, '\n') + 1;
	line3 = strchr(line2, '\n') + 1;
	line3[-1] = 0;
	line3[strcspn(line3, "\n")] = 0;
	tap_ok(!strcmp(line2, "host,none,m,\"a, \"\"quoted\"\" label\",,on,1,0,ok,50,3,"
			      "4.0000,,4.0000,3.0000,5.0000,0.5000,,,4.0000,53.9000,4.0000;5.0000;3.0000,"
			      ",,,,,150" ",,,,,,,,,,"),
	       "a row: median 4, min 3, max 5, spread 0.5, 4x the empty loop, reps kept (%s)", line2);
	tap_ok(!strcmp(line3, "host,none,rdpid,RDPID,,on,1,0,unsupported: CPUID has no RDPID,,,"
			      ",,,,,,,,,,,,,,,," ",,,,,,,,,,"),
	       "an unsupported row has its reason and empty figures (%s)", line3);
	free(buf);
}

/* The per-CPU bench's columns: strategy, ops_total, aborts and kernel events per Mop. */
static void test_percpu_columns(void)
{
	double ns[1] = { 2.0 };
	struct lab_result r = { .method = "counter-rseq", .label = "rseq", .status = "ok",
				.glibc_rseq = "on", .threads = 2, .cpu = -1, .reps = 1,
				.iters = 1000000, .ns = ns, .strategy = "counter",
				.ops_total = 2000000, .counts_aborts = 1, .aborts = 6,
				.wall_ns_total = 2e6, .has_kstats = 1 };
	struct lab_labels l = { "rseq-stats", "tcg" };
	char *buf = NULL, *row;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	r.kstats[LAB_KS_FIXUP] = 4;
	lab_results_csv(f, &l, &r, 1, -1);
	fclose(f);
	tap_ok(strstr(buf, ",strategy,ops_total,aborts_per_mop,mops_per_s,k_exit_per_mop,")
	       && strstr(buf, ",k_fixup_per_mop\n"), "CSV header has the per-CPU columns");
	row = strchr(buf, '\n') + 1;
	row[strcspn(row, "\n")] = 0;
	tap_ok(strstr(row, ",counter,2000000,3.0000,1000.0000,0.0000,0.0000,0.0000,0.0000,"
		       "0.0000,0.0000,0.0000,2.0000") != NULL,
	       "per-CPU row: 3 aborts and 2 kernel fixups per Mop, 1000 Mops/s (%s)", row);
	free(buf);
}

int main(void)
{
	test_per_op();
	test_summary();
	test_csv();
	test_percpu_columns();
	return tap_done();
}
