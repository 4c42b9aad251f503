# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The fake kernel tree of compare's tests (sourced after tap.sh by compare-bisect.t,
# compare-known-answers.t and statuses.t): a scratch BUILD with the real lab-ab and guest
# programs (bench-run asks them for --list), compare's test-only seams LAB_COMPARE_FAKE
# (fixtures/compare/fake-kernel: the build) and LAB_BOOT (fixtures/compare/fake-boot: every
# boot of every bench), and an empty git "kernel tree" $repo. commit COST BOOT BUILD [SUBJECT
# [KEY: VALUE...]] adds a revision saying what its kernel would do (see fake-kernel and
# fake-boot) and prints its hash; g runs git in the tree. Sets t (removed at exit).
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
[ -x "$BUILD/guest/bin/lab-cpuread" ] || { echo "1..1"; echo "not ok 1 - the guest programs are built (make guest-bins)"; exit 1; }
mkdir -p "$t/build/host/bin" "$t/build/guest" && ln -s "$ab" "$t/build/host/bin/lab-ab"
ln -s "$BUILD/guest/bin" "$t/build/guest/bin"
export BUILD=$t/build DATA=$t/data PLOTS=$t/plots ACCEL=icount BENCH=cpu-read ROUNDS=3 \
	LAB_COMPARE_FAKE=$LAB/scripts/tests/fixtures/compare/fake-kernel VARIANT=rseq-y \
	LAB_BOOT=$LAB/scripts/tests/fixtures/compare/fake-boot
repo=$t/linux
g() { git -C "$repo" -c user.name=lab -c user.email=lab@localhost "$@"; }
commit() {
	local n; n=$(g rev-list --count HEAD 2>/dev/null || echo 0)
	printf 'cost: %s\nboot: %s\nbuild: %s\nrevision: %s\n' "$1" "$2" "$3" "$n" > "$repo/fake"
	[ $# -le 4 ] || printf '%s\n' "${@:5}" >> "$repo/fake"
	g add -A && g commit -qm "${4:-cost $1 boot $2 build $3 ($n)}" && g rev-parse HEAD
}
mkdir -p "$repo/arch/x86" && git init -q "$repo"
echo 'VERSION = 6' > "$repo/Makefile"; echo 'mainmenu "fake"' > "$repo/Kconfig"
echo 'config X86' > "$repo/arch/x86/Kconfig"
