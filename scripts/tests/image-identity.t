#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Image identity: a KVER switch, a KSRC switch, a patch added to a series file and a touched
# pristine tree each make exactly the affected images out of date (make -n in a scratch
# BUILD, nothing built); a patched tree is remade when its pristine tree changes; and with
# the real store, switching back to an identity built before rebuilds nothing (the images
# are only linked again). The guest tier's: that last part needs the kernels make test builds
# (a fresh clone's store is empty before them).
. "$(dirname "$0")/tap.sh"
guest_tier "the kernel store (an image selected from it)"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
b=$t/build
mkdir -p "$b/src/linux-$KVER" "$b/images"
cp "$BUILD/src/linux-$KVER/.lab-unpacked" "$b/src/linux-$KVER/" 2>/dev/null || echo 6.1.0-lab > "$b/src/linux-$KVER/.lab-unpacked"

# would_build ARGS...: the variants make would run build-kernel for, sorted, one line.
would_build() {
	make -s -n -C "$LAB" BUILD="$b" "$@" 2>/dev/null | sed -n 's/^scripts\/build-kernel //p' | sort | paste -sd' '
}
# mark VARIANT...: pretend these images were built now, each .info naming its identity as
# build-kernel's does (make compares it with the identity asked for).
mark() {
	for v in "$@"; do
		touch "$b/images/$v.bzImage"
		echo "identity: $(BUILD=$b "$LAB/scripts/kernel-identity" "$v")" > "$b/images/$v.info"
	done
	sleep 1
}
# built ARGS...: mark every image make would build. Where a test has just asked would_build,
# it marks what that answered instead (a make run fewer).
built() { mark $(would_build "$@"); }
V="VARIANTS=rseq-n rseq-y rseq-stats rseq-stats-off"
w=$(would_build kernels "$V")
is "$w" "rseq-n rseq-stats rseq-stats-off rseq-y" "a fresh BUILD builds all four"
mark $w
is "$(would_build kernels "$V")" "" "then nothing"

is "$(KVER=6.12 would_build kernels "$V")" "rseq-n rseq-stats rseq-stats-off rseq-y" "KVER=6.12: all four"
is "$(would_build kernels "$V" KSRC="$BUILD/src/linux-$KVER")" "rseq-n rseq-stats rseq-stats-off rseq-y" \
	"KSRC=a tree: all four"
is "$(would_build kernels "$V" CONFIG=defconfig)" "rseq-n rseq-stats rseq-stats-off rseq-y" "CONFIG=defconfig: all four"

# A patch added to the series file later: the series' two variants, not the others.
cp -r "$LAB/kernel/patches" "$t/patches"
export PATCH_DIR=$t/patches
rm -rf "$b/deps"   # they name the series files by path: PATCH_DIR is a test's knob
built kernels "$V"
is "$(would_build kernels "$V")" "" "a copied series changes nothing"
printf -- '--- a/README\n+++ b/README\n@@ -1 +1,2 @@\n Linux kernel\n+lab\n' > "$t/patches/rseq-stats/lab-extra.patch"
echo lab-extra.patch >> "$t/patches/rseq-stats/series"
w=$(would_build kernels "$V")
is "$w" "rseq-stats rseq-stats-off" "a patch added to the series: its two variants only"
grep -q lab-extra.patch "$b/deps/$KVER/rseq-stats.mk"; ok $? "the deps file was remade and names the new patch"
mark $w
unset PATCH_DIR
rm -rf "$b/deps"
built kernels "$V"

# The same package unpacked again (another clone, another hour): the same source, nothing
# built. Another version of the package: every image built from it.
touch -d '+1 min' "$b/src/linux-$KVER/.lab-unpacked"
is "$(would_build kernels "$V")" "" "the tree unpacked again from the same package: nothing"
sed -i '1s/$/+lab1/' "$b/src/linux-$KVER/.lab-unpacked"
is "$(would_build kernels "$V")" "rseq-n rseq-stats rseq-stats-off rseq-y" "another version of linux-source: all four"

