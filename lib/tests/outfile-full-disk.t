#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A full disk during a run: a bench writing its results into a file system with no room left
# fails (its status says so, its error names the file), leaves the results of the run before
# it as they were, byte for byte, and no temporary file behind. The disk is a 64 KiB tmpfs
# filled to the last block (root mounts it; a machine where mount is refused skips). And a
# rename into place that fails is a failed run too.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - lab-cpuread is built (make guest-bins)"; exit 1; }
t=$(mktemp -d)
cleanup() { umount "$t/disk" 2>/dev/null; rm -rf "$t"; }
trap cleanup EXIT
mkdir -p "$t/disk"
if ! mount -t tmpfs -o size=64k tmpfs "$t/disk" 2>/dev/null; then
	echo "1..0 # SKIP cannot mount a tmpfs here (not root, or no mount permission)"; exit 0
fi
run() { "$bin" --method empty,vdso --reps 2 --duration 5 --no-worker --out "$t/disk" > "$t/out" 2>&1; }
run; ok $? "a run with room writes its results"
cp "$t/disk/cpu-read.csv" "$t/good.csv"; cp "$t/disk/cpu-read.meta" "$t/good.meta"
# No room left: a file of zeros takes every free block.
dd if=/dev/zero of="$t/disk/fill" bs=4k 2>/dev/null
is "$(df --output=avail -B1 "$t/disk" | tail -n 1 | tr -d ' ')" 0 "the disk is full"
run; rc=$?
ok $((rc == 0)) "a run on a full disk fails (status $rc)"
like "$(cat "$t/out")" "cpu-read" "its error names the results file"
cmp -s "$t/good.csv" "$t/disk/cpu-read.csv" && cmp -s "$t/good.meta" "$t/disk/cpu-read.meta"
ok $? "the previous run's results are intact, byte for byte"
is "$(ls -A "$t/disk" | grep -c '\.tmp\.')" 0 "no temporary file is left"
# The rename into place failing (the name taken by a directory): failed too, nothing left.
rm -f "$t/disk/fill"; mkdir -p "$t/d2/cpu-read.csv"
"$bin" --method empty,vdso --reps 2 --duration 5 --no-worker --out "$t/d2" > "$t/out2" 2>&1; rc=$?
ok $((rc == 0)) "a run whose results cannot be renamed into place fails (status $rc)"
is "$(ls -A "$t/d2" | grep -v '^cpu-read.csv$' | paste -sd' ')" "" "and leaves neither its meta nor a temporary file"
done_testing
