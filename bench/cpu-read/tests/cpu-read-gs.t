#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The gs read: a GS base of our own pointing at the thread's rseq area, read with a %gs: load.
# It must read the pinned CPU on every CPU with its GS base set once (the kernel carries it across
# migrations and context switches: busy competitors on every CPU make each yield a switch), by
# both ways of setting it (wrgsbase where AT_HWCAP2 has FSGSBASE, arch_prctl(ARCH_SET_GS)), with
# glibc's area and with our own; on the host (its kernel) and in an rseq-y guest (6.1).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built"; exit 1; }
t=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$t"; }
trap cleanup EXIT
rows=gs-rseq,gs-rseq-dep,gs-dummy
ncpu=$(nproc)

# What the kernel offers: FSGSBASE for user space is bit 1 of AT_HWCAP2.
hwcap2=$(LD_SHOW_AUXV=1 /bin/true 2>/dev/null | sed -n 's/^AT_HWCAP2: *//p')
if [ -n "$hwcap2" ] && (( hwcap2 & 2 )); then want=wrgsbase; else want='arch_prctl\(ARCH_SET_GS\)'; fi
diag "host kernel $(uname -r): AT_HWCAP2 ${hwcap2:-absent}, so the GS base is set by $want"

# gs_ok WHERE FILE HOW AREA: every gs row passed on all CPUs, set by HOW, in AREA's rseq area.
gs_ok() {
	local out; out=$(cat "$2")
	like "$out" "^ok [0-9]+ - gs-rseq \(glibc rseq [a-z]+\) reads the pinned CPU on each of $5 CPUs, via GS base = $4 rseq area, set by $3\$" \
		"$1: gs-rseq reads the pinned CPU on all $5 CPUs ($4 area, ${3//\\/})"
	like "$out" "^ok [0-9]+ - gs-rseq-dep \(glibc rseq [a-z]+\) reads the pinned CPU on each of $5 CPUs" \
		"$1: gs-rseq-dep too"
	like "$out" "^ok [0-9]+ - gs-dummy \(glibc rseq [a-z]+\) runs pinned on each of $5 CPUs, via GS base = a dummy word, set by $3; no CPU number" \
		"$1: gs-dummy (cost only) runs and says it reads no CPU number"
	is "$(grep -c '^not ok' "$2")" 0 "$1: nothing failed"
}

"$bin" --check --method $rows > "$t/a" 2>&1
gs_ok "host" "$t/a" "$want" "glibc's" "$ncpu"
LAB_GS_ARCH_PRCTL=1 GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" --no-worker --check --method $rows \
	> "$t/b" 2>&1
gs_ok "host, arch_prctl, own area" "$t/b" 'arch_prctl\(ARCH_SET_GS\)' own "$ncpu"

# A busy competitor on every CPU: every yield in the check is now a context switch.
for ((c = 0; c < ncpu; c++)); do
	taskset -c "$c" bash -c 'while :; do :; done' &
	pids+=($!)
done
fails=0
for i in 1 2 3; do
	"$bin" --check --method gs-rseq,gs-rseq-dep > "$t/c" 2>&1 || fails=$((fails + 1))
	LAB_GS_ARCH_PRCTL=1 "$bin" --check --method gs-rseq,gs-rseq-dep > "$t/d" 2>&1 ||
		fails=$((fails + 1))
done
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
pids=()
is "$fails" 0 "host: 6 checks with a busy competitor on every CPU all pass (both ways of setting GS)"

if ! require_image --part rseq-y; then
	skip "no rseq-y kernel image" "rseq-y guest"; done_testing; exit
fi
if [ "$BUILD/initramfs/lab.cpio" -ot "$bin" ]; then
	skip "initramfs older than lab-cpuread (make initramfs)" "rseq-y guest"; done_testing; exit
fi
mkdir -p "$t/g"
OUTDIR=$t/g QUIET=1 CPUS=2 TIMEOUT=${TIMEOUT:-180} "$LAB/scripts/boot" rseq-y -- sh -c "
	(while :; do :; done) & busy=\$!
	lab-cpuread --check --method $rows > /out/a 2>&1
	LAB_GS_ARCH_PRCTL=1 GLIBC_TUNABLES=glibc.pthread.rseq=0 lab-cpuread --no-worker --check \
		--method $rows > /out/b 2>&1
	kill \$busy" > "$t/g.log" 2>&1
ok $? "rseq-y guest: the gs checks ran"
how=$(sed -n 's/.*gs-rseq .*set by \([a-z_]*\).*/\1/p' "$t/g/a" 2>/dev/null)
diag "rseq-y guest (6.1): GS base set by ${how:-?} by default"
like "${how:-}" '^(wrgsbase|arch_prctl)$' "rseq-y guest: a GS base could be set"
gs_ok "rseq-y guest" "$t/g/a" "${how:-none}[^ ]*" "glibc's" 2
gs_ok "rseq-y guest, arch_prctl, own area" "$t/g/b" 'arch_prctl\(ARCH_SET_GS\)' own 2
done_testing
