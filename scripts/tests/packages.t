#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Package steps under a mirror's faults: a stand-in apt-get fails its first N calls the way a
# mirror being synced does; scripts/packages retries with a pause, goes on when the lists it
# needs are there, and ends in one line naming the package and the rerun when it cannot.
# The retry schedule is read from a stand-in sleep: the pause doubles, the lists are refreshed
# before each retry of an install, and every fault the header names is transient as apt words
# it. make test does its package work before its first kernel build.
. "$(dirname "$0")/tap.sh"
cd "$LAB" || exit 1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin"
# The stand-ins: apt-get logs its arguments to $t/calls and, called as FAIL_VERB, fails with
# FAIL_TEXT while $t/fail-left > 0 (decremented by each failure); apt-cache knows the packages
# listed in $t/known.
cat > "$t/bin/apt-get" <<EOF
#!/bin/bash
echo "\$*" >> "$t/calls"
n=\$(cat "$t/fail-left" 2>/dev/null || echo 0)
if [ "\$n" -gt 0 ] && [ "\$1" = "\$FAIL_VERB" ]; then
	echo \$((n - 1)) > "$t/fail-left"
	printf '%s\n' "\$FAIL_TEXT" >&2
	exit 100
fi
[ "\$1" != download ] || { p=\${@: -1}; touch "\${p%%:*}_1.0_all.deb"; }
exit 0
EOF
# apt-cache answers as the real one does, in several writes: a reader that stops at the
# Candidate line must not take the writer's SIGPIPE for "no candidate".
cat > "$t/bin/apt-cache" <<EOF
#!/bin/bash
grep -qx "\$2" "$t/known" || exit 0
printf '%s:\n  Installed: (none)\n  Candidate: 1.0\n' "\$2"
/bin/sleep 0.2
printf '  Version table:\n     1.0 500\n        500 http://deb.example/debian bookworm/main amd64 Packages\n'
EOF
# sleep logs its pause and returns at once: the schedule is read, not waited for
printf '#!/bin/sh\necho "$1" >> "%s/sleeps"\n' "$t" > "$t/bin/sleep"
chmod +x "$t/bin/apt-get" "$t/bin/apt-cache" "$t/bin/sleep"
# What a mirror being synced made apt-get update print here, the summary line last.
MIRROR='E: Failed to fetch http://deb.example/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress? [IP: 127.0.0.1 80]
E: Some index files failed to download. They have been ignored, or old ones used instead.'
# pk FAILS KNOWN ARGS...: run scripts/packages against the stand-ins; sets out, rc, calls.
pk() {
	echo "$1" > "$t/fail-left"; printf '%s\n' $2 > "$t/known"; rm -f "$t/calls"; shift 2
	rm -f "$t/sleeps"
	out=$(PATH=$t/bin:$PATH LAB_MAKE_GOALS=test FAIL_VERB=${FAIL_VERB:-$1} FAIL_TEXT=${FAIL_TEXT:-$MIRROR} LAB_APT_TRIES=${TRIES:-4} LAB_APT_PAUSE=${PAUSE:-0} \
		scripts/packages "$@" 2>&1); rc=$?
	calls=$(grep -c . "$t/calls" 2>/dev/null || echo 0)
}
errors() { printf '%s\n' "$out" | grep -c '^error:'; }

