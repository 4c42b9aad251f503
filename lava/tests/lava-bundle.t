#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bare-metal bundle: lava/bundle makes one tarball with static programs and a `run` entry
# point; unpacked elsewhere, `run` benches the running kernel (here, briefly: nothing is loaded
# into it) and writes a result tarball; lava/import makes it an ordinary data/ run with host,
# kernel, config and lab commit recorded. Bad input to import: one line, data/ untouched.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
bins="$BUILD/guest/bin/lab-cpuread $BUILD/guest/bin/lab-percpu"
for b in $bins; do
	[ -x "$b" ] || { skip "no $b (make guest-bins)" "bundle"; done_testing; exit; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DATA=$tmp/data
# bundle's and import's temporary folders: the end finds none left
export TMPDIR=$tmp/scratch
mkdir -p "$TMPDIR"

"$LAB/lava/bundle" "$tmp/b.tar.gz" > /dev/null
ok $? "lava/bundle writes the bundle"
mkdir "$tmp/t" && tar -xzf "$tmp/b.tar.gz" -C "$tmp/t"
b=$tmp/t/rseq-lab-bundle
ok $([ -x "$b/run" ] && [ -x "$b/bin/lab-cpuread" ] && [ -x "$b/bin/lab-percpu" ] && [ -f "$b/guest-run" ]; echo $?) \
	"it holds run, guest-run and the bench programs"
ok $(file "$b/bin/lab-cpuread" | grep -q 'statically linked'; echo $?) "static programs: no library needed on the target"
like "$(cat "$b/bundle.info")" "^lab_commit: [0-9a-f]{40}$" "bundle.info names the lab commit"

# Run it from elsewhere, with another PATH: the bundle needs nothing from the lab.
res=$tmp/res.tar.gz
(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp" CPUREAD_ARGS="--reps 1 --duration 5" \
	PERCPU_ARGS="--reps 1 --duration 5 --threads 1" "$b/run" --variant my-kernel --out "$res" > "$tmp/run.log" 2>&1)
ok $? "run benches the running kernel and exits 0"
ok $([ -s "$res" ]; echo $?) "and writes its result tarball"
tar -xzf "$res" -C "$tmp" 2>/dev/null
info=$(cat "$tmp/rseq-lab-result/system.info" 2>/dev/null)
like "$info" "^kernel_release: $(uname -r)$" "system.info: the kernel"
like "$info" "^cpu_model: .+" "the CPU model"
like "$info" "^machine_glibc: " "the machine's glibc"
like "$info" "^kernel_config_sha256: " "and the kernel config (or why not)"
is "$(cat "$tmp/rseq-lab-result/lab-status" 2>/dev/null)/$(sed -n 's/^status: //p' <<< "$info")" "0/0" \
	"lab-status and system.info's status: 0, every bench left its CSV"
is "$(sed -n 's/^benches: //p' <<< "$info")" "cpu-read percpu" "system.info: the benches run"

out=$("$LAB/lava/import" "$res" 2>&1)
ok $? "import takes it"
run=$(printf '%s\n' "$out" | sed -n 's/^>> results in //p')
ok $([ -d "$run" ] && [ "${run#"$DATA"/}" != "$run" ]; echo $?) "into a data/ run ($(basename "$run"))"
cmp -s "$run/cpu-read.csv" "$tmp/rseq-lab-result/cpu-read.csv"
ok $? "with the CSV as measured"
is "$(csv_cols "$run/cpu-read.csv" variant accel | head -n 1 | tr '\t' ,)" "my-kernel,none" "rows labelled with the variant given to run"
meta=$(cat "$run/percpu.meta" 2>/dev/null)
like "$meta" "^host: $(uname -n)$" "its .meta: the host"
like "$meta" "^hardware: $(uname -n) \((bare metal|virtual \(hypervisor flag\))\): " "the hardware"
like "$meta" "^lab_commit: [0-9a-f]{40}$" "the lab commit of the bundle"
like "$meta" "^kernel_config_sha256: " "the kernel config"

# Bad input: one line, exit non-zero, data/ untouched.
rm -rf "$DATA"
bad() { # bad DESCRIPTION FILE
	local e; e=$("$LAB/lava/import" "$2" 2>&1); local r=$?
	ok $([ $r -ne 0 ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ] && [ ! -e "$DATA" ]; echo $?) "$1: one line, no data/ ($e)"
}
bad "a missing file" "$tmp/nope.tar.gz"
echo hello > "$tmp/text"; bad "not a tarball" "$tmp/text"
mkdir -p "$tmp/o/other" && echo x > "$tmp/o/other/f" && tar -czf "$tmp/other.tar.gz" -C "$tmp/o" other
bad "a tarball that is not a bundle result" "$tmp/other.tar.gz"
# Results edited one way each from the real one.
edit() { # edit NAME CMD: a copy of the result with CMD run in it
	rm -rf "$tmp/e" && mkdir "$tmp/e" && tar -xzf "$res" -C "$tmp/e" && (cd "$tmp/e/rseq-lab-result" && eval "$2") &&
		tar -czf "$tmp/$1.tar.gz" -C "$tmp/e" rseq-lab-result
}
edit failed "sed -i 's/^status: 0/status: 1/' system.info"; bad "a failed run" "$tmp/failed.tar.gz"
edit nometa "rm cpu-read.meta"; bad "a CSV without its .meta" "$tmp/nometa.tar.gz"
edit nocsv "rm ./*.csv"; bad "no CSV" "$tmp/nocsv.tar.gz"
edit noinfo "rm system.info"; bad "no system.info" "$tmp/noinfo.tar.gz"
edit empty "head -n 1 cpu-read.csv > x && mv x cpu-read.csv"; bad "a CSV without rows" "$tmp/empty.tar.gz"
is "$(ls -A "$TMPDIR")" "" "bundle and import leave no temporary folder behind"
done_testing
