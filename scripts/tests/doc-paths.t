#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The documentation names only what exists: every repository path, test file and make target
# that README.md, docs/*.md, bench/*/*.md and scripts/README.md name (scripts/tests/doc-refs
# finds them) is there: the file or folder (a glob matches something), the test under some
# tests/ folder, the target a rule of the Makefiles. A placeholder (an UPPERCASE word, <x>)
# passes when nothing of that name exists.
. "$(dirname "$0")/tap.sh"
refs=$("$LAB/scripts/tests/doc-refs" "$LAB"); ok $? "doc-refs runs"
# The scanner itself: one reference of each kind it must see.
like "$(grep -c "^path	" <<< "$refs")" '^[1-9]' "doc-refs finds repository paths"
like "$(grep -c "^target	" <<< "$refs")" '^[1-9]' "doc-refs finds make targets"

# Names of the kernel tree, not of this repository, that the documentation names as such.
KERNEL_PATHS=" scripts/kconfig/merge_config.sh scripts/checkpatch.pl "
KERNEL_TARGETS=" tinyconfig olddefconfig defconfig "

# Every target make knows (its database; help needs no kernel identity).
db=$(make -pq -C "$LAB" --no-print-directory help 2>/dev/null |
	sed -n 's/^\([^#%[:space:]:][^:=]*\):\([^=].*\)\{0,1\}$/\1/p' | sort -u)
like "$(grep -cx 'check' <<< "$db")" '^1$' "make's database lists its targets (check among them)"
tests=$(cd "$LAB" && find . -path ./build -prune -o -path '*/tests/*.t' -print | sed 's|.*/||' | sort -u)

placeholder() { [[ $1 =~ \<[^\>]*\> ]] || [[ $1 =~ (^|[/._-])[A-Z][A-Z0-9_]*([/._-]|$) ]]; }
declare -A where
while IFS=$'\t' read -r kind ref at; do
	[ "$kind" = new ] && continue
	where[$kind $ref]="${where[$kind $ref]:+${where[$kind $ref]} }$at"
done <<< "$refs"
while IFS= read -r key; do
	kind=${key%% *} ref=${key#* } r=1
	case $kind in
	path) compgen -G "$LAB/$ref" >/dev/null && r=0
		[[ $KERNEL_PATHS == *" $ref "* ]] && r=0 ;;
	test) while read -r t; do [[ $t == $ref ]] && r=0; done <<< "$tests" ;;  # a glob: *-exact.t
	target) { grep -qxF "$ref" <<< "$db" || grep -qxF "$LAB/$ref" <<< "$db"; } && r=0
		[[ $KERNEL_TARGETS == *" $ref "* ]] && r=0 ;;
	esac
	[ $r -eq 0 ] || ! placeholder "$ref" || r=0
	ok $r "$kind $ref exists (${where[$key]})"
done < <(printf '%s\n' "${!where[@]}" | sort)
done_testing
