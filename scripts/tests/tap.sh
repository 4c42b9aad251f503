# SPDX-License-Identifier: MIT
# TAP helpers for the harness tests (bash); prove(1) reads their output.
set -u
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BUILD=${BUILD:-$LAB/build} KVER=${KVER:-6.1}
TEST_VARIANTS=${TEST_VARIANTS:-rseq-y rseq-n}
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
like() { # like TEXT REGEX DESCRIPTION
	printf '%s' "$1" | grep -qE -- "$2"; local r=$?
	ok $r "$3"
	[ $r -eq 0 ] || { echo "#   no match for /$2/ in:"; printf '%s\n' "$1" | head -n 20 | sed 's/^/#   | /'; }
}
skip() { _n=$((_n + 1)); echo "ok $_n - $2 # SKIP $1"; }
diag() { echo "# $*"; }
done_testing() { echo "1..$_n"; [ $_failed -eq 0 ]; }
have_image() { [ -f "$BUILD/images/$1.bzImage" ]; }
# bounded SECS CMD...: run a host-side test program under a time bound, so that a livelock
# fails the test (status 124, as timeout(1) gives) instead of hanging CI. --foreground keeps it
# in the test's process group: Ctrl-C still reaches it.
bounded() { local s=$1; shift; timeout --foreground --kill-after=5 "$s" "$@"; }
# "${SIGINT_DEFAULT[@]}" CMD...: CMD with SIGINT at its default action. A job started with &
# from a non-interactive shell inherits SIGINT ignored, and a shell script cannot trap an
# ignored signal: tests of Ctrl-C start their command through this (after setsid, say).
SIGINT_DEFAULT=(perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec $ARGV[0]: $!\n"')
