# SPDX-License-Identifier: MIT
# Shared helpers for the lab's shell scripts: one-line errors and timed stages.

die() { echo "error: $*" >&2; exit 1; }

# at_exit CMD: run CMD when the script exits, the latest registered first, each with the
# script's exit status in $?. One EXIT trap for all: a library's cleanup (a run's folder, its
# boots) and the script's own (its temporary files) would otherwise replace each other, and the
# first one set would never run. A hook may exit N to change the status (register it first).
LAB_AT_EXIT=()
at_exit() {
	local c
	for c in "${LAB_AT_EXIT[@]}"; do [ "$c" != "$1" ] || { trap _lab_at_exit EXIT; return; }; done
	LAB_AT_EXIT=("$1" "${LAB_AT_EXIT[@]}")
	trap _lab_at_exit EXIT
}
_lab_at_exit() {
	local rc=$? c
	set +e # the script is ending: every hook runs, whatever the one before it returned
	for c in "${LAB_AT_EXIT[@]}"; do
		_lab_return "$rc"; eval "$c"
	done
}
_lab_return() { return "$1"; }

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
# (BASH_SOURCE has a slash: the scripts source it by a path.)
LAB=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)
BUILD=${BUILD:-$LAB/build}
# Scripts cd into the kernel tree: a relative BUILD would land inside it.
case $BUILD in /*) ;; *) BUILD=$LAB/$BUILD ;; esac
KVER=${KVER:-6.1}

# The kernel store: built images by identity, outside the clone as ccache's cache is, so that
# a second clone (CI's, on a machine that ran make test) selects what any clone built.
STORE=${LAB_STORE:-${XDG_CACHE_HOME:-~/.cache}/rseq-lab/kernels}
case $STORE in /*) ;; *) STORE=$LAB/$STORE ;; esac

# Where variants and fragments live (tests point these at temporary ones).
VARIANT_DIR=${VARIANT_DIR:-$LAB/kernel/variants}
FRAGMENT_DIR=${FRAGMENT_DIR:-$LAB/kernel/fragments}

# Make parses the Makefile for every goal and kernel-identity reads every variant then: the
# read_* helpers set a variable in bash alone (no subshell, no sed), and the printing forms
# are built on them.

# read_variant_field VAR VARIANT FIELD: set VAR to a field ("fragments:", "series:") of a
# variant file (empty when it has none).
read_variant_field() {
	local -n _rvf=$1
	local _rvf_file=$VARIANT_DIR/$2 _rvf_line
	[ -f "$_rvf_file" ] || die "unknown variant '$2' (no file $_rvf_file)"
	_rvf=
	while IFS= read -r _rvf_line || [ -n "$_rvf_line" ]; do
		case $_rvf_line in
		"$3:"*) _rvf_line=${_rvf_line#"$3:"}; _rvf=${_rvf_line#"${_rvf_line%%[![:space:]]*}"}; return 0 ;;
		esac
	done < "$_rvf_file"
}
# variant_field VARIANT FIELD: print it.
variant_field() {
	local v
	read_variant_field v "$1" "$2" || return
	[ -z "$v" ] || echo "$v"
}

# read_series_patches ARRAY DIR: set ARRAY to the patch file names a quilt "series" file in
# DIR lists, in order (comments, blank lines and patch options dropped).
read_series_patches() {
	local -n _rsp=$1
	local _rsp_line _rsp_words
	_rsp=()
	while IFS= read -r _rsp_line || [ -n "$_rsp_line" ]; do
		read -ra _rsp_words <<< "${_rsp_line%%#*}"
		[ ${#_rsp_words[@]} -eq 0 ] || _rsp+=("${_rsp_words[0]}")
	done < "$2/series"
}
# series_patches DIR: print them, one a line.
series_patches() {
	local p
	[ -f "$1/series" ] || { echo "series_patches: no file $1/series" >&2; return 1; }
	read_series_patches p "$1"
	[ ${#p[@]} -eq 0 ] || printf '%s\n' "${p[@]}"
}

# read_series_dir VAR SERIES: set VAR to the directory of a series named in a variant: a path
# as it is; a name under kernel/patches/ (PATCH_DIR), as NAME-$KVER when that directory exists
# (the series ported to that kernel: rseq-stats-6.12), else NAME. patch-tree, variant-deps and
# kernel-identity all resolve a series here, so they always agree on which one is built.
read_series_dir() {
	local -n _rsd=$1
	local _rsd_top=${PATCH_DIR:-$LAB/kernel/patches}
	case $2 in
	*/*) _rsd=$2 ;;
	*) if [ -d "$_rsd_top/$2-$KVER" ]; then _rsd=$_rsd_top/$2-$KVER; else _rsd=$_rsd_top/$2; fi ;;
	esac
}
# series_dir SERIES: print it.
series_dir() { local d; read_series_dir d "$1"; echo "$d"; }