# patch-tree remakes a patched copy when the pristine tree changes.
p=$t/pt; mkdir -p "$p/src/linux-$KVER" "$p/s"
echo one > "$p/src/linux-$KVER/f"; echo 6.1-lab > "$p/src/linux-$KVER/.lab-unpacked"
printf -- '--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n one\n+two\n' > "$p/s/a.patch"; echo a.patch > "$p/s/series"
d=$(BUILD=$p "$LAB/scripts/patch-tree" "$p/s" 2>/dev/null)
is "$(cat "$d/f" 2>/dev/null | paste -sd' ')" "one two" "patch-tree patches the pristine copy"
i1=$(stat -c %i "$d/f")
BUILD=$p "$LAB/scripts/patch-tree" "$p/s" >/dev/null 2>&1
is "$(stat -c %i "$d/f")" "$i1" "and reuses it while nothing changed"
echo ONE > "$p/src/linux-$KVER/f.new" && mv "$p/src/linux-$KVER/f.new" "$p/src/linux-$KVER/f"
touch -d '+1 min' "$p/src/linux-$KVER/.lab-unpacked"
d=$(BUILD=$p "$LAB/scripts/patch-tree" "$p/s" 2>/dev/null)
is "$(cat "$d/f" 2>/dev/null | paste -sd' ')" "ONE two" "a changed pristine tree: the copy is remade"

# The real store: switching away and back rebuilds nothing (a variant selected from it).
# Params files are made once per identity, so after KVER=6.12 and back the 6.1 one is older
# than the 6.12 image selected meanwhile: the image's .info, naming another identity, must
# still make make call build-kernel. Another selection is made by replacing the .info link
# with a copy naming another identity (the store entry is not touched).
sv=
for v in $(ls "$STORE"/*/ 2>/dev/null | sed -n 's/\.info$//p' | sort -u); do
	# Only an image of the identity asked for now: after the lab's own identity changed, an
	# older one would be built for real here.
	[ -f "$BUILD/images/$v.info" ] && grep -q "^identity: $("$LAB/scripts/kernel-identity" "$v" 2>/dev/null | cut -d' ' -f1) " \
		"$BUILD/images/$v.info" && { sv=$v; break; }
done
if [ -n "$sv" ]; then
	id=$(sed -n 's/^identity: \([0-9a-f]*\) .*/\1/p' "$BUILD/images/$sv.info")
	would_build_real() { make -s -n -C "$LAB" kernels VARIANTS="$sv" "$@" | sed -n 's/^scripts\/build-kernel //p'; }
	is "$(would_build_real KVER=6.12)" "$sv" "KVER=6.12: make calls build-kernel for $sv"
	is "$(would_build_real)" "" "KVER=$KVER again after make -n: nothing to do (no file rewritten)"
	info=$BUILD/images/$sv.info
	sed "s/^identity: $id /identity: 0123456789abcdef /" "$info" > "$info.lab-test" && mv "$info.lab-test" "$info"
	is "$(would_build_real)" "$sv" \
		"an image of another identity selected (KVER=6.12 and back): make calls build-kernel for $sv"
	out=$(make -C "$LAB" kernels VARIANTS=$sv 2>&1); r=$?
	is "$r" 0 "back to KVER=$KVER: make kernels"
	like "$out" "identity $id built before.*nothing rebuilt" "$sv selected from the store, not built"
	ok $(grep -q '>> build ' <<< "$out"; echo $((! $?))) "no build stage ran"
	is "$(stat -c %i "$BUILD/images/$sv.vmlinux")" "$(stat -c %i "$STORE/$id/$sv.vmlinux")" \
		"the image is the store entry (a hard link)"
	is "$(stat -c %i "$info")" "$(stat -c %i "$STORE/$id/$sv.info")" "its .info too"
	is "$(would_build_real)" "" "and make has nothing left to do"
else
	ok 1 "an image of the identity asked for is in the store (none: make test builds them first)"
fi
done_testing
