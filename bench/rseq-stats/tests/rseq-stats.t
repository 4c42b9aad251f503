#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Our backport of upstream's CONFIG_RSEQ_STATS (/sys/kernel/debug/rseq/stats), the series
# rseq-stats (6.1) and rseq-stats-6.12:
#   - every patch is clean for the tree's own scripts/checkpatch.pl --strict (each series
#     against its own tree, when that tree is unpacked), and the series applies to it;
#   - with the option off the series changes no code: kernel/rseq.o built with rseq-y's
#     .config from the pristine and from the patched tree is the same code and size (this
#     object-level proof, and the same for kernel/entry/common.o, replaces a whole
#     rseq-stats-off kernel build in make test);
#   - booted, rseq-stats runs rseq-stats-check (upstream's names, mode 0444, no reset; exit
#     counts every system call; forced aborts move fixup by at least the aborts seen, a quiet
#     pinned run sees close to none), and rseq-y has no stats file.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
SERIES=$LAB/kernel/patches/rseq-stats
SRC=$BUILD/src/linux-$KVER

# The checkpatch command, run from the top of a pristine tree ($2).
checkpatch() { (cd "$2" && perl scripts/checkpatch.pl --strict "$1"); }
list() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series" | awk '{print $1}'; }

for s in rseq-stats:6.1 rseq-stats-6.12:6.12; do
	dir=$LAB/kernel/patches/${s%%:*} kv=${s#*:}
	patches=$(list "$dir")
	ok $([ -n "$patches" ]; echo $?) "${s%%:*} lists patches ($(echo $patches | wc -w))"
	tree=$BUILD/src/linux-$kv
	if [ ! -f "$tree/.lab-unpacked" ]; then
		skip "no unpacked linux-$kv (make source KVER=$kv)" "checkpatch of ${s%%:*}"
		continue
	fi
	for p in $patches; do
		out=$(checkpatch "$dir/$p" "$tree" 2>&1); r=$?
		like "$out" "^total: 0 errors, 0 warnings, 0 checks" "checkpatch --strict (linux-$kv): $p"
		ok $r "checkpatch exits 0 for $p"
		grep -q '^Signed-off-by: ' "$dir/$p"; ok $? "$p has a Signed-off-by line"
	done
	t2=$(KVER=$kv "$LAB/scripts/patch-tree" "$dir" 2>/dev/null); r=$?
	ok $r "${s%%:*} applies to linux-$kv"
	grep -q '^config RSEQ_STATS$' "$t2/init/Kconfig" 2>/dev/null; ok $? "and adds config RSEQ_STATS"
done
if ! guest_tier --part "kernel object builds" || [ ! -f "$SRC/.lab-unpacked" ]; then
	skip "no unpacked tree (make source), or make check" "the build checks and boots"
	done_testing; exit
fi

tree=$("$LAB/scripts/patch-tree" rseq-stats 2>/dev/null)

# With the option off: kernel/rseq.o from both trees, same .config (rseq-y's, or one made
# from tinyconfig + base + rseq-y when rseq-y is not built).
rseq_o() { # rseq_o TREE OUTDIR: build kernel/rseq.o with the rseq-y configuration
	local src=$1 o=$2
	mkdir -p "$o"
	if [ -f "$BUILD/images/rseq-y.config" ]; then
		cp "$BUILD/images/rseq-y.config" "$o/.config"
	else
		make -C "$src" O="$o" ARCH=x86_64 tinyconfig >/dev/null 2>&1 &&
			(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$o" "$o/.config" \
				"$LAB/kernel/fragments/base.config" "$LAB/kernel/fragments/rseq-y.config") >/dev/null 2>&1
	fi
	make -C "$src" O="$o" ARCH=x86_64 olddefconfig >/dev/null 2>&1 &&
		make -C "$src" O="$o" ARCH=x86_64 -j"$(nproc)" kernel/rseq.o kernel/entry/common.o \
			> "$o/build.log" 2>&1
}
if [ -n "$tree" ] && rseq_o "$SRC" "$t/pristine" && rseq_o "$tree" "$t/off"; then
	ok 0 "kernel/rseq.o builds from both trees with RSEQ_STATS off"
	grep -q '^# CONFIG_RSEQ_STATS is not set' "$t/off/.config"; ok $? "the patched build has RSEQ_STATS off"
	is "$(size "$t/off/kernel/rseq.o" | awk 'NR == 2 { print $1, $2, $3 }')" \
		"$(size "$t/pristine/kernel/rseq.o" | awk 'NR == 2 { print $1, $2, $3 }')" \
		"with RSEQ_STATS off, rseq.o has the pristine text/data/bss"
	cmp -s <(objdump -d "$t/off/kernel/rseq.o" | tail -n +3) <(objdump -d "$t/pristine/kernel/rseq.o" | tail -n +3)
	ok $? "and the same machine code"
	# The exit counter sits in the entry code: off, it must leave that unchanged too.
	cmp -s <(objdump -d "$t/off/kernel/entry/common.o" | tail -n +3) \
		<(objdump -d "$t/pristine/kernel/entry/common.o" | tail -n +3)
	ok $? "and kernel/entry/common.o the same machine code"
else
	ok 1 "kernel/rseq.o builds from both trees with RSEQ_STATS off"
	tail -n 5 "$t/off/build.log" "$t/pristine/build.log" 2>/dev/null | sed 's/^/#   /'
fi
# In a guest. The initramfs must carry the check program (make initramfs).
cpio=$BUILD/initramfs/lab.cpio
if [ ! -f "$cpio" ] || ! grep -qa 'lab/bin/rseq-stats-check' "$cpio"; then
	skip "the initramfs has no rseq-stats-check (make initramfs)" "boot tests"
	done_testing; exit
fi
if require_image --part rseq-stats; then
	grep -q '^CONFIG_RSEQ_STATS=y' "$BUILD/images/rseq-stats.config"; ok $? "rseq-stats has CONFIG_RSEQ_STATS=y"
	out=$(GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 \
		"$LAB/scripts/boot" rseq-stats -- rseq-stats-check --require 2>&1); r=$?
	printf '%s\n' "$out" | sed 's/^/#   | /'
	ok $r "rseq-stats: rseq-stats-check passes in the guest"
	like "$out" "ok [0-9]+ - fixup rose by at least the aborts seen" "and saw the fixup counter move"
	like "$out" "ok [0-9]+ - exit counts every return to user mode" "and exit count every system call"
	like "$out" "ok [0-9]+ - writing cannot reset the counters" "and no reset"
else
	skip "rseq-stats not built (make kernels VARIANTS=rseq-stats)" "rseq-stats in a guest"
fi
# On arm64 exit is counted on that architecture's own exit path (a check that fails while it
# reads 0); on arm nothing counts it and the file says n/a, which the check skips (never 0).
for a in arm64:'ok [0-9]+ - exit counts every return to user mode \([0-9]+ >= [0-9]+\)' \
	arm:'ok [0-9]+ - exit counts every return to user mode # SKIP exit: n/a'; do
	arch=${a%%:*} want=${a#*:}
	read -r img cpio_a <<< "$(ARCH=$arch; . "$LAB/scripts/arch/load" && echo "$ARCH_IMAGES/rseq-stats.$ARCH_IMG $ARCH_INITRAMFS")"
	if require_image --part "$img" "$cpio_a"; then
		out=$(ARCH=$arch GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 \
			"$LAB/scripts/boot" rseq-stats -- rseq-stats-check --require 2>&1); r=$?
		printf '%s\n' "$out" | grep -E '^(not )?ok|exit' | sed 's/^/#   | /'
		ok $r "$arch rseq-stats: rseq-stats-check passes in the guest"
		like "$out" "$want" "$arch: exit $( [ $arch = arm ] && echo 'says n/a' || echo 'counts every system call')"
	else
		skip "no $arch rseq-stats (make arch-kernels ARCHES=$arch ARM_VARIANTS=rseq-stats)" "$arch rseq-stats in a guest"
	fi
done
if require_image --part rseq-y; then
	out=$(GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 "$LAB/scripts/boot" rseq-y -- \
		sh -c 'grep -q " /sys/kernel/debug debugfs " /proc/mounts || { echo "no debugfs"; exit 3; }
			test ! -e /sys/kernel/debug/rseq/stats || { echo "stats file present"; exit 4; }
			rseq-stats-check' 2>&1); r=$?
	ok $r "rseq-y: debugfs is mounted and has no rseq/stats"
	like "$out" "^1\.\.0 # SKIP no /sys/kernel/debug/rseq/stats" "rseq-stats-check skips there"
	[ $r -eq 0 ] || printf '%s\n' "$out" | tail -n 5 | sed 's/^/#   | /'
else
	skip "rseq-y not built" "rseq-y has no stats file"
fi
done_testing
