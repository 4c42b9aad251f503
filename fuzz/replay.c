/* SPDX-License-Identifier: MIT */
/* The fuzz targets' driver without libFuzzer: each file named is run once through the target
 * (its properties abort on a breach), so make check replays the committed corpus with gcc. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 20];
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	fprintf(stderr, "replayed %d inputs\n", argc - 1); /* the target sends stdout to /dev/null */
	return 0;
}
