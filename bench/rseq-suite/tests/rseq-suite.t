#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rseq correctness suite in every test variant: boot each of $TEST_VARIANTS whose image
# is built, run rseq-suite in it (our ABI tests + the kernel tree's selftests), and pass its
# cases on as ours, prefixed with the variant. A variant without CONFIG_RSEQ must report the
# clean ENOSYS skip; one with CONFIG_DEBUG_RSEQ must kill a syscall inside a critical
# section, and one without must not.
# Environment: TEST_VARIANTS (default "rseq-y rseq-n"), FULL=1 (upstream repetition counts),
# RSEQ_SUITE_TIMEOUT (s per boot, default 1800), ACCEL, CPUS as for scripts/boot.
set -uo pipefail
LAB=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$LAB" || exit 1
BUILD=$(cd "${BUILD:-$LAB/build}" && pwd)
export BUILD

. "$LAB/scripts/tests/tap.sh"
guest_tier "kernel images ($TEST_VARIANTS)"
# tap.sh's counter, which require_image counts a missing image on.
pass() { ok 0 "$*"; }
fail() { ok 1 "$*"; }
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }

# has_option VARIANT OPTION: the variant's built .config sets OPTION=y.
has_option() { grep -q "^$2=y" "$BUILD/images/$1.config"; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rseq-suite.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
for v in ${TEST_VARIANTS:-rseq-y rseq-n}; do
	if ! require_image --part "$v"; then
		skip "$v: rseq suite" "no image $BUILD/images/$v.bzImage (make kernels VARIANTS=$v)"
		continue
	fi
	rseq=n debug=n
	has_option "$v" CONFIG_RSEQ && rseq=y
	has_option "$v" CONFIG_DEBUG_RSEQ && debug=y

	out=$scratch/$v
	mkdir -p "$out"
	t0=$SECONDS
	QUIET=1 OUTDIR=$out TIMEOUT=${RSEQ_SUITE_TIMEOUT:-1800} \
		GUEST_ENV="RSEQ_DEBUG=$debug FULL=${FULL:-0}" \
		scripts/boot "$v" -- rseq-suite 2> "$out/boot.err"
	rc=$?
	echo "# $v: rseq-suite exited $rc after $((SECONDS - t0)) s" \
		"(CONFIG_RSEQ=$rseq, CONFIG_DEBUG_RSEQ=$debug)"
	if [ ! -f "$out/lab-output" ]; then
		fail "$v: boot and run rseq-suite (status $rc)"
		sed 's/^/#   /' "$out/boot.err"
		continue
	fi

	if [ $rseq = n ]; then
		if [ $rc -eq 0 ] && grep -qx '1..0 # SKIP rseq: ENOSYS' "$out/lab-output" &&
			! grep -q '^ok\|^not ok' "$out/lab-output"; then
			skip "$v: rseq suite" "rseq: ENOSYS (CONFIG_RSEQ=n, skip reported cleanly)"
		else
			fail "$v: CONFIG_RSEQ=n kernel should make rseq-suite skip on ENOSYS (status $rc)"
			sed 's/^/#   /' "$out/lab-output" | tail -n 20
		fi
		continue
	fi

	# An rseq kernel: every guest case becomes one of ours; the guest's plan must match.
	cases=0 plan=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"ok "*) cases=$((cases + 1)); pass "$v: ${line#ok * - }" ;;
		"not ok "*) cases=$((cases + 1)); fail "$v: ${line#not ok * - }" ;;
		1..*) plan=$line ;;
		"#"*) echo "$line" ;;
		*) echo "# $v: $line" ;;
		esac
	done < "$out/lab-output"
	if [ "$plan" = "1..0 # SKIP rseq: ENOSYS" ]; then
		fail "$v: CONFIG_RSEQ=y kernel but rseq-suite saw ENOSYS"
	elif [ "$plan" != "1..$cases" ] || [ $cases -eq 0 ]; then
		fail "$v: rseq-suite ran to its plan (plan '$plan', $cases cases, status $rc)"
		sed 's/^/#   /' "$out/boot.err" | tail -n 20
	elif [ $rc -ne 0 ]; then
		fail "$v: rseq-suite exits 0 (status $rc)"
	fi
done
echo "1..$_n"
