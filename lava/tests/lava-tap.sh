# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# What the lava/merge tests share (sourced): TAP, the recorded jobs, a scratch DATA and TMPDIR
# removed on exit. Without python3-yaml merge cannot run: the file is skipped, in one line.
. "${BASH_SOURCE[0]%/*}/../../scripts/tests/tap.sh"
python3 -c 'import yaml' 2>/dev/null || { skip "python3-yaml is missing" "lava merge"; done_testing; exit; }
fx=$LAB/lava/tests/fixtures
merge=$LAB/lava/merge
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DATA=$tmp/data
# merge's own temporary files go here, where the file's end finds them gone (no_scratch_left)
export TMPDIR=$tmp/scratch
mkdir -p "$TMPDIR"
no_scratch_left() { is "$(ls -A "$TMPDIR")" "" "no temporary folder left behind in \$TMPDIR"; }
