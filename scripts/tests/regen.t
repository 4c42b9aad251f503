#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/regen without a guest: a run whose booted bytes this clone does not have is not
# rerun (exit 3) and the inputs that differ are named; bad input is one line (exit 2); with
# the same bytes the run's own command reruns into a scratch DATA and regen-diff says figure by
# figure identical or not (exit 0 / 1). data/ is never written.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export BUILD=$t/build DATA=$t/data
mkdir -p "$BUILD/images" "$BUILD/initramfs" "$t/ref"
echo kernel > "$BUILD/images/rseq-y.bzImage"
echo archive > "$BUILD/initramfs/lab.cpio"
sha() { sha256sum < "$1" | cut -d' ' -f1; }
figs='bench,figure,side,accel,unit,boot,rep,value
cpu-read,getcpu_syscall,rseq-y,icount,insn,1,1,186.000
cpu-read,rseq_cpu_id,rseq-y,icount,insn,1,1,4.000'
printf '%s\n' "$figs" > "$t/ref/figures.csv"
# The rerun: a command that writes a run with the given figures (RERUN, else the reference's).
cat > "$t/rerun" <<'EOF'
#!/usr/bin/env bash
mkdir -p "$DATA/x" && cp "${RERUN:-$REF}" "$DATA/x/figures.csv" && echo "accel $ACCEL" > "$DATA/x/accel"
EOF
chmod +x "$t/rerun"
export REF=$t/ref/figures.csv
meta() { printf 'bench: cpu-read\naccel: %s\ncompiler: gcc (Debian 1.0) 1.0\ncommand: %s\n' "$1" "$t/rerun" > "$t/ref/cpu-read.meta"; }
info() { printf 'variant: rseq-y\nimage_sha256: %s\ninitramfs_sha256: %s\nkernel_config_sha256: aaa\n' "$1" "$2" > "$t/ref/lab-boot.info"; }
echo "config_sha256: bbb" > "$BUILD/images/rseq-y.info"
meta icount

info "$(printf '%064d' 0)" "$(sha "$BUILD/initramfs/lab.cpio")"
out=$("$LAB/scripts/regen" "$t/ref" 2>&1); r=$?
is "$r" 3 "another image: exit 3, nothing rerun"
like "$out" "the rseq-y image differ.*the reference must be renewed" "it names the image"
like "$out" "compiler: then gcc \\(Debian 1.0\\) 1.0; now " "and the compiler that differs"
like "$out" "config of rseq-y: then aaa; now bbb" "and the kernel's configuration"
like "$out" "lab sources: the run's commit \\(not recorded\\) is not in this clone's history" \
	"and the lab's sources, whose commit it cannot find"
[ ! -e "$DATA" ]; ok $? "nothing was run"

info "$(sha "$BUILD/images/rseq-y.bzImage")" "$(printf '%064d' 0)"
out=$("$LAB/scripts/regen" "$t/ref" 2>&1); r=$?
is "$r" 3 "another initramfs: exit 3"
like "$out" "^regen: the initramfs differ" "it names the initramfs"

info "$(sha "$BUILD/images/rseq-y.bzImage")" "$(sha "$BUILD/initramfs/lab.cpio")"
out=$("$LAB/scripts/regen" "$t/ref" 2>/dev/null); r=$?
is "$r" 0 "the same bytes and the same figures: exit 0"
like "$out" "regen: 2 of 2 figures identical" "2 of 2 identical"
printf '%s\n' "$figs" | sed 's/186.000/187.000/' > "$t/changed.csv"
out=$(RERUN=$t/changed.csv "$LAB/scripts/regen" "$t/ref" 2>/dev/null); r=$?
is "$r" 1 "one figure changed: exit 1"
like "$out" "getcpu_syscall .*186.000 +187.000  DIFFERS" "the figure that differs, both values"
like "$out" "regen: 1 of 2 figures identical" "1 of 2"
printf '%s\n' "$figs" | head -n 2 > "$t/short.csv"
out=$(RERUN=$t/short.csv "$LAB/scripts/regen" "$t/ref" 2>/dev/null); r=$?
is "$r" 1 "a figure missing from the rerun: exit 1"
like "$out" "rseq_cpu_id .* -  missing" "named missing"

# Bad input: one line each, exit 2.
bad() { # bad DESCRIPTION RUN
	out=$("$LAB/scripts/regen" "$2" 2>&1); r=$?
	ok "$([ "$r" -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; echo $?)" "$1: one line, exit 2 ($out)"
}
bad "no such run" "$t/nope"
meta tcg; bad "a TCG run" "$t/ref"; meta icount
printf 'variant: rseq-y\n' > "$t/ref/lab-boot.info"; bad "a boot without hashes" "$t/ref"
info "$(sha "$BUILD/images/rseq-y.bzImage")" "$(sha "$BUILD/initramfs/lab.cpio")"
rm "$BUILD/images/rseq-y.bzImage"; bad "no image of the variant" "$t/ref"
[ ! -e "$LAB/data/x" ]; ok $? "data/ was never written"
done_testing
