#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two makes in one tree: the kernel-source unpack waits for the kernel builds' lock (and does
# not deadlock when build-kernel, holding it, calls it); the initramfs writer waits for its
# lock, uses temporary names of its own and leaves none behind. Bounded with timeout.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export BUILD=$t/build
mkdir -p "$BUILD/tools" "$t/bin"
# kernel-source for a version that is not there, with a stand-in apt-get that refuses (and an
# apt-cache that knows nothing): once past the lock it says ">> installing" and stops.
printf '#!/bin/sh\nexit 1\n' > "$t/bin/apt-get"; printf '#!/bin/sh\nexit 0\n' > "$t/bin/apt-cache"
chmod +x "$t/bin/apt-get" "$t/bin/apt-cache"
export PATH="$t/bin:$PATH" KVER=0.0-lab-test
# ks [SECONDS]: its status, 124 when it was still waiting after SECONDS (5).
ks() { timeout "${1:-5}" "$LAB/scripts/kernel-source" > "$t/ks.log" 2>&1; echo $?; }
exec 8>"$BUILD/.kernel-build.lock"
flock 8
is "$(ks 2)" 124 "kernel-source waits while a kernel build holds the lock"
flock -u 8
ok $([ "$(ks)" != 124 ]; echo $?) "and goes on once it is released"
# What build-kernel does: take the lock on fd 9, then call kernel-source (which inherits fd 9).
rc=$( (exec 9>"$BUILD/.kernel-build.lock"; flock 9; ks) )
ok $([ "$rc" != 124 ]; echo $?) "called under build-kernel's lock (inherited fd 9): no deadlock ($rc)"
like "$(cat "$t/ks.log")" "installing linux-source-0.0-lab-test" "  it got past the lock"
exec 8>&-

# The initramfs: a stand-in gen_init_cpio that writes its list (its last argument), slowly.
printf '#!/bin/sh\nsleep 1; for a; do l=$a; done; cat "$l"\n' > "$BUILD/tools/gen_init_cpio"; chmod +x "$BUILD/tools/gen_init_cpio"
out=$BUILD/initramfs/lab.cpio
exec 8>"$BUILD/.initramfs.lock"; flock 8
timeout 30 "$LAB/scripts/make-initramfs" "$out" /bin/true > "$t/mi.log" 2>&1 &
p=$!
sleep 2
ok $([ ! -e "$out" ]; echo $?) "make-initramfs waits while another writer holds the lock"
flock -u 8; exec 8>&-
wait $p; ok $? "and writes once it is released"
# Two at once: both succeed, the archive is whole, no temporary file is left.
timeout 30 "$LAB/scripts/make-initramfs" "$out" /bin/true > "$t/m1.log" 2>&1 & p1=$!
timeout 30 "$LAB/scripts/make-initramfs" "$out" /bin/true > "$t/m2.log" 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
is "$r1/$r2" "0/0" "two concurrent make-initramfs both succeed"
like "$(cat "$out")" '^file /lab/bin/true ' "the archive is whole"
is "$(ls -A "$(dirname "$out")")" "lab.cpio" "and no temporary file is left beside it"
done_testing
