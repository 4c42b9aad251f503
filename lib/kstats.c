/* SPDX-License-Identifier: MIT */
/* Reading the kernel's rseq event counters in upstream's format; see lab/kstats.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kstats.h"

/* As the file spells them (upstream's kernel/rseq.c, 6.19: "slowp:", "fastp:"). */
const char *const lab_kstats_names[LAB_KSTATS_N] = {
	[LAB_KS_EXIT] = "exit",	  [LAB_KS_SIGNAL] = "signal", [LAB_KS_SLOWP] = "slowp",
	[LAB_KS_FASTP] = "fastp", [LAB_KS_IDS] = "ids",	      [LAB_KS_CS] = "cs",
	[LAB_KS_CLEAR] = "clear", [LAB_KS_FIXUP] = "fixup",
};

static const char *stats_path(void)
{
	const char *p = getenv("LAB_RSEQ_STATS_FILE");

	return p && *p ? p : LAB_KSTATS_FILE;
}

int lab_kstats_read(struct lab_kstats *s)
{
	const char *path = stats_path();
	FILE *f = fopen(path, "r");
	char line[128], name[64];
	unsigned long long v;
	int lines = 0;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		lines++;
		if (sscanf(line, " %63[a-z_0-9]: %llu", name, &v) != 2)
			continue;
		for (int i = 0; i < LAB_KSTATS_N; i++)
			if (!strcmp(name, lab_kstats_names[i])) {
				s->v[i] = v;
				s->have |= 1u << i;
			}
	}
	fclose(f);
	if (!s->have) {
		/* Another format (our pre-upstream series, a future kernel): never silent zeros. */
		fprintf(stderr, "error: %s: none of the expected counters (exit, slowp, ids, cs, "
			"fixup, ...) in its %d lines; not upstream's rseq stats format\n", path, lines);
		errno = EPROTO;
		return -1;
	}
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
		if ((before->have & after->have & (1u << i)) && after->v[i] >= before->v[i])
			sum[i] += after->v[i] - before->v[i];
	return 0;
}
