#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ARCH on the host, no guest: a missing cross toolchain or QEMU stops in one line naming the
# Debian package (build-kernel, make's programs, boot); a bad ARCH in one line; each
# architecture's kernel has its own identity (x86_64's unchanged by the others) and its
# fragment verifies; the arch headers pick the right file for each compiler.
. "$(dirname "$0")/../../tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# A PATH with every tool of /usr/bin but the ARM cross compilers and QEMUs.
bin_without "$t/bin" 'aarch64-linux-gnu-*' 'arm-linux-gnueabihf-*' qemu-system-arm qemu-system-aarch64
bare() { env PATH="$t/bin" "$@"; }

for a in arm64:gcc-aarch64-linux-gnu:libc6-dev-arm64-cross arm:gcc-arm-linux-gnueabihf:libc6-dev-armhf-cross; do
	IFS=: read -r arch pkg libc <<< "$a"
	out=$(bare env ARCH=$arch "$LAB/scripts/build-kernel" rseq-y 2>&1); rc=$?
	ok $([ $rc -ne 0 ]; echo $?) "$arch: build-kernel without the cross compiler fails"
	is "$(printf '%s\n' "$out" | wc -l)" 1 "$arch: ... in one line"
	like "$out" "^error: ARCH=$arch: no .*gcc; install $pkg $libc" "$arch: ... naming $pkg and $libc"
	out=$(cd "$LAB" && bare make -s --no-print-directory "$BUILD/guest/$arch/bin/lab-check" \
		-W scripts/guest/lab-check.c 2>&1); rc=$?
	ok $([ $rc -ne 0 ]; echo $?) "$arch: make's cross-built programs fail the same way"
	like "$out" "^error: ARCH=$arch: no .*gcc; install $pkg" "$arch: ... with the same line"
	out=$(bare env ARCH=$arch "$LAB/scripts/boot" rseq-y -- true 2>&1); rc=$?
	like "$out" "^error: (ARCH=$arch: no qemu-system-(aarch64|arm); install qemu-system-arm|no kernel image)" \
		"$arch: boot without QEMU (or kernel) stops in one line first"
done

# fetch-deb (busybox, hackbench and its libraries for the ARM guests): bad input in one line.
out=$("$LAB/scripts/arch/fetch-deb" arm64 'rt-tests;x' 2>&1); rc=$?
is "$rc:$out" "1:error: fetch-deb: 'rt-tests;x' is not a Debian package name" "fetch-deb refuses a bad package name in one line"
out=$("$LAB/scripts/arch/fetch-deb" x86_64 rt-tests 2>&1); rc=$?
is "$rc:$out" "1:error: fetch-deb: x86_64 guests use the host's packages" "fetch-deb refuses x86_64 in one line"

out=$(ARCH=sparc "$LAB/scripts/build-kernel" rseq-y 2>&1); rc=$?
ok $([ $rc -ne 0 ]; echo $?) "ARCH=sparc is refused"
is "$out" "error: ARCH must be x86_64, arm64 or arm, not 'sparc'" "... in one line"

# Identities: one per architecture; x86_64's is ARCH-less (the lab before ARCH existed).
x=$(ARCH=x86_64 "$LAB/scripts/kernel-identity" rseq-y); d=$(env -u ARCH "$LAB/scripts/kernel-identity" rseq-y)
a64=$(ARCH=arm64 "$LAB/scripts/kernel-identity" rseq-y); a32=$(ARCH=arm "$LAB/scripts/kernel-identity" rseq-y)
is "$x" "$d" "x86_64 is the default identity"
like "$a64" ' arch=arm64( |$)' "arm64's identity names its arch"
ok $([ "${x%% *}" != "${a64%% *}" ] && [ "${x%% *}" != "${a32%% *}" ] && [ "${a64%% *}" != "${a32%% *}" ]; echo $?) \
	"three architectures, three store entries"
# The arch fragment is part of the identity: changing it changes arm64's and no other.
mkdir -p "$t/frag"; cp "$LAB"/kernel/fragments/*.config "$t/frag/"
echo "CONFIG_LAB_NOTHING=y" >> "$t/frag/arch-arm64.config"
ok $([ "$(FRAGMENT_DIR=$t/frag ARCH=arm64 "$LAB/scripts/kernel-identity" rseq-y | cut -d' ' -f1)" != "${a64%% *}" ]; echo $?) \
	"editing arch-arm64.config changes arm64's identity"
is "$(FRAGMENT_DIR=$t/frag ARCH=x86_64 "$LAB/scripts/kernel-identity" rseq-y)" "$x" "... and not x86_64's"

# The arch header each compiler sees.
printf '#include <stdio.h>\n#include "lab/arch.h"\nint main(void){puts(LAB_ARCH_NAME);lab_cpu_relax();return lab_has_rdpid() > 1;}\n' > "$t/a.c"
for a in gcc:x86_64 aarch64-linux-gnu-gcc:arm64 arm-linux-gnueabihf-gcc:arm; do
	cc=${a%%:*} want=${a##*:}
	if command -v "$cc" >/dev/null; then
		"$cc" -I"$LAB/lib/include" -E -dM "$t/a.c" 2>/dev/null > "$t/m" && "$cc" -I"$LAB/lib/include" -c -o "$t/a.o" "$t/a.c"
		ok $? "$cc compiles lab/arch.h"
		like "$(grep 'define LAB_ARCH_NAME' "$t/m")" "\"$want\"" "$cc sees the $want file"
	else
		skip "no $cc" "$cc compiles lab/arch.h"; skip "no $cc" "$cc sees the $want file"
	fi
done
done_testing
