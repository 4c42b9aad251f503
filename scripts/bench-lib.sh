# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers for the bench-* scripts: where results go, and how a run directory appears whole.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case $BUILD in /*) ;; *) BUILD=$LAB/$BUILD ;; esac
# shellcheck disable=SC2034 # used by the scripts that source this file
CPUREAD=$BUILD/guest/bin/lab-cpuread
# DATA: the results directory (tests point it elsewhere).
DATA=${DATA:-$LAB/data}

# lab_commit: the lab's git commit, "-dirty" when the tree has changes.
lab_commit() {
	local c
	c=$(git -C "$LAB" rev-parse HEAD 2>/dev/null) || { echo unknown; return; }
	[ -z "$(git -C "$LAB" status --porcelain 2>/dev/null)" ] || c=$c-dirty
	echo "$c"
}

# run_dir_begin: make a hidden temporary directory under $DATA, removed unless finished.
run_dir_begin() {
	mkdir -p "$DATA"
	RUN_TMP=$(mktemp -d "$DATA/.run.XXXXXX")
	trap 'rm -rf "$RUN_TMP"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# run_dir_finish SUFFIX: rename the temporary directory to $DATA/<UTC date>-<host>-SUFFIX,
# never over an earlier run (a -2, -3 ... is added), and print its path.
run_dir_finish() {
	local base n=1 dir
	base=$DATA/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || uname -n)-$1
	dir=$base
	until mv -T "$RUN_TMP" "$dir" 2>/dev/null; do
		[ -e "$dir" ] || die "cannot move $RUN_TMP to $dir"
		n=$((n + 1)); dir=$base-$n
	done
	chmod 755 "$dir"
	trap - EXIT
	echo "$dir"
}
