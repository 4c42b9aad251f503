/* SPDX-License-Identifier: MIT */
/* Machine and build facts for the metadata file. */
#define _GNU_SOURCE
#include <gnu/libc-version.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lab/arch.h"
#include "lab/meta.h"

#ifndef LAB_CC
#define LAB_CC "cc"
#endif
#ifndef LAB_CFLAGS
#define LAB_CFLAGS "unknown"
#endif

/* The value of the first "key : value" line of /proc/cpuinfo with this key, or "". */
static void cpuinfo_field(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	size_t klen = strlen(key);

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, klen) || !strchr(" \t:", line[klen]))
			continue;
		snprintf(out, len, "%s", colon + (colon[1] == ' ' ? 2 : 1));
		out[strcspn(out, "\n")] = 0;
		break;
	}
	if (f)
		fclose(f);
}

int lab_cpuinfo_flag(const char *flag)
{
	char flags[8192];
	size_t n = strlen(flag);

	cpuinfo_field("flags", flags, sizeof(flags));
	for (char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
	return 0;
}

int lab_tsc_invariant(void)
{
	return lab_cpuinfo_flag("constant_tsc") && lab_cpuinfo_flag("nonstop_tsc");
}

void lab_meta_write_system(FILE *f)
{
	static const char *const flags[] = { "rdpid", "rdtscp", "constant_tsc", "nonstop_tsc",
					     "tsc_known_freq", "hypervisor" };
	char model[256];
	struct utsname u;
	time_t now = time(NULL);
	char date[32];

	cpuinfo_field("model name", model, sizeof(model));
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "date: %s\n", date);
	fprintf(f, "cpu_model: %s\n", model[0] ? model : "unknown");
	fprintf(f, "arch: %s (%s)\n", u.machine, LAB_ARCH_NAME);
	fprintf(f, "cpus_online: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "cpuinfo_flags:");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		fprintf(f, " %s=%s", flags[i], lab_cpuinfo_flag(flags[i]) ? "yes" : "no");
	fprintf(f, "\ncpuid: rdpid=%s rdtscp=%s\n", lab_has_rdpid() ? "yes" : "no",
		lab_has_rdtscp() ? "yes" : "no");
	fprintf(f, "tsc_invariant: %s\n", lab_tsc_invariant() ? "yes" : "no");
	fprintf(f, "kernel_release: %s\n", u.release);
	fprintf(f, "kernel_version: %s\n", u.version);
	fprintf(f, "glibc: %s\n", gnu_get_libc_version());
	fprintf(f, "compiler: %s %s\n", LAB_CC, __VERSION__);
	fprintf(f, "cflags: %s\n", LAB_CFLAGS);
}
