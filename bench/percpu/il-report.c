/* SPDX-License-Identifier: MIT */
/* Where an instruction is, in the words of a refusal: the file and line from the binary's
 * DWARF (addr2line, binutils: the lab is built with -g), the strategy's own file first when
 * the instruction was inlined from a header (a selftests helper), and the instruction. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "il-model.h"

#if LAB_EX_SUPPORTED

static const char *il_short(const char *path)
{
	if (!strncmp(path, "./", 2))
		return path + 2;
	if (strstr(path, ".h:")) {
		const char *b = strrchr(path, '/');

		return b ? b + 1 : path;
	}
	return path;
}

void il_where(uint64_t pc, const char *insn, char *out, size_t len)
{
	char cmd[160], line[512], fn[128] = "", inner[256] = "", innerfn[128] = "", file[256] = "";
	FILE *p;
	int k = 0;

	snprintf(cmd, sizeof(cmd), "addr2line -i -f -e /proc/%d/exe 0x%llx 2>/dev/null",
		 (int)getpid(), (unsigned long long)pc);
	p = popen(cmd, "r");
	/* pairs of lines, innermost first: function, file:line (" (discriminator N)" after) */
	while (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (k++ % 2 == 0) {
			snprintf(fn, sizeof(fn), "%.120s", line);
			continue;
		}
		char *d = strstr(line, " (discriminator");

		if (d)
			*d = 0;
		if (!strncmp(line, "??", 2))
			continue;
		if (!*inner) {
			snprintf(inner, sizeof(inner), "%.250s", il_short(line));
			snprintf(innerfn, sizeof(innerfn), "%.120s", fn);
		}
		if (!*file && !strstr(line, ".h:"))
			snprintf(file, sizeof(file), "%.250s", il_short(line));
	}
	if (p)
		pclose(p);
	if (!*inner)
		snprintf(out, len, "0x%llx%s%s%s", (unsigned long long)pc, *insn ? " (`" : "", insn,
			 *insn ? "`)" : "");
	else if (!*file || !strcmp(file, inner))
		snprintf(out, len, "%s%s%s%s", inner, *insn ? " (`" : "", insn, *insn ? "`)" : "");
	else
		snprintf(out, len, "%s (in %s, %s)%s%s%s", file, innerfn, inner, *insn ? " (`" : "",
			 insn, *insn ? "`)" : "");
}

#endif
