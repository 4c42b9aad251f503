#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/merge on recorded job results (lava/tests/fixtures: a complete job and a failed one,
# both recorded from real lava-run runs on this machine) and on results derived from them: a
# log cut off inside the data block, a cancelled job, an unfinished one, a submitted job never
# fetched. Complete jobs become ordinary data/ runs; every other job is a FAILED or missing
# line and cell, never a silent gap; bad input is one line and leaves data/ untouched.
. "$(dirname "$0")/lava-tap.sh"

# The complete job: a run with the guest's CSV, the job and its device named.
out=$("$merge" "$fx/job-ok" 2>&1); r=$?
is "$r" 0 "a complete job merges (exit 0)"
run=$(ls -d "$DATA"/*-lava-vm-rseq-y 2>/dev/null | head -n 1)
ok $([ -n "$run" ] && [ -s "$run/cpu-read.csv" ]; echo $?) "into a data/ run with cpu-read.csv"
"$LAB/lava/log-extract" "$fx/job-ok/log.yaml" "$tmp/x" 2>/dev/null
cmp -s "$run/cpu-read.csv" "$tmp/x/out/cpu-read.csv"
ok $? "the CSV is the one the guest sent"
meta=$(cat "$run/cpu-read.meta" 2>/dev/null)
like "$meta" "^lava_job_id: local-rseq-y-cpu-read-icount-r1$" "its .meta names the LAVA job"
like "$meta" "^hardware: qemu/vm: QEMU TCG CPU" "the device type, device and CPU"
like "$meta" "^lab_commit: [0-9a-f]{40}$" "and the lab commit that wrote the job"
like "$(cat "$run/lava.info" 2>/dev/null)" "lava_cases: [1-9][0-9]* pass, 0 fail" "lava.info counts LAVA's test cases"
like "$(head -n 1 "$run/lab-output" 2>/dev/null)" "^lab-cpuread: rseq-y/icount" "lab-output is the command's output, without the console's '| '"
is "$(sed -n 's/^variant: //p' "$run/lab-boot.info" 2>/dev/null)" rseq-y "lab-boot.info names the variant"
like "$(cat "$run/lab-output")" '^- "lsl" inline assembly:' "the quotes LAVA's log escapes come back as they were"
is "$(csv_cols "$run/figures.csv" bench 2>/dev/null | sort -u)" cpu-read \
	"figures.csv: the merged run's figures, as bench/cpu-read/parse writes them"

# Merging again adds no second run.
n0=$(ls -d "$DATA"/*-lava-vm-* | wc -l)
out=$("$merge" "$fx/job-ok" 2>&1)
like "$out" "already merged in $run" "a job merged before is not merged again"
is "$(ls -d "$DATA"/*-lava-vm-* | wc -l)" "$n0" "no new run for it"
# Job numbers are a server's own: the same number from another LAVA server is another job.
cp -r "$fx/job-ok" "$tmp/other-server"
sed -i 's|^url: .*|url: https://lava.other.example.org/scheduler/job/1|' "$tmp/other-server/info.txt"
out=$("$merge" "$tmp/other-server" 2>&1)
unlike "$out" "already merged" "the same job number from another server is not taken for merged"
is "$(ls -d "$DATA"/*-lava-vm-* | wc -l)" "$((n0 + 1))" "it becomes a run of its own"
rm -rf "$(grep -lx 'lava_url: https://lava.other.example.org/scheduler/job/1' "$DATA"/*/lava.info | xargs -r dirname)"

# Derived results: cut-off log, cancelled job, unfinished job.
mk() { # mk NAME: a copy of the complete job as NAME
	cp -r "$fx/job-ok" "$tmp/$1"
	sed -i "s/^job_id: .*/job_id: $1/" "$tmp/$1/info.txt"
}
mk cut; n=$(grep -n 'LAB-DATA-BEGIN' "$tmp/cut/log.yaml" | cut -d: -f1)
head -n $((n + 20)) "$fx/job-ok/log.yaml" > "$tmp/cut/log.yaml"
mk cancelled; sed -i 's/^health: .*/health: Canceled/' "$tmp/cancelled/info.txt"
mk running; sed -i 's/^state: .*/state: Running/; s/^health: .*/health: Unknown/' "$tmp/running/info.txt"
rm "$tmp/running/log.yaml"

