#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/test-map: which lab files a test runs. A test that runs a lab script maps to it and
# to what the script sources and imports (a compiled Python file counts as its source); one
# that runs a program of the build maps to the sources in its debug information; one that
# does not pass under strace is mapped again under fatrace; one that fails there too maps to
# every file ("*").
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for tool in strace fatrace; do
	command -v $tool >/dev/null || { echo "1..1"; echo "not ok 1 - $tool is installed (scripts/install-deps)"; exit 1; }
done
# scripts/csv (Python) reads a file; scripts/boot (shell) sources lib.sh and refuses no argument
printf '#!/bin/sh\necho "a,b\\n1,2" > %s/x.csv\n"%s/scripts/csv" %s/x.csv a >/dev/null\n"%s/scripts/boot" 2>/dev/null\necho "1..1"; echo "ok 1"\n' \
	"$t" "$LAB" "$t" "$LAB" > "$t/script.t"
printf '#!/bin/sh\n"%s/guest/bin/lab-cpuread" --list >/dev/null && echo "1..1" && echo "ok 1"\n' \
	"$BUILD" > "$t/program.t"
# a test that traces its own child (as the checker does) fails under strace -f
printf '#!/bin/sh\necho "a,b\n1,2" > %s/y.csv\nstrace -o /dev/null "%s/scripts/csv" %s/y.csv a >/dev/null && echo "1..1" && echo "ok 1"\n' \
	"$t" "$LAB" "$t" > "$t/traces.t"
printf '#!/bin/sh\necho "1..1"; echo "not ok 1"\n' > "$t/fails.t"
chmod +x "$t"/*.t
"$LAB/scripts/test-map" "$t/map" "$t/script.t" "$t/program.t" "$t/traces.t" "$t/fails.t" 2>"$t/err"
ok $? "test-map runs"
m=$(cat "$t/map" 2>/dev/null)
like "$m" "^$t/script.t	scripts/csv$" "a test that runs a script maps to it"
like "$m" "^$t/script.t	scripts/labdata.py$" "... and to the Python module it imports"
like "$m" "^$t/script.t	scripts/boot$" "... a shell script too"
like "$m" "^$t/script.t	scripts/lib.sh$" "... and to the shell library it sources"
like "$m" "^$t/program.t	bench/cpu-read/[a-z-]*\.c$" "a test that runs a program maps to its sources"
like "$m" "^$t/program.t	lib/[a-z-]*\.c$" "... the lab library's too"
unlike "$m" "^$t/script.t	bench/" "... and a script's test not to a program it does not run"
like "$m" "^$t/traces.t	scripts/csv$" "a test that traces its child maps to what it runs (fatrace)"
unlike "$m" "^$t/traces.t	(\*|scripts/boot)$" "... and not to every file, nor to what another test ran"
is "$(grep "^$t/fails.t" <<<"$m")" "$t/fails.t	*" "a test that fails there too maps to every file"
# --since: a test whose files did not change since the old map's commit keeps its old lines
printf '%s\tscripts/csv\n%s\tscripts/kept-as-it-was\n' "$t/script.t" "$t/script.t" > "$t/old"
"$LAB/scripts/test-map" --since "$t/old" HEAD "$t/map3" "$t/script.t" "$t/traces.t" 2>"$t/err3"
ok $? "test-map --since runs"
is "$(grep "^$t/script.t" "$t/map3" 2>/dev/null | sort | tr '\t\n' ': ')" \
	"$t/script.t:scripts/csv $t/script.t:scripts/kept-as-it-was " \
	"... an unchanged test keeps its lines as they were"
like "$(cat "$t/map3" 2>/dev/null)" "^$t/traces.t	scripts/csv$" "... a new one is mapped"
like "$(cat "$t/err3")" "1 tests kept from .*, 1 to map" "... and it says which"
# ... and one that touched a file changed since then is mapped again (the commit before the
# last change to scripts/csv)
before=$(git -C "$LAB" log -1 --format=%H -- scripts/csv)^
"$LAB/scripts/test-map" --since "$t/old" "$before" "$t/map5" "$t/script.t" 2>/dev/null
unlike "$(cat "$t/map5" 2>/dev/null)" "kept-as-it-was" "... a test that ran a file changed since is mapped again"
like "$(cat "$t/map5" 2>/dev/null)" "^$t/script.t	scripts/csv$" "  (and maps as before)"
out=$("$LAB/scripts/test-map" --since "$t/old" no-such-commit "$t/map4" "$t/script.t" 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "--since a commit that is not there: one line, status 1"
out=$("$LAB/scripts/test-map" "$t/map2" 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "no test named: one line, status 1"
ok $([ ! -e "$t/map2" ]; echo $?) "... and no map written"
done_testing
