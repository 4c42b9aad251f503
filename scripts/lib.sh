# SPDX-License-Identifier: MIT
# Shared helpers for the lab's shell scripts: one-line errors and timed stages.

die() { echo "error: $*" >&2; exit 1; }

# stage NAME CMD...: print a start line and an end line with elapsed seconds.
stage() {
	local _stage=$1; shift
	local _t0=$SECONDS _rc=0
	echo ">> $_stage ..."
	"$@" || _rc=$?
	if [ $_rc -eq 0 ]; then
		echo ">> $_stage done in $((SECONDS - _t0)) s"
	else
		echo ">> $_stage FAILED after $((SECONDS - _t0)) s" >&2
	fi
	return $_rc
}

# The lab's top directory, wherever a script is called from.
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$LAB/build}
# Scripts cd into the kernel tree: a relative BUILD would land inside it.
case $BUILD in /*) ;; *) BUILD=$LAB/$BUILD ;; esac
KVER=${KVER:-6.1}

# Where variants and fragments live (tests point these at temporary ones).
VARIANT_DIR=${VARIANT_DIR:-$LAB/kernel/variants}
FRAGMENT_DIR=${FRAGMENT_DIR:-$LAB/kernel/fragments}

# variant_field VARIANT FIELD: print a field ("fragments:", "series:") of a variant file.
variant_field() {
	local f=$VARIANT_DIR/$1
	[ -f "$f" ] || die "unknown variant '$1' (no file $f)"
	sed -n "s/^$2:[[:space:]]*//p" "$f" | head -n 1
}
