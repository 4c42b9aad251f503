/* SPDX-License-Identifier: MIT */
/* Reading the rseq-stats debugfs file; see lab/kstats.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kstats.h"

const char *const lab_kstats_names[LAB_KSTATS_N] = {
	"notify_resume", "notify_resume_signal", "cpu_id_updates", "cs_checks", "lazy_clears",
	"ip_fixups", "abort_preempt", "abort_signal", "abort_migrate", "sigsegv",
};

static const char *stats_path(void)
{
	const char *p = getenv("LAB_RSEQ_STATS_FILE");

	return p && *p ? p : LAB_KSTATS_FILE;
}

int lab_kstats_read(struct lab_kstats *s)
{
	FILE *f = fopen(stats_path(), "r");
	char line[128], name[64];
	unsigned long long v;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[a-z_0-9]: %llu", name, &v) != 2)
			continue;
		for (int i = 0; i < LAB_KSTATS_N; i++)
			if (!strcmp(name, lab_kstats_names[i]))
				s->v[i] = v;
	}
	fclose(f);
	s->ok = 1;
	return 0;
}

int lab_kstats_available(void)
{
	struct lab_kstats s;

	return lab_kstats_read(&s) == 0;
}

int lab_kstats_add_delta(uint64_t *sum, const struct lab_kstats *before,
			 const struct lab_kstats *after)
{
	if (!before->ok || !after->ok)
		return -1;
	for (int i = 0; i < LAB_KSTATS_N; i++)
		sum[i] += after->v[i] - before->v[i];
	return 0;
}