# read_kv VAR FILE KEY: VAR = the value of the first "KEY: value" line of FILE (.info and
# .meta files), empty when there is none. Read by bash itself: the tests call it thousands
# of times.
read_kv() {
	local -n _rkv=$1
	local _rkv_line
	_rkv=
	[ -f "$2" ] || return 0
	while IFS= read -r _rkv_line || [ -n "$_rkv_line" ]; do
		case $_rkv_line in "$3: "*) _rkv=${_rkv_line#"$3: "}; return 0 ;; esac
	done < "$2"
}
# kv FILE KEY: print it.
kv() { local v; read_kv v "$1" "$2"; [ -z "$v" ] || printf '%s\n' "$v"; }

# The image functions read build/images/VARIANT.*, or with scripts/arch/load sourced, the
# selected architecture's ($ARCH_IMAGES, $ARCH_IMG; x86_64's are the same as without).
# image_kernels_hint VARIANT: the make command that builds the variant's kernel.
image_kernels_hint() {
	case ${ARCH:-x86_64} in
	x86_64) echo "make kernels VARIANTS=$1" ;;
	*) echo "make arch-kernels ARCHES=$ARCH ARM_VARIANTS=$1" ;;
	esac
}

# image_field VARIANT FIELD: a field of build/images/VARIANT.info (what build-kernel recorded).
image_field() {
	local info=${ARCH_IMAGES:-$BUILD/images}/$1.info
	[ -f "$info" ] || die "no kernel for '$1' ($info); run: $(image_kernels_hint "$1")"
	kv "$info" "$2"
}

# image_rseq VARIANT: "y" when the variant's kernel has CONFIG_RSEQ=y, else "n".
image_rseq() {
	if grep -q '^CONFIG_RSEQ=y' "${ARCH_IMAGES:-$BUILD/images}/$1.config" 2>/dev/null; then
		echo y
	else
		echo n
	fi
}

# need_image VARIANT: stop with the make target that builds it when its kernel is missing.
need_image() {
	[ -f "${ARCH_IMAGES:-$BUILD/images}/$1.${ARCH_IMG:-bzImage}" ] ||
		die "no kernel for '$1' (run: $(image_kernels_hint "$1"))"
}

# --- The accelerator policy: the one place that names the accelerators, checks ACCEL, CPUS and
# MEM, and gives the defaults that follow from the accelerator. Everything that boots or picks
# bench defaults calls accel_select (or accel_apply) first.

# accel_names: the accelerators of scripts/accels, one line each; accel_field NAME COLUMN:
# one of its columns (2: its default vCPUs).
accel_names() { sed -n 's/^\([a-z0-9_]\{1,\}\)[[:space:]].*/\1/p' "$LAB/scripts/accels"; }
accel_field() { awk -v a="$1" -v c="$2" '$1 == a { print $c }' "$LAB/scripts/accels"; }
# accel_list [SEP]: the names, joined for a message ("kvm, tcg or icount").
accel_list() { accel_names | awk '{ a[NR] = $0 } END { for (i = 1; i <= NR; i++)
	printf "%s%s", a[i], i == NR ? "" : i == NR - 1 ? " or " : ", " }'; }

# accel_check: stop in one line on an ACCEL, CPUS or MEM that cannot work, before any use.
accel_check() {
	[ "${ACCEL:-auto}" = auto ] || accel_names | grep -qx -- "$ACCEL" ||
		die "ACCEL must be auto, $(accel_list), not '$ACCEL'"
	[ -z "${CPUS+set}" ] || case $CPUS in
		''|*[!0-9]*|0*) die "CPUS must be a positive number, not '$CPUS'" ;;
	esac
	[ -z "${MEM+set}" ] || [[ $MEM =~ ^[1-9][0-9]*[KMG]?$ ]] ||
		die "MEM must be a size such as 512M or 1G, not '$MEM'"
	case ${TCG_THREAD:-multi} in
	multi|single) ;;
	*) die "TCG_THREAD must be multi or single, not '$TCG_THREAD'" ;;
	esac
}

# accel_apply ACCEL: take a resolved accelerator and its defaults, exported: CPUS its line's in
# scripts/accels (1 under icount: it runs the vCPUs one after the other; here a 2-vCPU icount
# guest did not reach init within 300 s); MEM 512M.
accel_apply() {
	ACCEL=$1
	accel_names | grep -qx -- "$ACCEL" || die "ACCEL must be $(accel_list) here, not '$ACCEL'"
	accel_check
	CPUS=${CPUS:-$(accel_field "$ACCEL" 2)}
	MEM=${MEM:-512M}
	export ACCEL CPUS MEM
}

# accel_resolve VARIANT [FALLBACK]: $ACCEL, or for "auto" (the default) kvm when a trial boot
# of VARIANT works there, else FALLBACK (tcg; icount where exact counts are wanted).
accel_resolve() {
	local a=${ACCEL:-auto}
	accel_check
	if [ "$a" = auto ]; then
		a=$("$LAB/scripts/kvm-probe" "$1")
		[ "$a" = tcg ] && a=${2:-tcg}
	fi
	echo "$a"
}

