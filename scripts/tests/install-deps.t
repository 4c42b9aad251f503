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
# pkg_of TOOL: the Debian package that provides the tool found on PATH (merged /usr aware),
# as pkgs_of found it.
declare -A PKG_OF=() SRC=() ESS=()
pkg_of() { [ -n "${PKG_OF[$1]:-}" ] && echo "${PKG_OF[$1]}"; }
# pkgs_of TOOL...: PKG_OF for each tool, from one dpkg -S over every candidate path (one dpkg -S
# per path reads the whole file database each time: a second apiece), the package of its first
# candidate that dpkg knows; and of each package, its source (SRC) and whether it is essential
# or required (ESS), from one dpkg-query.
pkgs_of() {
	local n p f e pr line; local -a all=() pk=(); local -A cand=() owner=()
	for n in "$@"; do
		p=$(command -v "$n") || continue
		# The tool's own name before what it links to (the tests' python3 is a link to
		# /usr/bin/python3, package python3-minimal; python3.11, its target, is another's).
		cand[$n]="$p /usr/bin/$n /bin/$n /usr/sbin/$n $(readlink -f "$p") /usr${p#/usr} ${p#/usr}"
		all+=(${cand[$n]})
	done
	while IFS= read -r line; do
		f=${line#*: } p=${line%%:*}
		[ -n "${owner[$f]:-}" ] || owner[$f]=${p%%,*}
	done < <(dpkg -S "${all[@]}" 2>/dev/null)
	for n in "${!cand[@]}"; do
		for f in ${cand[$n]}; do
			[ -n "${owner[$f]:-}" ] && { PKG_OF[$n]=${owner[$f]}; pk+=("${owner[$f]}"); break; }
		done
	done
	while IFS=$'\t' read -r p e pr f; do
		[ -n "${SRC[$p]+x}" ] || SRC[$p]=$f
		[[ $e == yes* || $pr == *required* ]] && ESS[$p]=1
	done < <(dpkg-query -W -f='${Package}\t${Essential}\t${Priority}\t${source:Package}\n' "${pk[@]}" 2>/dev/null)
}
# essential PKG: essential or required in Debian, or brought by build-essential (listed).
essential() {
	[ -n "${ESS[$1]:-}" ] || [[ $1 =~ ^(gcc|cpp|make|binutils|libc-dev-bin) ]]
}

ok $(scripts/install-deps --check >/dev/null 2>&1; echo $?) "install-deps --check: every listed tool is here"
# A PATH with everything but bc.
bin_without "$t/bin" bc
err=$(PATH=$t/bin scripts/install-deps --check 2>&1); rc=$?
is "$rc/$(printf '%s\n' "$err" | wc -l)" "1/1" "a missing tool: one line, status 1"
like "$err" '^error: missing tool\(s\): bc .*\(run: make deps\)' "naming the tools and make deps"

# Each listed tool comes from a package install-deps installs (or an essential one).
pkgs_of $tools
for tool in $tools; do
	p=$(pkg_of "$tool") || { ok 1 "$tool: not installed here, cannot tell its package"; continue; }
	src=${SRC[$p]:-}
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
# is_file WORD: `type -t WORD` says file (no builtin, keyword or function; found on PATH),
# without a subshell per word.
declare -A NOT_FILE=() LISTED=()
for w in $(compgen -b) $(compgen -k); do NOT_FILE[$w]=1; done
for w in $tools $funcs; do LISTED[$w]=1; done
is_file() { [ -z "${NOT_FILE[$1]:-}" ] && ! declare -F "$1" > /dev/null && hash "$1" 2> /dev/null; }
cands=()
for w in $words; do
	is_file "$w" && cands+=("$w")
done
pkgs_of "${cands[@]}"
missing=()
for w in "${cands[@]}"; do
	[ -z "${LISTED[$w]:-}" ] || continue
	# awk and sh are Debian alternatives, given by the essential mawk and dash.
	case $w in awk|sh) continue ;; esac
	p=$(pkg_of "$w") && essential "$p" && continue
	missing+=("$w(${p:-?})")
done
is "${missing[*]}" "" "every tool the scripts call is essential or in install-deps' list"
done_testing
