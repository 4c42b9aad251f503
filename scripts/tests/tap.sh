# SPDX-License-Identifier: MIT
# TAP helpers for the harness tests (bash); prove(1) reads their output.
set -u
LAB=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)
export BUILD=${BUILD:-$LAB/build} KVER=${KVER:-6.1}
TEST_VARIANTS=${TEST_VARIANTS:-rseq-y rseq-n}
# The kernel store, where scripts/lib.sh puts it.
STORE=$(bash -c '. "$1/scripts/lib.sh" && echo "$STORE"' _ "$LAB")
_n=0 _failed=0

ok() { # ok COND-STATUS DESCRIPTION: pass if the status is 0
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _failed=$((_failed + 1)); fi
}
is() { # is GOT WANT DESCRIPTION
	[ "$1" = "$2" ]; local r=$?
	ok $r "$3"
	[ $r -eq 0 ] || echo "#   got '$1', want '$2'"
}
# matches TEXT REGEX: some line of TEXT matches the extended regular expression, as grep -E
# would say, in bash alone: like and unlike run thousands of times, and a fork is dear.
matches() {
	local l re=$2
	[ -n "$1" ] || return 1
	# grep takes a pattern with newlines as one pattern a line
	[[ $re != *$'\n'* ]] || { printf '%s' "$1" | grep -qE -- "$re"; return; }
	while IFS= read -r l; do [[ $l =~ $re ]] && return 0; done <<< "$1"
	return 1
}
like() { # like TEXT REGEX DESCRIPTION
	matches "$1" "$2"; local r=$?
	ok $r "$3"
	[ $r -eq 0 ] || { echo "#   no match for /$2/ in:"; printf '%s\n' "$1" | head -n 20 | sed 's/^/#   | /'; }
}
unlike() { # unlike TEXT REGEX DESCRIPTION
	matches "$1" "$2"; local r=$?
	ok $((r == 0)) "$3"
	[ $r -ne 0 ] || { echo "#   /$2/ matches:"; printf '%s\n' "$1" | grep -E -- "$2" | head -n 5 | sed 's/^/#   | /'; }
}
skip() { _n=$((_n + 1)); echo "ok $_n - $2 # SKIP $1"; }
diag() { echo "# $*"; }
done_testing() { echo "1..$_n"; [ $_failed -eq 0 ]; }
have_image() { [ -f "$BUILD/images/$1.bzImage" ]; }
# bin_without DIR GLOB...: DIR holds a link to every program of /usr/bin and /usr/sbin but
# those whose names match a GLOB: PATH=DIR lacks just them. One ln for them all (a loop of
# one ln per program forks two thousand times).
bin_without() {
	local d=$1 f g n progs=(); shift
	local -A seen=()
	for f in /usr/bin/* /usr/sbin/*; do
		n=${f##*/}
		[ -z "${seen[$n]:-}" ] || continue
		for g in "$@"; do [[ $n == $g ]] && continue 2; done
		seen[$n]=1 progs+=("$f")
	done
	mkdir -p "$d" && ln -s "${progs[@]}" "$d/"
}