# accel_select VARIANT [FALLBACK]: accel_resolve, then accel_apply (ACCEL, CPUS, MEM exported).
accel_select() {
	local a
	a=$(accel_resolve "$@") || exit 1
	accel_apply "$a"
}

# accel_args BENCH: the bench's default options under $ACCEL, from its meta's
# "defaults: ACCEL OPTION..." lines (none for an accelerator it has no line for).
accel_args() {
	local a rest
	while read -r a rest; do
		[ "$a" = "${ACCEL:-none}" ] && echo "$rest"
	done < <(sed -n 's/^defaults:[[:space:]]*//p' "$LAB/bench/$1/meta")
	return 0
}

# bench_params BENCH: "param NAME: value" for each parameter bench/BENCH/meta declares, with
# the value in force (environment, else the declared default): the run's metadata.
bench_params() {
	local name def rest
	while read -r name def rest; do
		echo "param $name: ${!name:-$def}"
	done < <(sed -n 's/^param:[[:space:]]*//p' "$LAB/bench/$1/meta")
}

# --- Failing early and loudly ---------------------------------------------------------

# check_path NAME PATH: stop in one line when PATH has a space or a comma. Kbuild (make O=, its
# $(call) lists), our cpio lists and the variant files split on them, so such a path fails late
# and obscurely; here it fails first.
check_path() {
	case $2 in
	*[[:space:],]*) die "$1 '$2' contains a space or a comma; use a path without them" ;;
	esac
}

# need_tools TOOL...: stop with one line naming the missing tools and `make deps`.
need_tools() {
	local t missing=()
	for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
	[ ${#missing[@]} -eq 0 ] || die "missing tool(s): ${missing[*]} (run: make deps)"
}

# lab_lock [NAME]: hold build/.NAME.lock (default kernel-build, the lock scripts/build-kernel
# takes on fd 9) until the script exits. A script started under scripts/build-kernel inherits
# fd 9 on that file, already locked by the same open file: flock on it returns at once instead
# of deadlocking.
lab_lock() {
	local f=$BUILD/.${1:-kernel-build}.lock
	mkdir -p "$BUILD"
	[ /proc/self/fd/9 -ef "$f" ] || exec 9>"$f"
	flock 9
}

# lab_status NAME: the exit status named NAME in scripts/statuses (good, bad, skip, no-verdict,
# refused, failed); an unknown name is the lab's own error, so it reads as no verdict.
lab_status() {
	local c st n _
	while read -r c st n _; do
		[ "${c:0:1}" != "#" ] && [ "$n" = "$1" ] && { echo "$st"; return; }
	done < "$LAB/scripts/statuses"
	echo "error: no exit status named '$1' in scripts/statuses" >&2; echo 128
}

# watch_progress PID LABEL UNIT EXPECTED COUNTER...: until PID exits, the count COUNTER prints
# (UNITs done so far) against EXPECTED (empty when not known), the time elapsed and an estimate
# of the time left: one line rewritten in place when stdout is a terminal, else a line every
# LAB_PROGRESS_EVERY seconds (60; a log, CI). Returns when PID is gone; the caller waits for it.
watch_progress() {
	local pid=$1 label=$2 unit=$3 want=$4 t0=$SECONDS every=${LAB_PROGRESS_EVERY:-60}
	local next n el left pre= post=$'\n'
	shift 4
	[ -t 1 ] && { pre=$'\r\033[K' post= every=1; }
	next=$every
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		el=$((SECONDS - t0))
		[ "$el" -ge "$next" ] || continue
		next=$((el + every))
		n=$("$@" 2>/dev/null) || n=0
		left=
		if [ -n "$want" ] && [ "$n" -ge 20 ] && [ "$want" -gt "$n" ]; then
			left=$((el * (want - n) / n)); left=$(printf ', ~%d:%02d left' $((left / 60)) $((left % 60)))
		fi
		printf '%s>> %s: %s%s %s, %d:%02d elapsed%s%s' "$pre" "$label" "$n" "${want:+ of ~$want}" \
			"$unit" $((el / 60)) $((el % 60)) "$left" "$post"
	done
	[ -z "$pre" ] || printf '%s' "$pre"
}

# console_crash LOG: print the first kernel line of a guest console log that reports a crash
# (panic, BUG, oops, WARNING, soft lockup, RCU stall, hung task), nothing if none. Only kernel
# lines count: they start with printk's "[    1.234567] " timestamp (CONFIG_PRINTK_TIME, base
# fragment), while the guest's init puts "| " before every line of the command's output, so a
# program printing "BUG:" is not a crash.
console_crash() {
	tr -d '\r' < "$1" 2>/dev/null | grep -m1 -E \
		'^\[ *[0-9]+\.[0-9]+\] ([A-Za-z0-9_.-]+: )?(Kernel panic|BUG:|kernel BUG at|Oops|general protection fault|WARNING:|INFO: task .* blocked for more than|INFO: rcu_[a-z]+ (self-)?detected stall)' |
		sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' || true
}

# Every script stops early on a lab or build directory it cannot work in.
check_path "lab directory" "$LAB"
check_path BUILD "$BUILD"
