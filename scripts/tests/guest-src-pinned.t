#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The guest programs build against linux-6.1's selftests rseq helpers whatever KVER the kernels
# are (their arguments changed in 6.3; the static programs serve every kernel): with KVER=6.12,
# make's commands for the rseq benches and the suite name linux-6.1's tree, never linux-6.12's.
. "$(dirname "$0")/tap.sh"
cmds() {
	make -s -n -B -C "$LAB" KVER="$1" "$BUILD/guest/bin/lab-percpu" "$BUILD/guest/bin/param_test" \
		"$BUILD/tools/gen_init_cpio" 2>/dev/null | grep -E '^(gcc|cc|\$\(CC\)|.*-o )'
}
for k in 6.12 6.1; do
	c=$(cmds "$k")
	like "$c" "src/linux-6\\.1/tools/testing/selftests/rseq/rseq\\.c" "KVER=$k: the selftests' rseq.c of linux-6.1"
	like "$c" "gen_init_cpio.*src/linux-6\\.1/usr/gen_init_cpio\\.c" "KVER=$k: gen_init_cpio from linux-6.1"
	is "$(grep -c 'linux-6\.12' <<< "$c")" 0 "KVER=$k: nothing compiled from linux-6.12"
done
done_testing
