#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/make-jobs: one job per boot (variants x benches x repetitions), artifacts whose
# checksums the jobs carry, served from LAVA_ARTIFACTS_URL; the initramfs is the lab's with the
# run's command appended (scripts/boot's layout); QEMU options per accelerator; a board's boot
# method; every qemu job accepted by the dispatcher (`lava-run --validate`, when installed);
# bad settings: one line, the previous jobs left as they were. make-jobs packs images and never
# boots one: two stand-in images (bytes and an .info) in a scratch BUILD beside the lab's
# initramfs and gen_init_cpio (make check builds both), so no kernel is needed.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
mj=$LAB/lava/make-jobs
[ -f "$BUILD/initramfs/lab.cpio" ] && [ -x "$BUILD/tools/gen_init_cpio" ] ||
	{ echo "1..1"; echo "not ok 1 - the initramfs and gen_init_cpio are built (make check-prereqs)"; exit 1; }
python3 -c 'import yaml' 2>/dev/null || { skip "python3-yaml is missing" "make-jobs"; done_testing; exit; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/images"
ln -s "$BUILD/initramfs" "$tmp/build/initramfs" && ln -s "$BUILD/tools" "$tmp/build/tools"
vs="fake-a fake-b"
for v in $vs; do
	head -c 4096 /dev/urandom > "$tmp/build/images/$v.bzImage"
	printf 'variant: %s\nrelease: 6.1.0-%s\nconfig_sha256: %064d\n' "$v" "$v" 0 > "$tmp/build/images/$v.info"
done
export BUILD=$tmp/build
export LAVA_OUT=$tmp/lava
url=https://files.example.org/lab
nv=$(echo $vs | wc -w)

out=$(LAVA_VARIANTS="$vs" LAVA_BENCH="cpu-read percpu" LAVA_REPS=2 LAVA_ARTIFACTS_URL=$url/ "$mj" 2>&1)
ok $? "make-jobs runs for $vs x cpu-read percpu x 2"
jobs=$tmp/lava/jobs
is "$(ls "$jobs"/*.yaml | wc -l)" $((nv * 2 * 2)) "one job per boot"
is "$(tail -n +2 "$jobs/manifest.tsv" | wc -l)" $((nv * 2 * 2)) "each in the manifest"

# Every job: YAML, a qemu job, images at the URL with the artifacts' checksums.
check=$(python3 - "$jobs" "$tmp/lava/artifacts" "$url" <<'EOF'
import hashlib, os, sys, yaml
jobs, arts, url = sys.argv[1:]
bad = []
for f in sorted(os.listdir(jobs)):
    if not f.endswith(".yaml"):
        continue
    j = yaml.safe_load(open(os.path.join(jobs, f)))
    if j["device_type"] != "qemu" or j["context"]["arch"] != "amd64":
        bad.append(f + ": not an amd64 qemu job")
    imgs = j["actions"][0]["deploy"]["images"]
    for k in ("kernel", "initrd"):
        u = imgs[k]["url"]
        if not u.startswith(url + "/"):
            bad.append(f"{f}: {k} url {u}")
            continue
        p = os.path.join(arts, u[len(url) + 1:])
        if hashlib.sha256(open(p, "rb").read()).hexdigest() != imgs[k]["sha256sum"]:
            bad.append(f"{f}: {k} checksum")
        # QEMU is given each image by its image_arg (LAVA passes no image without one)
        if not imgs[k].get("image_arg", "").startswith("-%s {%s}" % (k, k)):
            bad.append(f"{f}: {k} image_arg {imgs[k].get('image_arg')}")
    if "-icount shift=0,sleep=off" not in j["context"]["extra_options"]:
        bad.append(f + ": no icount")
    if "monitors" not in j["actions"][2]["test"]:
        bad.append(f + ": no monitor")
print("\n".join(bad) or "all good")
EOF
)
is "$check" "all good" "every job is an amd64 qemu job with icount, a monitor, and images at LAVA_ARTIFACTS_URL with their checksums and QEMU arguments"

# The monitor's pattern, tried as pexpect tries it on a console that has delivered part of a
# line: no match until the line ends, then the whole unit.
units=$(python3 - "$jobs/$(ls "$jobs" | grep -m1 '\.yaml$')" <<'EOF'
import re, sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
p = re.compile(j["actions"][2]["test"]["monitors"][0]["pattern"])
line = "LAB-CASE cpu-read.rseq-own pass 4.0000 insn\r\n"
seen = [m.group("units") for m in (p.search(line[:k]) for k in range(len(line) + 1)) if m]
print(" ".join(dict.fromkeys(seen)))
EOF
)
is "$units" "insn" "the monitor matches a LAB-CASE line only once it is whole (units 'insn', never a part)"

# The initramfs: the lab's, then a cpio with the run's command, as scripts/boot appends it.
v=${vs%% *}
base=$BUILD/initramfs/lab.cpio
initrd=$tmp/lava/artifacts/$v-percpu-icount.cpio
cmp -s -n "$(stat -c %s "$base")" "$base" "$initrd"
ok $? "the initrd starts with the lab's initramfs"
mkdir -p "$tmp/cpio" && tail -c +$(($(stat -c %s "$base") + 1)) "$initrd" | (cd "$tmp/cpio" && cpio -id --quiet 2>/dev/null)
is "$(cat "$tmp/cpio/lab/run.sh" 2>/dev/null)" "sh /lab/guest-run lab-percpu --out /out " "and appends /lab/run.sh with the bench's command"
is "$(cat "$tmp/cpio/lab/run.env" 2>/dev/null)" "export LAB_VARIANT=$v LAB_ACCEL=icount LAB_CPUS=1" "and run.env labels the rows as scripts/boot does"
cmp -s "$tmp/cpio/lab/guest-run" "$LAB/lava/guest-run"
ok $? "and lava/guest-run"

# The dispatcher accepts them.
if command -v lava-run >/dev/null; then
	n=0 bad=
	for j in "$jobs"/*.yaml; do
		# file:// artifacts so the dispatcher's validation can check they exist.
		sed "s#$url#file://$tmp/lava/artifacts#" "$j" > "$tmp/v.yaml"
		"$LAB/lava/device-qemu" "$tmp/v.yaml" > "$tmp/dev.yaml"
		lava-run --validate --job-id "lab-validate-$$" --output-dir "$tmp/out" --device "$tmp/dev.yaml" "$tmp/v.yaml" \
			> /dev/null 2> "$tmp/val.log" && grep -q '"case": "job", "definition": "lava", "result": "pass"' "$tmp/val.log" ||
			bad+=" $(basename "$j")"
		n=$((n + 1))
	done
	rm -rf "/var/lib/lava/dispatcher/tmp/lab-validate-$$" 2>/dev/null
	is "${bad:-none}" none "lava-run --validate accepts all $n jobs"
else
	skip "lava-run is not installed" "lava-run --validate accepts the jobs"
fi

# lava/device-qemu (what lava-run gets here) gives QEMU the options a server's rendering of
# lava/qemu-lab.jinja2 with LAVA's own templates gives it, for each accelerator. The templates
# come from lava-server (LAVA_DEVICE_TEMPLATES, or where its package puts them).
tpl=${LAVA_DEVICE_TEMPLATES:-}
for d in /etc/lava-server/dispatcher-config/device-types /usr/share/lava-server/device-types; do
	[ -n "$tpl" ] || [ ! -f "$d/qemu.jinja2" ] || tpl=$d
done
opts() { python3 -c 'import sys, yaml
q = yaml.safe_load(sys.stdin)["actions"]["boot"]["methods"]["qemu"]["parameters"]
print(q["command"], " ".join(q["options"]), " ".join(q.get("extra") or []))'; }
for a in icount tcg kvm; do
	if [ -z "$tpl" ]; then skip "no LAVA device type templates (lava-server's qemu.jinja2)" "$a: rendered device = lava/device-qemu"; continue; fi
	LAVA_VARIANTS=$v LAVA_ACCEL=$a "$mj" > /dev/null 2>&1
	j=$jobs/$v-cpu-read-$a-r1.yaml
	is "$("$LAB/lava/render-device" "$tpl" "$LAB/lava/qemu-lab.jinja2" "$j" | opts)" \
		"$("$LAB/lava/device-qemu" "$j" | opts)" "$a: the server's rendered device and lava/device-qemu give QEMU the same options"
done

# QEMU options per accelerator, and a board.
LAVA_VARIANTS=$v LAVA_ACCEL=tcg "$mj" > /dev/null 2>&1
j=$(cat "$jobs/$v-cpu-read-tcg-r1.yaml" 2>/dev/null)
like "$j" "extra_options: \['-cpu max', '-smp 2', '-no-reboot'\]" "tcg: -cpu max, 2 vCPUs, no icount"
like "$(cat "$tmp/lava/artifacts/../jobs/$v-cpu-read-tcg-r1.yaml")" "lab.command: 'lab-cpuread --out /out --reps 3 --duration 40'" "tcg: bench-guest's shorter defaults"
LAVA_VARIANTS=$v LAVA_ACCEL=kvm "$mj" > /dev/null 2>&1
j=$(cat "$jobs/$v-cpu-read-kvm-r1.yaml" 2>/dev/null)
ok $(printf '%s' "$j" | grep -q no_kvm; [ $? -ne 0 ] && printf '%s' "$j" | grep -q "'-smp 2'"; echo $?) "kvm: KVM left on (the template's -enable-kvm), 2 vCPUs"
LAVA_VARIANTS=$v LAVA_DEVICE_TYPE=my-board LAVA_BOOT_METHOD=u-boot "$mj" > /dev/null 2>&1
j=$(cat "$jobs/$v-cpu-read-none-r1.yaml" 2>/dev/null)
like "$j" "to: tftp" "a board: a tftp deployment"
like "$j" "method: u-boot" "booted with the named method"
like "$j" "^device_type: my-board" "on its device type"

# Bad settings: one line, non-zero, the jobs of the last good run kept.
before=$(ls "$jobs")
bad() { # bad DESCRIPTION VAR=VALUE...
	local d=$1; shift
	local e; e=$(env LAVA_VARIANTS=$v "$@" "$mj" 2>&1); local r=$?
	ok $([ $r -ne 0 ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ] && [ "$(ls "$jobs")" = "$before" ]; echo $?) "$d: one line ($e)"
}
bad "no repetitions" LAVA_REPS=0
bad "an unknown bench" LAVA_BENCH=nope
bad "an unknown accelerator" LAVA_ACCEL=hvf
bad "an ftp URL" LAVA_ARTIFACTS_URL=ftp://x/y
bad "a variant without a kernel" LAVA_VARIANTS=no-such-variant
bad "a board without a boot method" LAVA_DEVICE_TYPE=my-board
done_testing
