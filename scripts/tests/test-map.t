#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/test-map: which lab files a test runs. A test that runs a lab script maps to it and
# to what the script sources and imports (a compiled Python file counts as its source); one
# that runs a program of the build maps to the sources in its debug information; one that
# does not pass under strace maps to every file ("*").
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
command -v strace >/dev/null || { echo "1..1"; echo "not ok 1 - strace is installed (scripts/install-deps)"; exit 1; }
# scripts/csv (Python) reads a file; scripts/boot (shell) sources lib.sh and refuses no argument
printf '#!/bin/sh\necho "a,b\\n1,2" > %s/x.csv\n"%s/scripts/csv" %s/x.csv a >/dev/null\n"%s/scripts/boot" 2>/dev/null\necho "1..1"; echo "ok 1"\n' \
	"$t" "$LAB" "$t" "$LAB" > "$t/script.t"
printf '#!/bin/sh\n"%s/guest/bin/lab-cpuread" --list >/dev/null && echo "1..1" && echo "ok 1"\n' \
	"$BUILD" > "$t/program.t"
printf '#!/bin/sh\nstrace -o /dev/null true && echo "1..1" && echo "ok 1"\n' > "$t/traces.t"
chmod +x "$t"/*.t
"$LAB/scripts/test-map" "$t/map" "$t/script.t" "$t/program.t" "$t/traces.t" 2>"$t/err"
ok $? "test-map runs"
m=$(cat "$t/map" 2>/dev/null)
like "$m" "^$t/script.t	scripts/csv$" "a test that runs a script maps to it"
like "$m" "^$t/script.t	scripts/labdata.py$" "... and to the Python module it imports"
like "$m" "^$t/script.t	scripts/boot$" "... a shell script too"
like "$m" "^$t/script.t	scripts/lib.sh$" "... and to the shell library it sources"
like "$m" "^$t/program.t	bench/cpu-read/[a-z-]*\.c$" "a test that runs a program maps to its sources"
like "$m" "^$t/program.t	lib/[a-z-]*\.c$" "... the lab library's too"
unlike "$m" "^$t/script.t	bench/" "... and a script's test not to a program it does not run"
is "$(grep "^$t/traces.t" <<<"$m")" "$t/traces.t	*" "a test that traces under strace maps to every file"
out=$("$LAB/scripts/test-map" "$t/map2" 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "no test named: one line, status 1"
ok $([ ! -e "$t/map2" ]; echo $?) "... and no map written"
done_testing
