#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fleet path without a server: lava/submit, lava/fetch and lava/merge against a stand-in
# for lavacli (first on PATH) that answers as lavacli 1.2 does (ids from `jobs submit`,
# `jobs show --yaml`, `jobs definition`, `jobs logs --raw` with its "- " lines)
# from the recorded jobs in lava/tests/fixtures. Checks the ids recorded, the credentials
# passed but never written, the fetched layout, the merge's cells, and bad settings.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
python3 -c 'import yaml' 2>/dev/null || { skip "python3-yaml is missing" "fleet"; done_testing; exit; }
fx=$LAB/lava/tests/fixtures
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT; [ -z "${KEEP:-}" ] || trap - EXIT
export DATA=$tmp/data

# Three jobs: one that completes, one that fails (the recorded panic), one still running.
mkdir -p "$tmp/lava/jobs" "$tmp/bin"
printf 'job\tvariant\tbench\taccel\trep\tdevice_type\n' > "$tmp/lava/jobs/manifest.tsv"
for r in 1 2 3; do
	cp "$fx/job-ok/job.yaml" "$tmp/lava/jobs/rseq-y-cpu-read-icount-r$r.yaml"
	printf 'rseq-y-cpu-read-icount-r%s.yaml\trseq-y\tcpu-read\ticount\t%s\tqemu\n' "$r" "$r" >> "$tmp/lava/jobs/manifest.tsv"
done
cat > "$tmp/bin/lavacli" <<EOF
#!/usr/bin/env bash
# Stand-in for lavacli: records its arguments, answers from the fixtures.
echo "\$*" >> "$tmp/lavacli.args"
[ -z "\${XDG_CONFIG_HOME:-}" ] || { echo "\$XDG_CONFIG_HOME" > "$tmp/lavacli.home"; cat "\$XDG_CONFIG_HOME/lavacli.yaml" > "$tmp/lavacli.conf"; }
while [ "\${1#-}" != "\$1" ]; do shift 2; done
fx=$fx
case "\$1 \$2" in
"jobs submit") n=\$(( \$(cat "$tmp/n" 2>/dev/null || echo 100) + 1 )); echo \$n > "$tmp/n"; echo \$n ;;
"jobs show")
	case \$3 in
	101) s=Finished h=Complete ;; 102) s=Finished h=Incomplete ;; *) s=Running h=Unknown ;;
	esac
	printf 'id: %s\nstate: %s\nhealth: %s\ndevice: qemu-01\ndevice_type: qemu\nfailure_comment: null\n' "\$3" "\$s" "\$h" ;;
"jobs definition") [ "\$3" = 102 ] && cat "\$fx/job-incomplete/job.yaml" || cat "\$fx/job-ok/job.yaml" ;;
"jobs logs")
	[ "\${@: -1}" = 102 ] && f=\$fx/job-incomplete/log.yaml || f=\$fx/job-ok/log.yaml
	grep -v '^#' "\$f" | sed 's/^/- /' ;;
*) echo "stand-in lavacli: unexpected \$*" >&2; exit 1 ;;
esac
EOF
chmod +x "$tmp/bin/lavacli"
export PATH=$tmp/bin:$PATH LAVA_URL=https://lava.example.org LAVA_USER=me LAVA_TOKEN=s3cret

out=$("$LAB/lava/submit" "$tmp/lava/jobs" 2>&1); r=$?
is "$r" 0 "submit sends every job"
sub=$tmp/lava/submitted.tsv
is "$(tail -n +2 "$sub" | cut -f1,2 | tr '\t\n' ': ')" \
	"rseq-y-cpu-read-icount-r1.yaml:101 rseq-y-cpu-read-icount-r2.yaml:102 rseq-y-cpu-read-icount-r3.yaml:103 " \
	"and records each job's id"
like "$(head -n 1 "$tmp/lavacli.args")" "^-i lab jobs submit " "lavacli gets an identity"
like "$(tr -s ' \n' ' ' < "$tmp/lavacli.conf")" "^lab: token: s3cret uri: https://lava.example.org/RPC2 username: me $" \
	"its file holds the server's RPC URI, user and token"
! grep -q s3cret "$tmp/lavacli.args"; ok $? "the token is on no lavacli command line"
ok $([ ! -e "$(cat "$tmp/lavacli.home")" ]; echo $?) "and the identity file is gone after submit"
! grep -q s3cret "$sub"; ok $? "the token is not written to submitted.tsv"
! printf '%s' "$out" | grep -q s3cret; ok $? "nor printed"

out=$(LAVA_WAIT=0 "$LAB/lava/fetch" "$sub" 2>&1); r=$?
is "$r" 0 "fetch with LAVA_WAIT=0 stores what there is"
res=$tmp/lava/results
ok $([ -s "$res/101/log.yaml" ] && [ -s "$res/101/job.yaml" ]; echo $?) "a finished job: its log and definition"
is "$(sed -n 's/^health: //p' "$res/102/info.txt")" Incomplete "a failed job: its health"
ok $([ -f "$res/103/info.txt" ] && [ ! -e "$res/103/log.yaml" ]; echo $?) "a running job: its state, no log"
like "$(cat "$res/101/info.txt")" "^url: https://lava.example.org$" "the server, without credentials"

out=$("$LAB/lava/merge" --submitted "$sub" "$res"/*/ 2>&1); r=$?
is "$r" 1 "the merge of a partial fleet exits 1"
like "$out" "merged into $DATA/.*-lava-qemu-01-rseq-y" "the complete job becomes a run named after its device"
like "$out" "FAILED: lava job 102 .*health Incomplete" "the failed job is a FAILED line"
like "$out" "missing: lava job 103 .*state Running" "the running one is missing"
run=$(ls -d "$DATA"/*-lava-qemu-01-rseq-y | head -n 1)
like "$(cat "$run/cpu-read.meta")" "^hardware: qemu/qemu-01: QEMU TCG CPU" "its .meta names device type, device and CPU"
like "$(cat "$run/cpu-read.meta")" "^lava_url: https://lava.example.org$" "and the server"

# Bad settings: one line, nothing submitted.
bad() { # bad DESCRIPTION: run submit with the environment given before the call
	local e; e=$("$LAB/lava/submit" "$tmp/lava/jobs" 2>&1); local r=$?
	ok $([ $r -ne 0 ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ]; echo $?) "$1: one line ($e)"
}
: > "$tmp/lavacli.args"
LAVA_URL= bad "no LAVA_URL"
LAVA_URL=ftp://x bad "a LAVA_URL that is not http(s)"
LAVA_TOKEN= bad "no token"
is "$(wc -l < "$tmp/lavacli.args")" 0 "lavacli was never called"
e=$("$LAB/lava/fetch" "$tmp/nope.tsv" 2>&1); r=$?
ok $([ $r -ne 0 ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ]; echo $?) "fetch without a submitted file: one line ($e)"
done_testing
