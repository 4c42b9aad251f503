#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Missing tools: every external command the pipeline's scripts call is either from an essential
# Debian package or in scripts/install-deps' tool list, and a package install-deps installs
# provides each listed tool; a missing one is reported in one line.
. "$(dirname "$0")/tap.sh"
cd "$LAB" || exit 1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
deps=scripts/install-deps
tools=$(sed -n '/^tools=(/,/^)/p' "$deps" | sed '1d;$d' | tr -s ' \t\n' '\n' | sed '/^$/d' | sort -u)
pkgs=$(sed -n '/^pkgs=(/,/^)/p' "$deps" | sed '1d;$d' | sed 's/#.*//; s/\$KVER/'"$KVER"'/' | tr -s ' \t\n' '\n' | sed '/^$/d' | sort -u)
# pkg_of TOOL: the Debian package that provides the tool found on PATH (merged /usr aware).
pkg_of() {
	local p f; p=$(command -v "$1") || return 1
	local r
	for f in "$p" "$(readlink -f "$p")" "/usr${p#/usr}" "${p#/usr}" "/usr/bin/$1" "/bin/$1" "/usr/sbin/$1"; do
		r=$(dpkg -S "$f" 2>/dev/null | head -n 1 | cut -d: -f1 | cut -d, -f1)
		[ -n "$r" ] && { echo "$r"; return 0; }
	done
	return 1
}
# essential PKG: essential or required in Debian, or brought by build-essential (listed).
essential() {
	dpkg-query -W -f='${Essential} ${Priority}' "$1" 2>/dev/null | grep -qE '^yes|required' ||
		[[ $1 =~ ^(gcc|cpp|make|binutils|libc-dev-bin) ]]
}

ok $(scripts/install-deps --check >/dev/null 2>&1; echo $?) "install-deps --check: every listed tool is here"
# A PATH with everything but bc.
mkdir -p "$t/bin"; for f in /usr/bin/* /usr/sbin/*; do [ "${f##*/}" = bc ] || ln -sf "$f" "$t/bin/"; done
err=$(PATH=$t/bin scripts/install-deps --check 2>&1); rc=$?
is "$rc/$(printf '%s\n' "$err" | wc -l)" "1/1" "a missing tool: one line, status 1"
like "$err" '^error: missing tool\(s\): bc .*\(run: make deps\)' "naming the tools and make deps"

# Each listed tool comes from a package install-deps installs (or an essential one).
for tool in $tools; do
	p=$(pkg_of "$tool") || { ok 1 "$tool: not installed here, cannot tell its package"; continue; }
	src=$(dpkg-query -W -f='${source:Package}' "$p" 2>/dev/null)
	ok $(grep -qxE "$p|$src|${p%-*}" <<<"$pkgs" || essential "$p" ||
		# build-essential brings gcc, make and their binutils.
		{ grep -qx build-essential <<<"$pkgs" && [[ $p =~ ^(gcc|cpp|make|binutils) ]]; }; echo $?) \
		"$tool ($p) is installed by install-deps"
done

# The commands the pipeline's scripts call (words in command position), outside essential
# packages, must be in the list. The guest side (busybox) is not the host's business.
scripts=$(grep -lE '^#!.*bash' scripts/* bench/*/run bench/*/parse bench/*/report 2>/dev/null | grep -vx "$deps")
# Shell functions the scripts define are not tools.
funcs=$(sed -nE 's/^[[:space:]]*([a-z][a-z0-9_]*)\(\).*/\1/p' $scripts | sort -u)
# (single-quoted text dropped: awk and sed programs; an assignment or a case label is no command)
words=$(sed -e 's/[[:space:]]#.*//' -e 's/^#.*//' -e "s/'[^']*'//g" -E -e 's/^[[:space:]]*[a-z0-9|*-]+\)//' -e 's/;;[[:space:]]*[a-z0-9|*-]+\)/;;/g' $scripts |
	grep -oE '(^|[|;&({!]|\$\(|\bthen\b|\bdo\b|\belse\b|\btimeout [0-9]+|\bexec)[[:space:]]*[a-z][a-z0-9_+.-]*([^a-z0-9_+.=-]|$)' |
	sed -E 's/[^a-z0-9_+.-]$//' | grep -oE '[a-z][a-z0-9_+.-]*$' | sort -u)
missing=()
for w in $words; do
	[ "$(type -t "$w")" = file ] || continue
	grep -qx "$w" <<<"$tools" && continue
	grep -qx "$w" <<<"$funcs" && continue
	# awk and sh are Debian alternatives, given by the essential mawk and dash.
	case $w in awk|sh) continue ;; esac
	p=$(pkg_of "$w") && essential "$p" && continue
	missing+=("$w(${p:-?})")
done
is "${missing[*]}" "" "every tool the scripts call is essential or in install-deps' list"
done_testing