if [ "$(id -u)" = 0 ]; then
	pk 2 "foo" install foo
	is "$rc" 0 "install: two transient failures, then installed"
	is "$(printf '%s\n' "$out" | grep -c 'unexpected size.*(try [12] of 4; again in 0 s)')" 2 "each retry says why, which try, and the pause"
	is "$(grep -c '^install -y --no-install-recommends foo$' "$t/calls")" 3 "apt-get install ran three times"
	TRIES=10 pk 9 "foo" install foo
	is "$rc/$(grep -c '^install' "$t/calls")" "0/10" "LAB_APT_TRIES=10 (a whole number with a 0): nine faults, installed at the tenth try"
	pk 9 "foo" install foo
	is "$rc/$(errors)" "1/1" "install: a fault that outlasts the tries ends in one error line"
	like "$(printf '%s\n' "$out" | grep '^error:')" '^error: could not install foo after 4 tries \(E: Failed to fetch .*unexpected size.*\); retry: make test$' \
		"the line names the package, apt's reason and the rerun"
	is "$(grep -c '^install' "$t/calls")" 4 "no more than LAB_APT_TRIES installs"
	FAIL_TEXT='E: Unable to locate package foo' pk 1 "foo" install foo
	is "$rc/$calls/$(errors)" "1/1/1" "install: a package apt does not know is not retried"
	# The schedule the header promises: LAB_APT_PAUSE seconds, doubled each time; before each
	# retry of an install the lists are refreshed (a synced mirror moves versions).
	PAUSE=3 pk 3 "foo" install foo
	is "$rc/$(paste -sd' ' "$t/sleeps" 2>/dev/null)" "0/3 6 12" "the pause doubles at each retry: 3, 6, 12 s"
	is "$(cut -d' ' -f1 "$t/calls" | paste -sd' ')" "install update install update install update install" \
		"the lists refreshed before each retry of an install"
	# Each fault the header names, as apt words it (case as apt writes it), is transient.
	for text in \
		"E: Failed to fetch http://deb.example/pool/main/f/foo/foo_1.0_all.deb  Hash Sum mismatch" \
		"E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt-get)" \
		"E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" \
		"E: Failed to fetch http://deb.example/x.deb  Could not connect to deb.example:80 (192.0.2.1), connection timed out" \
		"E: Failed to fetch http://deb.example/x.deb  Temporary failure resolving 'deb.example'" \
		"E: Failed to fetch http://deb.example/x.deb  503  Service Unavailable"; do
		FAIL_TEXT=$text pk 1 "foo" install foo
		is "$rc/$(grep -c '^install' "$t/calls")" "0/2" "transient, retried: ${text:0:60}"
	done
	FAIL_VERB=update pk 1 "" install foo
	is "$rc/$(grep -c '^update' "$t/calls")" "0/2" "install: no candidate: the lists refreshed first (retried), then installed"
else
	skip "not root: packages install refuses" "install under faults"
fi
pk 1 "foo" update foo
is "$rc/$calls" "0/2" "update: retried after a size mismatch"
pk 9 "foo rt-tests:armhf" update rt-tests:armhf
is "$rc" 0 "update: fails every time, but the lists have the package: going on"
like "$out" '^warning: apt-get update failed \(E: Failed to fetch .*\); the lists already have rt-tests:armhf: going on$' \
	"one warning line says so"
pk 9 "foo" update rt-tests:armhf
is "$rc/$(errors)" "1/1" "update: fails every time and the package has no candidate: one error line"
like "$out" 'error: apt-get update failed after 4 tries \(E: .*\); needed: rt-tests:armhf; retry: make test$' \
	"naming the package still needed"
mkdir -p "$t/dl"
pk 2 "busybox-static:arm64" download "$t/dl" busybox-static:arm64
is "$rc/$(ls "$t/dl")" "0/busybox-static_1.0_all.deb" "download: into DIR after two transient failures"
out=$(LAB_APT_TRIES=x scripts/packages update 2>&1); rc=$?
is "$rc/$(printf '%s\n' "$out" | wc -l)" "1/1" "a bad LAB_APT_TRIES: one line"

# install-deps goes through it: one package reported missing is installed through the faults.
if [ "$(id -u)" = 0 ]; then
	rm -f "$t/calls"
	out=$(PATH=$t/bin:$PATH scripts/install-deps 2>&1); rc=$?
	is "$rc/$(cat "$t/calls" 2>/dev/null | wc -l)" "0/0" "install-deps with every package present: no apt-get call"
	# dpkg-query as if ministat had been removed: dpkg still lists it, with its configuration
	cat > "$t/bin/dpkg-query" <<EOF
#!/bin/bash
/usr/bin/dpkg-query "\$@" | sed 's/^ministat install ok installed\$/ministat deinstall ok config-files/'
EOF
	chmod +x "$t/bin/dpkg-query"
	echo 2 > "$t/fail-left"; echo ministat > "$t/known"; rm -f "$t/calls"
	out=$(PATH=$t/bin:$PATH FAIL_VERB=install FAIL_TEXT=$MIRROR LAB_APT_PAUSE=0 scripts/install-deps 2>&1); rc=$?
	is "$rc/$(grep -c '^install -y --no-install-recommends ministat$' "$t/calls")" "0/3" \
		"install-deps: a missing package installed through two mirror faults"
else
	skip "not root" "install-deps under faults"
fi

# make test: the package work is its first prerequisite, before check and any kernel.
first=$(make -pq test 2>/dev/null | sed -n 's/^test: *//p' | head -n 1 | awk '{print $1}')
is "$first" "test-packages" "make test fetches its packages before anything else"
pre=$(make -pq test-packages 2>/dev/null | sed -n 's/^test-packages: *//p' | head -n 1)
like "$pre" "arch-deps/arm64/bin/busybox" "test-packages: the ARM guests' busybox"
like "$pre" "arch-deps/arm/rt-tests/version" "test-packages: the ARM guests' hackbench"
like "$pre" "\.deps-lava" "test-packages: the LAVA server's packages"
done_testing