# A fleet: the complete job, the failed one (a real kernel panic), the three above, and a
# submitted job nobody fetched.
{
	printf 'job\tjob_id\turl\tsubmitted\n'
	for id in local-rseq-y-cpu-read-icount-r1 local-broken-job cut cancelled running; do
		printf 'rseq-y-cpu-read-icount-r1.yaml\t%s\tlocal\t-\n' "$id"
	done
	printf 'rseq-y-cpu-read-icount-r2.yaml\t4242\thttps://lava.example.org\t-\n'
} > "$tmp/submitted.tsv"
mkdir -p "$tmp/jobs"
printf 'job\tvariant\tbench\taccel\trep\tdevice_type\nrseq-y-cpu-read-icount-r2.yaml\trseq-y\tcpu-read\ticount\t2\tqemu\n' \
	> "$tmp/jobs/manifest.tsv"
rm -rf "$DATA"
out=$("$merge" --submitted "$tmp/submitted.tsv" "$fx/job-ok" "$fx/job-incomplete" \
	"$tmp/cut" "$tmp/cancelled" "$tmp/running" 2>"$tmp/err"); r=$?
err=$(cat "$tmp/err")
is "$r" 1 "a fleet with failed and missing jobs exits 1"
like "$err" "^FAILED: lava job local-broken-job \(rseq-y cpu-read r1 on qemu/vm\): health Incomplete: .*Kernel panic" \
	"the failed job is a FAILED line with LAVA's reason and the guest's panic"
like "$err" "^FAILED: lava job cut .*cut off" "a log cut off in the data block is a FAILED line"
like "$err" "^FAILED: lava job cancelled .*health Canceled" "a cancelled job is a FAILED line"
like "$err" "^missing: lava job running .*not finished \(state Running\)" "an unfinished job is missing"
like "$err" "^missing: lava job 4242 .*no result fetched" "a submitted job never fetched is missing"
is "$(ls -d "$DATA"/*-lava-vm-* 2>/dev/null | wc -l)" 1 "only the complete job became a run"
fleet=$(cat "$DATA"/*-lava-fleet/fleet.tsv 2>/dev/null)
is "$(printf '%s\n' "$fleet" | tail -n +2 | wc -l)" 6 "the fleet table has a cell per job"
like "$fleet" $'rseq-y\tcpu-read\ticount\t2\tqemu\t\t4242\tmissing: not fetched' "with the missing cell marked"
like "$fleet" $'\tlocal-broken-job\tFAILED: Incomplete' "and the failed one"
like "$out" "merged" "the table goes to stdout too"

# The report groups by hardware and marks the fleet's failed and missing cells.
if [ -x "$BUILD/host/bin/lab-ab" ] && command -v gnuplot >/dev/null; then
	PLOTS=$tmp/plots "$LAB/scripts/report" > /dev/null 2>"$tmp/rerr"
	ok $? "make report reads the merged runs"
	rep=$(cat "$tmp/plots/report.txt")
	like "$rep" "^rseq-y/icount@qemu/vm: " "the merged run is an environment named for its hardware"
	like "$rep" "^  hardware qemu/vm: QEMU" "  with its hardware"
	like "$rep" "^  LAVA job local-rseq-y-cpu-read-icount-r1$" "  and its LAVA job"
	like "$rep" "^LAVA fleet: jobs and their state" "the report has the fleet section"
	like "$rep" "6 jobs, 5 not merged" "  counting the cells that did not merge"
	like "$rep" " 2 qemu +MISSING: not fetched" "  the missing cell marked"
	like "$rep" "FAILED: Incomplete" "  and the failed one"
else
	skip "lab-ab or gnuplot missing" "the report groups by hardware and marks fleet cells"
fi

# Bad input: one line, exit 2, data/ untouched.
rm -rf "$DATA"
bad() { # bad DESCRIPTION ARGS...
	local d=$1; shift
	local e; e=$("$merge" "$@" 2>&1 >/dev/null); local r=$?
	ok $([ $r -eq 2 ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ] && [ ! -e "$DATA" ]; echo $?) "$d: one line, exit 2, no data/ ($e)"
}
bad "a missing directory" "$tmp/nope"
mkdir -p "$tmp/empty"; bad "a directory without info.txt" "$tmp/empty"
mk nolab; sed -i '/lab\.variant/d' "$tmp/nolab/job.yaml"; bad "a job that is not the lab's" "$tmp/nolab"
mk noid; sed -i '/^job_id:/d' "$tmp/noid/info.txt"; bad "info.txt without a job id" "$tmp/noid"
echo junk > "$tmp/junk.tsv"; bad "a submitted file that is not one" --submitted "$tmp/junk.tsv" "$fx/job-ok"
bad "a good job beside a bad one" "$fx/job-ok" "$tmp/empty"
no_scratch_left
done_testing
