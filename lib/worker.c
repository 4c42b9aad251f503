/* SPDX-License-Identifier: MIT */
/* The worker's side of exec.c: answer one request per line on stdin until EOF. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lab/harness.h"
#include "lab/icount.h"

static int serve_one(const struct lab_case *cases, int ncases, char *line)
{
	char msg[256] = "", path[128];
	char *p = line + 1;
	long idx = -1;
	int ret = 0;

	if (strchr("svcri", line[0])) {
		idx = strtol(p, &p, 10);
		if (idx < 0 || idx >= ncases) {
			printf("no bad case index %ld\n", idx);
			return 0;
		}
	}
	switch (line[0]) {
	case 'm':
		printf("ok %s\n", lab_mode_name(lab_mode_now()));
		return 0;
	case 'p':
		ret = lab_exec_pin(&(struct lab_exec){ 0 }, atoi(p), msg, sizeof(msg));
		break;
	case 's':
		ret = lab_exec_prepare(&(struct lab_exec){ 0 }, cases, idx, path, sizeof(path),
				       msg, sizeof(msg));
		if (ret == 0)
			snprintf(msg, sizeof(msg), "%s", path);
		break;
	case 'v': {
		cpu_set_t cpus;
		int home = strtol(p, &p, 10), checked;

		CPU_ZERO(&cpus);
		for (char *end;; p = end) {
			long cpu = strtol(p, &end, 10);

			if (end == p)
				break;
			CPU_SET(cpu, &cpus);
		}
		checked = lab_verify(&cases[idx], &cpus, home, msg, sizeof(msg));
		ret = checked < 0 ? -1 : 0;
		if (ret == 0)
			snprintf(msg, sizeof(msg), "%d", checked);
		break;
	}
	case 'c':
		snprintf(msg, sizeof(msg), "%" PRIu64,
			 lab_calibrate(&cases[idx], strtoull(p, NULL, 10)));
		break;
	case 'r': {
		struct lab_sample s = lab_measure(&cases[idx], strtoull(p, NULL, 10));

		snprintf(msg, sizeof(msg), "%.0f %.0f %.0f %.0f", s.ns, s.ticks, s.pmu_cycles,
			 s.pmu_instructions);
		break;
	}
	case 'i':
		snprintf(msg, sizeof(msg), "%.17g",
			 lab_icount_per_op(&cases[idx], strtoull(p, NULL, 10)));
		break;
	default:
		snprintf(msg, sizeof(msg), "unknown request '%c'", line[0]);
		ret = -1;
	}
	printf("%s %s\n", ret ? "no" : "ok", msg);
	return 0;
}

int lab_worker_serve(const struct lab_case *cases, int ncases)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, stdin) > 0) {
		line[strcspn(line, "\n")] = 0;
		serve_one(cases, ncases, line);
		fflush(stdout);
	}
	free(line);
	return 0;
}
