# SPDX-License-Identifier: MIT
# Shared helpers for the lab's shell scripts: one-line errors and timed stages.

die() { echo "error: $*" >&2; exit 1; }

# stage NAME CMD...: print a start line and an end line with elapsed seconds.
stage() {
	local name=$1; shift
	local t0=$SECONDS rc=0
	echo ">> $name ..."
	"$@" || rc=$?
	if [ $rc -eq 0 ]; then
		echo ">> $name done in $((SECONDS - t0)) s"
	else
		echo ">> $name FAILED after $((SECONDS - t0)) s" >&2
	fi
	return $rc
}

# The lab's top directory, wherever a script is called from.
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$LAB/build}
KVER=${KVER:-6.1}

# variant_field VARIANT FIELD: print a field ("fragments:", "series:") of kernel/variants/VARIANT.
variant_field() {
	local f=$LAB/kernel/variants/$1
	[ -f "$f" ] || die "unknown variant '$1' (no file kernel/variants/$1)"
	sed -n "s/^$2:[[:space:]]*//p" "$f" | head -n 1
}
