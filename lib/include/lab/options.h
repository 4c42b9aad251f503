/* SPDX-License-Identifier: MIT */
/* Command-line errors shared by the bench programs: one line, the usage, exit status 2. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

/* Name the program and its usage line once, before parsing. */
void lab_usage_init(const char *prog, const char *usage);

/* "PROG: <message>; <usage>" on stderr, then exit(2). */
void __attribute__((noreturn, format(printf, 1, 2))) lab_usage_error(const char *fmt, ...);

/* A decimal number in [min, max], or a usage error naming WHAT. */
long lab_parse_long(const char *s, const char *what, long min, long max);

#endif
