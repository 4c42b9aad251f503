/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: lab-ab whole (lib/lab-ab.c built with its main renamed lab_ab_main), fed
 * a samples stream or two number files made from the fuzzer's bytes. Besides crashes (ASan,
 * UBSan), two properties, each checked by an oracle written here from the formats' definitions
 * (lab/ab-input.h), not from the reader:
 *  - input the format does not allow is never accepted (exit 0 from malformed input is a bug),
 *    and input it allows is never refused as unreadable (a refusal naming the file);
 *  - every refusal is one line on stderr, starting "lab-ab: ", and exit status 1 or 2.
 * Input: byte 0 picks the mode and options, the rest is the file(s) (number files: A, a form
 * feed, B).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int lab_ab_main(int argc, char **argv);

static int err_fd, saved_err;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	/* lab-ab's tables go nowhere; its errors to a memfd read back after each run */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	err_fd = memfd_create("stderr", 0);
	saved_err = dup(2);
	if (err_fd < 0 || saved_err < 0)
		abort();
	return 0;
}

/* A value as the formats define it: a finite decimal number, spaces before it, spaces or a
 * carriage return (a CRLF file) after it. */
static int decimal(const char *s, const char *e)
{
	const char *num;
	char *buf;
	int digits = 0, finite;

	while (s < e && *s == ' ')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	num = s;
	if (s < e && (*s == '+' || *s == '-'))
		s++;
	for (; s < e && *s >= '0' && *s <= '9'; s++)
		digits++;
	if (s < e && *s == '.')
		for (s++; s < e && *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (s < e && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < e && (*s == '+' || *s == '-'))
			s++;
		if (s == e || *s < '0' || *s > '9')
			return 0;
		while (s < e && *s >= '0' && *s <= '9')
			s++;
	}
	if (s != e)
		return 0;
	/* finite: 1e999 (or 1 and 400 zeros) is inf */
	buf = strndup(num, e - num);
	finite = isfinite(strtod(buf, NULL));
	free(buf);
	return finite;
}

/* A samples stream: lines of exactly six tab-separated fields, the last a value; no NUL. */
static int stream_ok(const char *d, size_t n)
{
	const char *l = d, *end = d + n;

	if (!n || memchr(d, 0, n))
		return 0;
	while (l < end) {
		const char *nl = memchr(l, '\n', end - l), *e = nl ? nl : end, *v = l;
		int tabs = 0;

		for (const char *p = l; p < e; p++)
			if (*p == '\t')
				tabs++, v = p + 1;
		if (tabs != 5 || !decimal(v, e))
			return 0;
		l = e + 1;
	}
	return 1;
}

/* Only spaces, tabs and carriage returns: a blank line (of a CRLF file, too). */
static int blank(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s == e;
}

/* A number file: each line blank, a '#' comment, or a value then anything after a blank; at
 * least one value; no NUL. */
static int numbers_ok(const char *d, size_t n)
{
	const char *l = d, *end = d + n;
	int values = 0;

	if (memchr(d, 0, n))
		return 0;
	while (l < end) {
		const char *nl = memchr(l, '\n', end - l), *e = nl ? nl : end, *f;

		while (l < e && (*l == ' ' || *l == '\t'))
			l++;
		if (l < e && *l != '#' && !blank(l, e)) {
			for (f = l; f < e && *f != ' ' && *f != '\t'; f++)
				;
			if (!decimal(l, f))
				return 0;
			values++;
		}
		l = e + 1;
	}
	return values > 0;
}

/* A refusal naming the file at path ("lab-ab: PATH: ..." or "lab-ab: PATH:LINE: ..."). */
static int names(const char *msg, const char *path)
{
	size_t n = strlen(path);

	return *path && strlen(msg) > 8 + n && !strncmp(msg + 8, path, n) && msg[8 + n] == ':';
}

static int file_of(const uint8_t *d, size_t n, char *path)
{
	int fd = memfd_create("in", 0);

	if (fd < 0 || (n && write(fd, d, n) != (ssize_t)n))
		abort();
	sprintf(path, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *conf[] = { "95", "99", "80", "51" };
	char pa[64], pb[64] = "", *argv[16], msg[4096];
	int argc = 0, fa, fb = -1, rc, ok;
	uint8_t mode;
	const uint8_t *ff;
	ssize_t len;

	if (!size)
		return 0;
	mode = data[0], data++, size--;
	argv[argc++] = "lab-ab";
	argv[argc++] = "--confidence";
	argv[argc++] = (char *)conf[(mode >> 3) & 3];
	if (mode & 4)
		argv[argc++] = "--format=tsv";
	if ((mode & 3) == 3) {
		/* two number files, split at the first form feed */
		ff = memchr(data, '\f', size);
		size_t na = ff ? (size_t)(ff - data) : size;

		fa = file_of(data, na, pa);
		fb = file_of(ff ? ff + 1 : data + na, ff ? size - na - 1 : 0, pb);
		argv[argc++] = pa;
		argv[argc++] = pb;
		ok = numbers_ok((const char *)data, na) &&
		     numbers_ok((const char *)data + na + !!ff, ff ? size - na - 1 : 0);
	} else {
		fa = file_of(data, size, pa);
		argv[argc++] = "--samples";
		argv[argc++] = pa;
		if (mode & 1)
			argv[argc++] = "--unit=round";
		if (mode & 2)
			argv[argc++] = "--pair=round";
		ok = stream_ok((const char *)data, size);
	}
	argv[argc] = NULL;

	if (ftruncate(err_fd, 0) || lseek(err_fd, 0, SEEK_SET) || dup2(err_fd, 2) < 0)
		abort();
	optind = 0; /* getopt starts afresh */
	rc = lab_ab_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	len = pread(err_fd, msg, sizeof(msg) - 1, 0);
	msg[len > 0 ? len : 0] = 0;
	close(fa);
	if (fb >= 0)
		close(fb);

	if (rc == 0 && !ok) {
		fprintf(stderr, "malformed input accepted (mode %u)\n", mode);
		abort();
	}
	if (rc != 0 && ok && (names(msg, pa) || names(msg, pb))) {
		fprintf(stderr, "well-formed input refused as unreadable (mode %u): %s", mode, msg);
		abort();
	}
	if (rc != 0) {
		char *nl = strchr(msg, '\n');

		if ((rc != 1 && rc != 2) || strncmp(msg, "lab-ab: ", 8) || !nl || nl[1]) {
			fprintf(stderr, "refusal not one 'lab-ab: ' line with status 1 or 2 "
				"(status %d): %s\n", rc, msg);
			abort();
		}
	}
	return 0;
}