# The test tiers. make check sets LAB_TEST_TIER=check: nothing that needs a kernel runs (no
# image is looked for, none is built). make test's guest pass sets LAB_TEST_TIER=guest: a
# needed image that is missing is a failure, never a skip, so that "All tests successful"
# means they ran. Unset (prove by hand): run what the images there allow, skip the rest.
LAB_TEST_TIER=${LAB_TEST_TIER:-}
case $LAB_TEST_TIER in
''|check|guest) ;;
*) echo "1..1"; echo "not ok 1 - LAB_TEST_TIER is check, guest or unset, not '$LAB_TEST_TIER'"; exit 1 ;;
esac
# guest_tier [--part] WHY: what follows needs a kernel (WHY says what: images, a kernel build).
# Alone (before any test): under make check, the file is skipped ("1..0 # SKIP") and exits.
# --part (a file whose other tests need no kernel): status 1 under make check, for the caller
# to print its skip line; 0 otherwise. make test runs every file that calls this again in its
# guest pass (the Makefile finds them by this name).
guest_tier() {
	local part=
	[ "${1:-}" = --part ] && { part=1; shift; }
	[ "$LAB_TEST_TIER" = check ] || return 0
	[ -n "$part" ] && return 1
	echo "1..0 # SKIP needs $* (make check; make test runs it)"
	exit 0
}
# require_image [--part] IMAGE...: the images must exist; IMAGE is a variant (its bzImage under
# $BUILD/images) or a path (the ARM kernels, an initramfs). As guest_tier, and then when one
# is missing: under make test a failed test (and exit, alone), by hand a skip (status 1 with
# --part, else the file's "1..0 # SKIP").
require_image() {
	local part= f missing= names=
	[ "${1:-}" = --part ] && { part=--part; shift; }
	for f in "$@"; do names="$names ${f#"$BUILD/"}"; done
	guest_tier $part "kernel image(s)$names" || return 1
	for f in "$@"; do
		case $f in */*) ;; *) f=$BUILD/images/$f.bzImage ;; esac
		[ -f "$f" ] || missing="$missing ${f#"$BUILD/"}"
	done
	[ -n "$missing" ] || return 0
	if [ "$LAB_TEST_TIER" = guest ]; then
		[ -n "$part" ] || echo "1..1"
		ok 1 "the image(s) this test needs exist (missing:$missing)"
		[ -n "$part" ] && return 1
		exit 1
	fi
	[ -n "$part" ] && return 1
	echo "1..0 # SKIP no$missing"
	exit 0
}
# bounded SECS CMD...: run a host-side test program under a time bound, so that a livelock
# fails the test (status 124, as timeout(1) gives) instead of hanging CI. --foreground keeps it
# in the test's process group: Ctrl-C still reaches it.
bounded() { local s=$1; shift; timeout --foreground --kill-after=5 "$s" "$@"; }
# "${SIGINT_DEFAULT[@]}" CMD...: CMD with SIGINT at its default action. A job started with &
# from a non-interactive shell inherits SIGINT ignored, and a shell script cannot trap an
# ignored signal: tests of Ctrl-C start their command through this (after setsid, say).
SIGINT_DEFAULT=(perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec $ARGV[0]: $!\n"')
# guest_run NAME VARIANT CMD...: boot VARIANT (quietly; ACCEL, CPUS, GUEST_ENV pass through;
# GUEST_TIMEOUT seconds, 300) and run CMD in it: out is the guest's output (else the boot's
# last 30 lines on stderr), shown as comments prefixed "NAME | ", r the command's status,
# boot_info its lab-boot.info.
guest_run() {
	local name=$1 v=$2 d
	shift 2
	d=$(mktemp -d)
	QUIET=1 OUTDIR=$d/out TIMEOUT=${GUEST_TIMEOUT:-300} "$LAB/scripts/boot" "$v" -- "$@" \
		2> "$d/err"
	r=$?
	boot_info=$(cat "$d/out/lab-boot.info" 2>/dev/null)
	out=$(cat "$d/out/lab-output" 2>/dev/null)
	[ -n "$out" ] || out=$(tail -n 30 "$d/err")
	printf '%s\n' "$out" | sed "s/^/#   $name | /"
	rm -rf "$d"
}
# csv_cols FILE COLUMN... [--where COLUMN=VALUE]...: a lab CSV's named columns, tab-separated,
# one row a line, through scripts/csv (labdata, the one CSV reader): tests split no CSV lines.
csv_cols() { "$LAB/scripts/csv" "$@"; }
# csv_rows HEADER COLUMN...: the same for header-less CSV rows on stdin (a parse step's
# output), HEADER (comma-separated) naming their columns.
csv_rows() { local h=$1; shift; { echo "$h"; cat; } | "$LAB/scripts/csv" /dev/stdin "$@"; }
