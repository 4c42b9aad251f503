/* SPDX-License-Identifier: MIT */
/* lab-cpuread: every way of reading the current CPU (methods.c), run by the case-bench main. */
#include "cpu-read.h"
#include "goals.h"
#include "lab/case-bench.h"

static void goals(FILE *f, const struct lab_result *r, int n)
{
	struct lab_cpu_read_goals g = lab_cpu_read_judge(r, n);

	lab_cpu_read_print_goals(f, &g);
}

int main(int argc, char **argv)
{
	static struct lab_case_bench b = {
		.name = "cpu-read", .prog = "lab-cpuread",
		.title = "Benchmarking various approaches for reading the current CPU number",
		.goals = goals,
	};

	b.cases = lab_cpu_read_cases;
	b.ncases = lab_cpu_read_ncases;
	return lab_case_bench_main(&b, argc, argv);
}
