#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run named in the docs is a run in data/: a figure quoted from a run that was never
# committed (a /tmp run, a deleted one) cannot be checked by a reader, so it fails here.
# A run is named by its directory (20261203T062437Z-vm-host) or by its time stamp alone.
. "$(dirname "$0")/tap.sh"

# cited DOCS DATA: "FILE:LINE RUN yes|no" for every run the docs under DOCS name.
cited() {
	local docs file line run d found
	docs=$(cd "$1" && ls README.md docs/*.md bench/*/README*.md scripts/README.md \
		scripts/*/README.md lava/README.md 2>/dev/null)
	[ -n "$docs" ] || return 0
	(cd "$1" && grep -HnoE '20[0-9]{6}T[0-9]{6}Z(-[A-Za-z0-9_.-]*[A-Za-z0-9])?' $docs) |
	while IFS=: read -r file line run; do
		found=no
		for d in "$2/$run"*; do [ -d "$d" ] && found=yes && break; done
		echo "$file:$line $run $found"
	done
}

n=0
while read -r where run found; do
	n=$((n + 1))
	is "$found" yes "$where names run $run, which is in data/"
done < <(cited "$LAB" "$LAB/data")
ok $([ "$n" -gt 0 ]; echo $?) "the docs name $n runs (the check saw them)"

# The check itself: a doc citing a run that is not in data/ is caught.
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/docs" "$t/data/20990101T000000Z-x-host"
printf 'from 20990101T000000Z-x-host and from 20990102T000000Z-x-host\n' > "$t/docs/a.md"
got=$(cited "$t" "$t/data" | sort)
is "$got" "docs/a.md:1 20990101T000000Z-x-host yes
docs/a.md:1 20990102T000000Z-x-host no" "a missing run is told apart from a present one"
done_testing
