#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/make-jobs names every boot apart, without a kernel image (stand-in image, initramfs and
# gen_init_cpio in a scratch BUILD): each job's job_name and metadata carry the repetition the
# manifest gives it, so no two jobs of a variant x bench share a name (LAVA's listing and
# lava/merge's "r1" tell them apart by it).
. "$(dirname "$0")/../../scripts/tests/tap.sh"
python3 -c 'import yaml' 2>/dev/null || { skip "python3-yaml is missing" "make-jobs names"; done_testing; exit; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/build/images" "$t/build/initramfs" "$t/build/tools"
for v in rseq-y rseq-n; do
	echo "image $v" > "$t/build/images/$v.bzImage"
	printf 'release: 6.1.0-stand-in\nconfig_sha256: 0\n' > "$t/build/images/$v.info"
done
echo base > "$t/build/initramfs/lab.cpio"
printf '#!/bin/sh\ncat "$1"\n' > "$t/build/tools/gen_init_cpio"
chmod +x "$t/build/tools/gen_init_cpio"

out=$(BUILD=$t/build LAVA_OUT=$t/lava LAVA_VARIANTS="rseq-y rseq-n" LAVA_BENCH="cpu-read percpu" \
	LAVA_REPS=3 "$LAB/lava/make-jobs" 2>&1); r=$?
is "$r" 0 "make-jobs runs on stand-in artifacts (2 variants x 2 benches x 3 reps)"
[ $r -eq 0 ] || printf '%s\n' "$out" | head -n 5 | sed 's/^/#   /'

# Per job: manifest rep, metadata lab.rep and job_name, read back from the files.
check=$(PYTHONPATH=$LAB/scripts python3 - "$t/lava/jobs" <<'EOF'
import os, sys, yaml
import labdata
jobs = sys.argv[1]
rows = labdata.parse_table(open(os.path.join(jobs, "manifest.tsv")).read(), "\t")
names, bad = {}, []
for r in rows:
    j = yaml.safe_load(open(os.path.join(jobs, r["job"])))
    name, meta = j["job_name"], j["metadata"]
    names.setdefault(name, []).append(r["job"])
    if str(meta["lab.rep"]) != r["rep"]:
        bad.append(f"{r['job']}: lab.rep {meta['lab.rep']}, manifest {r['rep']}")
    if name.split()[-1] != "r" + r["rep"]:
        bad.append(f"{r['job']}: job_name '{name}' does not end in r{r['rep']}")
    for k in ("variant", "bench", "accel"):
        if r[k] not in name.split():
            bad.append(f"{r['job']}: job_name '{name}' lacks its {k} {r[k]}")
print(len(rows))
print(sum(len(v) > 1 for v in names.values()))
print("; ".join(bad) or "none")
EOF
)
is "$(sed -n 1p <<<"$check")" 12 "12 jobs in the manifest"
is "$(sed -n 2p <<<"$check")" 0 "no two jobs share a job_name"
is "$(sed -n 3p <<<"$check")" none "each job_name ends in its repetition (r1..r3) and names its variant, bench, accelerator"
done_testing
