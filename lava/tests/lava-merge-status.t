#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/merge's exit status and cells, one job kind at a time beside a complete job (so no other
# failure can hide it): a guest command that exited 3 inside a LAVA job LAVA calls Complete is
# a FAILED cell and no run; an unfinished job, or a submitted one never fetched, makes merge
# exit 1 though every other job merged.
. "$(dirname "$0")/lava-tap.sh"

mk() { # mk NAME: a copy of the complete job as NAME
	cp -r "$fx/job-ok" "$tmp/$1"
	sed -i "s/^job_id: .*/job_id: $1/" "$tmp/$1/info.txt"
}
# exit3: the recorded job, its guest's lab-status 3 (the files it sent re-encoded, the console
# saying so): LAVA itself saw nothing wrong.
mk exit3
python3 - "$tmp/exit3/log.yaml" <<'EOF' || echo "# could not derive the exit-3 job"
import base64, io, json, sys, tarfile
import yaml
path = sys.argv[1]
lines = open(path).read().splitlines()
msg = lambda l: yaml.safe_load(l)["msg"]
b = next(i for i, l in enumerate(lines) if '"msg": "| LAB-DATA-BEGIN"' in l)
e = next(i for i, l in enumerate(lines) if '"msg": "| LAB-DATA-END"' in l)
raw = base64.b64decode("".join(msg(l)[2:] for l in lines[b + 1:e]))
src, out = tarfile.open(fileobj=io.BytesIO(raw)), io.BytesIO()
dst = tarfile.open(fileobj=out, mode="w")
for m in src.getmembers():
    data = src.extractfile(m).read() if m.isfile() else None
    if m.name.endswith("lab-status"):
        data = b"3\n"
        m.size = len(data)
    dst.addfile(m, io.BytesIO(data) if data is not None else None)
dst.close()
enc = base64.b64encode(out.getvalue()).decode()
tmpl = json.loads(lines[b + 1])
block = [json.dumps(dict(tmpl, msg="| " + enc[i:i + 76])) for i in range(0, len(enc), 76)]
lines = lines[:b + 1] + block + lines[e:]
lines = [l.replace("command exited with status 0", "command exited with status 3") for l in lines]
open(path, "w").write("\n".join(lines) + "\n")
EOF
"$LAB/lava/log-extract" "$tmp/exit3/log.yaml" "$tmp/x3" 2>/dev/null
is "$(cat "$tmp/x3/out/lab-status" 2>/dev/null)" 3 "(the derived job's guest sent lab-status 3)"
is "$(sed -n 's/^health: //p' "$tmp/exit3/info.txt")" Complete "(and LAVA called the job Complete)"

"$merge" "$fx/job-ok" "$tmp/exit3" >/dev/null 2>"$tmp/err"; r=$?
is "$r" 1 "a guest that exited 3, beside a complete job: merge exits 1"
like "$(cat "$tmp/err")" "^FAILED: lava job exit3 .*exited with status 3" "a FAILED line with the guest's status"
is "$(grep -lx 'lava_job_id: exit3' "$DATA"/*/lava.info 2>/dev/null | wc -l)" 0 "no data/ run for it"
is "$(grep -lx 'lava_job_id: local-rseq-y-cpu-read-icount-r1' "$DATA"/*/lava.info 2>/dev/null | wc -l)" 1 \
	"the complete job merged beside it"
like "$(cat "$DATA"/*-lava-fleet/fleet.tsv 2>/dev/null)" $'\texit3\tFAILED: status 3\t' "its fleet cell: FAILED: status 3"

# An unfinished job beside a complete one (nothing else failing).
rm -rf "$DATA"
mk running; sed -i 's/^state: .*/state: Running/; s/^health: .*/health: Unknown/' "$tmp/running/info.txt"
"$merge" "$fx/job-ok" "$tmp/running" >/dev/null 2>"$tmp/err"; r=$?
is "$r" 1 "an unfinished job beside a complete one: merge exits 1"
like "$(cat "$tmp/err")" "^missing: lava job running .*not finished" "with its missing line"
"$merge" "$tmp/running" >/dev/null 2>&1; is $? 1 "an unfinished job alone: exit 1"
mk queued; sed -i 's/^state: .*/state: Submitted/; s/^health: .*/health: Unknown/' "$tmp/queued/info.txt"
"$merge" "$tmp/running" "$tmp/queued" "$fx/job-ok" >/dev/null 2>&1; is $? 1 "two unfinished jobs, then a complete one: exit 1"

# A submitted job never fetched, beside the complete job that was.
rm -rf "$DATA"
{ printf 'job\tjob_id\turl\tsubmitted\n'
  printf 'rseq-y-cpu-read-icount-r1.yaml\tlocal-rseq-y-cpu-read-icount-r1\tlocal\t-\n'
  printf 'rseq-y-cpu-read-icount-r2.yaml\t4243\thttps://lava.example.org\t-\n'; } > "$tmp/submitted.tsv"
mkdir -p "$tmp/jobs"
printf 'job\tvariant\tbench\taccel\trep\tdevice_type\nrseq-y-cpu-read-icount-r2.yaml\trseq-y\tcpu-read\ticount\t2\tqemu\n' \
	> "$tmp/jobs/manifest.tsv"
"$merge" --submitted "$tmp/submitted.tsv" "$fx/job-ok" >/dev/null 2>"$tmp/err"; r=$?
is "$r" 1 "a submitted job never fetched, beside a merged one: exit 1"
like "$(cat "$tmp/err")" "^missing: lava job 4243 " "with its missing line"
# Its jobs/manifest.tsv gone (make-jobs run elsewhere): still a missing cell, not a silent exit.
rm -rf "$DATA" "$tmp/jobs"
"$merge" --submitted "$tmp/submitted.tsv" "$fx/job-ok" >/dev/null 2>"$tmp/err"; r=$?
is "$r" 1 "the same without jobs/manifest.tsv: exit 1"
like "$(cat "$tmp/err")" "^missing: lava job 4243 \(rseq-y-cpu-read-icount-r2.yaml\): no result fetched" "  with its missing line"
like "$(cat "$DATA"/*-lava-fleet/fleet.tsv 2>/dev/null)" $'rseq-y-cpu-read-icount-r2.yaml\t+4243\tmissing: not fetched' "  and its fleet cell, named by its job file"

# And the control: the complete job alone exits 0.
rm -rf "$DATA"
"$merge" "$fx/job-ok" >/dev/null 2>&1; is $? 0 "the complete job alone: exit 0"
done_testing
