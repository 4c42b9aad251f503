#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel store outside the clone: a second clone (another BUILD) selects an identity any
# clone built, without building; an entry whose files do not match the sha256 sums of its .info,
# or that has no .info (partial), or no sum for its image, is never selected. No kernel is compiled: a stand-in make that
# fails shows where build-kernel would have built. And the progress line of long phases.
. "$(dirname "$0")/tap.sh"
cd "$LAB" || exit 1
[ -f "$BUILD/src/linux-$KVER/.lab-unpacked" ] || { echo "1..0 # SKIP the kernel tree is not unpacked (make source)"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/variants" "$t/bin" "$t/clone-a" "$t/clone-b"
printf 'fragments: base rseq-n\nseries:\n' > "$t/variants/lab-test-store"
# Two clones' build directories, each with a stand-in for the unpacked tree: its stamp (the
# package version, all the identity reads of it) and a Makefile. Never the real tree: a build
# of the real one may be compiling in it.
for c in clone-a clone-b; do
	mkdir -p "$t/$c/src/linux-$KVER"
	cp "$BUILD/src/linux-$KVER/.lab-unpacked" "$t/$c/src/linux-$KVER/"
	echo 'VERSION = 6' > "$t/$c/src/linux-$KVER/Makefile"
done
printf '#!/bin/sh\necho "stand-in make: no build here" >&2\nexit 1\n' > "$t/bin/make"; chmod +x "$t/bin/make"
export VARIANT_DIR=$t/variants LAB_STORE=$t/store
ident=$(BUILD=$t/clone-a scripts/kernel-identity lab-test-store); id=${ident%% *}
[ -n "$id" ] || { echo "Bail out! no identity for the test variant"; exit 1; }

# A whole entry, as clone A's build-kernel writes it: the files, then the .info with their sums.
e=$t/store/$id/lab-test-store
mkdir -p "${e%/*}"
head -c 4096 /dev/urandom > "$e.bzImage"; echo 'CONFIG_RSEQ=n' > "$e.config"; head -c 8192 /dev/urandom > "$e.vmlinux"
sum() { sha256sum < "$1" | cut -d' ' -f1; }
{
	echo "variant: lab-test-store"; echo "release: 6.1.0-lab-test"; echo "identity: $ident"
	echo "config_sha256: $(sum "$e.config")"; echo "bzimage_sha256: $(sum "$e.bzImage")"
	echo "vmlinux_sha256: $(sum "$e.vmlinux")"; echo "arch: x86_64"
} > "$e.info"
cp "$e.info" "$t/info.whole"

bk() { out=$(PATH=$t/bin:$PATH BUILD=$t/clone-b scripts/build-kernel lab-test-store 2>&1); rc=$?; }
bk
is "$rc" 0 "clone B: an identity clone A stored is selected"
like "$out" "identity $id built before .*selected from $t/store/$id; nothing rebuilt" "and says where from"
cmp -s "$e.bzImage" "$t/clone-b/images/lab-test-store.bzImage"
ok $? "clone B's image is the stored one, byte for byte"

# Damaged: one byte of the image changed. Not selected, removed, built again (the stand-in fails).
printf 'x' >> "$e.bzImage"
bk
ok $((rc == 0)) "a damaged entry is not selected (build-kernel builds, and the stand-in make fails)"
like "$out" "warning: lab-test-store: the stored lab-test-store.bzImage of identity $id does not match its sha256; removed, building again" \
	"one warning line names the file that does not match"
ok $([ ! -e "$e.info" ] && [ ! -e "$e.bzImage" ]; echo $?) "the damaged entry is gone from the store"

# No sum recorded for the image (an .info written by hand, or cut short): not selected either.
head -c 4096 /dev/urandom > "$e.bzImage"; echo 'CONFIG_RSEQ=n' > "$e.config"; head -c 8192 /dev/urandom > "$e.vmlinux"
grep -v '^bzimage_sha256:' <<<"$(sed "s/^config_sha256: .*/config_sha256: $(sum "$e.config")/" "$t/info.whole")" > "$e.info"
bk
ok $((rc == 0)) "an entry whose .info has no sum for its image is not selected"
like "$out" "warning: lab-test-store: the stored lab-test-store.bzimage \(no sum recorded\)" "... one warning line says so"
is "$(printf '%s\n' "$out" | grep -c 'built before')" 0 "... and nothing claims it was built before"

# Partial: files without their .info (a build that died while storing) are never selected.
head -c 4096 /dev/urandom > "$e.bzImage"; echo 'CONFIG_RSEQ=n' > "$e.config"
bk
ok $((rc == 0)) "a partial entry (no .info) is not selected"
is "$(printf '%s\n' "$out" | grep -c 'built before')" 0 "nothing claims it was built before"

# One build at a time on the machine: a clone whose identity is not stored waits while another
# clone builds (the store's lock), and goes on once it is released.
exec 7>"$t/store/.build.lock"; flock 7
timeout 3 env PATH="$t/bin:$PATH" BUILD="$t/clone-b" scripts/build-kernel lab-test-store > /dev/null 2>&1
is "$?" 124 "another clone's build holds the store's lock: build-kernel waits"
flock -u 7; exec 7>&-
timeout 20 env PATH="$t/bin:$PATH" BUILD="$t/clone-b" scripts/build-kernel lab-test-store > "$t/w.log" 2>&1
ok $(( $? == 124 )) "released: it goes on (to the stand-in make)"

# Identities name content: one git commit in two checkouts is one identity (one store entry);
# another commit is another.
k1=$t/k1 k2=$t/k2
mkdir -p "$k1/arch/x86"; printf 'VERSION = 6\n' > "$k1/Makefile"; : > "$k1/Kconfig"; : > "$k1/arch/x86/Kconfig"
git -C "$k1" init -q && git -C "$k1" add . && git -C "$k1" -c user.name=lab -c user.email=lab@localhost commit -qm one
git clone -q "$k1" "$k2"
kid() { KSRC=$1 KREV=$2 scripts/kernel-identity lab-test-store | cut -d' ' -f1; }
i1=$(kid "$k1" HEAD) i2=$(kid "$k2" HEAD)
ok $([ -n "$i1" ] && [ "$i1" = "$i2" ]; echo $?) "one commit in two checkouts: one identity ($i1, $i2)"
echo 2 > "$k2/f"; git -C "$k2" add f; git -C "$k2" -c user.name=lab -c user.email=lab@localhost commit -qm two
ok $([ "$(kid "$k2" HEAD)" != "$i1" ]; echo $?) "another commit: another identity"

# Progress: a line per interval off a terminal, the count against the expected, time left.
lines=$(bash -c '. scripts/lib.sh; sleep 2.5 & LAB_PROGRESS_EVERY=1 watch_progress $! "build x" objects 100 echo 25' | tail -n 1)
like "$lines" '^>> build x: 25 of ~100 objects, 0:0[1-9] elapsed, ~0:[0-9]{2} left$' "progress: done of expected, elapsed, an estimate left"
# A quarter done: three times the elapsed time left.
e=$(sed -nE 's/.*0:0([0-9]) elapsed.*/\1/p' <<<"$lines") l=$(sed -nE 's/.*~0:([0-9]+) left/\1/p' <<<"$lines")
is "${l#0}" "$((3 * ${e:-0}))" "the estimate left scales with the part still to do"
lines=$(bash -c '. scripts/lib.sh; sleep 1.5 & LAB_PROGRESS_EVERY=1 watch_progress $! "build y" objects "" echo 7')
like "$lines" '^>> build y: 7 objects, 0:0[1-9] elapsed$' "progress: no estimate when nothing is expected"
lines=$(bash -c '. scripts/lib.sh; sleep 1.5 & watch_progress $! "build z" objects 100 echo 50' | wc -l)
is "$lines" 0 "progress off a terminal: nothing before the first minute"
done_testing
