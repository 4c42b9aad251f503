/* SPDX-License-Identifier: MIT */
/*
 * Results files that appear whole or not at all: written under a temporary name in the same
 * directory and renamed at the end. SIGINT, SIGTERM and SIGHUP remove the temporary files.
 */
#ifndef LAB_OUTFILE_H
#define LAB_OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct lab_outfile {
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	FILE *f;
};

/* Install the signal handlers that remove unfinished files; call once, early. */
void lab_outfile_guard_signals(void);

/* Open DIR/NAME for writing (under a temporary name); NULL and errno on failure. */
FILE *lab_outfile_open(struct lab_outfile *o, const char *dir, const char *name);

/* Close and rename every file in o[0..n) to its final name; -1 and errno on failure. */
int lab_outfile_commit(struct lab_outfile *o, int n);

/* Close and remove an unfinished file. */
void lab_outfile_abandon(struct lab_outfile *o);

#endif
