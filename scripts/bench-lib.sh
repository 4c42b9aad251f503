# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers for the bench-* scripts: where results go, and how a run directory appears whole.
. "${BASH_SOURCE[0]%/*}/lib.sh"
# shellcheck disable=SC2034 # lava/bundle takes the binaries from here
CPUREAD=$BUILD/guest/bin/lab-cpuread
# shellcheck disable=SC2034
PERCPU=$BUILD/guest/bin/lab-percpu
# The command every bench boots a guest with (scripts/boot VARIANT [-- COMMAND]). LAB_BOOT is
# a test-only seam: compare's known-answer tests put a fake emulator there
# (scripts/tests/fixtures/compare/fake-boot); never set it for real numbers.
LAB_BOOT=${LAB_BOOT:-$LAB/scripts/boot}

# bench_key BENCH KEY: the first "KEY: value" of bench/BENCH/meta ("" when none).
bench_key() {
	[ -f "$LAB/bench/$1/meta" ] || die "no bench '$1' (no bench/$1/meta)"
	kv "$LAB/bench/$1/meta" "$2"
}

# bench_prog NAME: the path of a bench's program: a static one (build/guest/bin, the host's and
# the guests'), else a host-only one (build/host/bin); one line and stop when neither is built.
bench_prog() {
	local p
	for p in "$BUILD/guest/bin/$1" "$BUILD/host/bin/$1"; do
		[ -x "$p" ] && { echo "$p"; return; }
	done
	die "no $BUILD/guest/bin/$1 (run: make $BUILD/guest/bin/$1)"
}

# A bench whose meta has "host-session: SCRIPT" runs its host processes inside a session the
# script (in the bench's folder) starts and stops: SCRIPT start prints the session's folder,
# SCRIPT count FOLDER PROGRAM checks the program in it, SCRIPT exec FOLDER OUT CMD... runs one
# process ("@OUT@" in CMD a folder of the session's, moved to OUT), SCRIPT stop FOLDER ends
# it and prints the lines for the bench's meta. SESSIONS: "BENCH FOLDER" of those started.
SESSIONS=()
# session_start BENCH PROGRAM: BENCH's session started and its program checked in it.
session_start() {
	local script home
	script=$LAB/bench/$1/$(bench_key "$1" host-session)
	home=$("$script" start) || exit "$(lab_status failed)"
	SESSIONS+=("$1 $home")
	"$script" count "$home" "$2" || exit "$(lab_status failed)"
}
# session_of BENCH: the folder of BENCH's session ("" without one).
session_of() {
	local x
	for x in "${SESSIONS[@]}"; do [ "${x%% *}" != "$1" ] || { echo "${x#* }"; return; }; done
}
# sessions_stop [BENCH]: BENCH's session (every one without BENCH) stopped, what its script
# prints for the meta on stdout; nothing left running, even on an error or an interrupt.
sessions_stop() {
	local x rest=()
	for x in "${SESSIONS[@]}"; do
		if [ -z "${1:-}" ] || [ "${x%% *}" = "$1" ]; then
			"$LAB/bench/${x%% *}/$(bench_key "${x%% *}" host-session)" stop "${x#* }" || true
		else
			rest+=("$x")
		fi
	done
	SESSIONS=("${rest[@]}")
}

# need_guest_bench BENCH: stop in one line unless BENCH's meta has a guest: command.
need_guest_bench() {
	local m=$LAB/bench/$1/meta b list=()
	[ -f "$m" ] && [ -n "$(kv "$m" guest)" ] && return 0
	for m in "$LAB"/bench/*/meta; do
		[ -n "$(kv "$m" guest)" ] && b=${m%/meta} && list+=("${b##*/}")
	done
	die "no bench '$1' with a guest: command (there are: ${list[*]})"
}

# bench_csv BENCH: the bench's CSV, the file of its meta's first "result:" line.
bench_csv() {
	local r
	r=$(bench_key "$1" result)
	[ -n "$r" ] || die "bench/$1/meta has no result: line"
	echo "${r%% *}"
}
# bench_csvs BENCH: every CSV its meta's "result:" lines name, in their order, once each.
bench_csvs() { sed -n 's/^result: \([^ ]*\).*/\1/p' "$LAB/bench/$1/meta" | awk '!seen[$0]++'; }
# bench_meta BENCH: the file a run of the bench records itself in (BENCH.meta).
bench_meta() { echo "$1.meta"; }

# bench_args BENCH N OPTION...: the options BENCH runs with when N benches share OPTION...:
# its "defaults:" under $ACCEL (guests), the words of the variable its "options:" line names,
# then OPTION... (only those its "shared-options:" line names when N > 1).
bench_args() {
	local b=$1 n=$2 var shared out=()
	shift 2
	[ "${ACCEL:-none}" = none ] || read -r -a out <<< "$(accel_args "$b")"
	var=$(bench_key "$b" options)
	# shellcheck disable=SC2206 # the variable is a word list by design
	[ -z "$var" ] || out+=(${!var:-})
	shared=$(bench_key "$b" shared-options)
	while [ $# -gt 0 ]; do
		if [ "$n" -le 1 ] || [ -z "$shared" ]; then
			out+=("$1")
		else
			case " $shared " in *" $1 "*) out+=("$1" "${2:-}"); shift ;; esac
		fi
		shift
	done
	echo "${out[*]}"
}

# The header of every figures.csv (the long format every consumer reads).
FIGURES_HEADER=bench,figure,side,accel,unit,boot,rep,value

# run_figures DIR BENCH...: DIR/figures.csv from each bench's parse (one header). A parse that
# fails leaves the run without figures.csv and says so; the bench's own data stays.
run_figures() {
	local dir=$1 b out
	shift
	out=$(for b in "$@"; do "$LAB/bench/$b/parse" "$dir" || exit 1; done) ||
		{ echo "warning: no figures.csv in this run (a parse failed)" >&2; return 0; }
	{
		echo "$FIGURES_HEADER"
		printf '%s\n' "$out" | grep -vxF "$FIGURES_HEADER" || true
	} > "$dir/.figures.csv.tmp"
	mv "$dir/.figures.csv.tmp" "$dir/figures.csv"
}

# csv_split COLUMNS: CSV rows without a header on stdin (a parse step's output) read through
# scripts/csv, COLUMNS (comma-separated) naming them; each row's fields come out separated by
# \037, which `IFS=$'\037' read -r` splits keeping empty fields (a tab IFS would merge them).
csv_split() {
	{ echo "$1"; cat; } | "$LAB/scripts/csv" /dev/stdin ${1//,/ } | tr '\t' '\037'
}

# DATA: the results directory (tests point it elsewhere).
DATA=${DATA:-$LAB/data} PLOTS=${PLOTS:-$LAB/plots}

# lab_commit [DIR]: the lab's git commit (DIR: the lab by default), "unknown" outside git.
lab_commit() {
	git -C "${1:-$LAB}" rev-parse HEAD 2>/dev/null || echo unknown
}

# lab_dirty [DIR]: "yes" when the lab's own files differ from that commit (changed, staged or
# untracked), "no" when they do not, "unknown" outside git. data/ and plots/ are the lab's
# output, not its sources: a new run there does not make the next one "dirty".
lab_dirty() {
	local s
	s=$(git -C "${1:-$LAB}" status --porcelain -- . ':(exclude)data' ':(exclude)plots' 2>/dev/null) ||
		{ echo unknown; return; }
	if [ -n "$s" ]; then echo yes; else echo no; fi
}

# lab_provenance: the lab's commit and whether it was dirty (the start of lab_run_meta).
lab_provenance() {
	echo "lab_commit: $(lab_commit)"
	echo "lab_dirty: $(lab_dirty)"
}

# lab_host_identity: the lab's provenance and the host's identity, as every run's record and
# every compare block carry them (one writer: lab_run_meta, compare, strategy-compare).
lab_host_identity() {
	lab_provenance
	echo "lab_describe: $(git -C "$LAB" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "host: $(uname -n)"
	echo "host_cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "host_microcode: $(sed -n 's/^microcode[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | grep . || echo unknown)"
	echo "host_kernel: $(uname -r)"
	echo "host_cpus: $(nproc)"
}

# host_config_line: the running kernel's configuration, as a host run's meta records it.
host_config_line() {
	local config=/boot/config-$(uname -r)
	if [ -r "$config" ]; then
		echo "kernel_config_sha256: $(sha256sum < "$config" | cut -d' ' -f1)"
	elif [ -r /proc/config.gz ]; then
		echo "kernel_config_sha256: $(zcat /proc/config.gz | sha256sum | cut -d' ' -f1)"
	else
		echo "kernel_config_sha256: unknown (no $config or /proc/config.gz)"
	fi
}

# The keys lab_run_meta writes: one value each, from this one function.
LAB_RUN_KEYS="lab_commit lab_describe lab_dirty host host_cpu host_microcode host_kernel host_cpus
compiler glibc qemu accel vcpus mem guest_cpu kernel_release image_sha256 initramfs_sha256 variant
command"

# lab_run_meta META VARIANT INFO COMMAND...: put the record every run carries (provenance, host
# identity, toolchain, accelerator, guest, kernel, command) at the top of META; lines of META
# with one of these keys (a program's own "compiler:", "accel:") give way to it. INFO is the
# boot's lab-boot.info for a guest run, "-" for a run on the host.
lab_run_meta() {
	local meta=$1 variant=$2 info=$3 tmp
	shift 3
	local accel=none vcpus=none mem=none qemu=none guest_cpu=host release image=none initramfs=none
	release=$(uname -r)
	if [ "$info" != - ]; then
		[ -f "$info" ] || die "lab_run_meta: no boot record $info"
		accel=$(kv "$info" accel) vcpus=$(kv "$info" cpus) mem=$(kv "$info" mem)
		qemu=$(kv "$info" qemu) release=$(kv "$info" kernel_release)
		guest_cpu=$(kv "$info" guest_cpu)
		image=$(kv "$info" image_sha256) initramfs=$(kv "$info" initramfs_sha256)
	fi
	tmp=$meta.tmp
	# what does not change within one script: taken once (a compare writes one meta a process)
	[ -n "${_lab_meta_fixed:-}" ] || _lab_meta_fixed=$(
		lab_host_identity
		echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1 | grep . || echo unknown)"
		echo "glibc: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)")
	{
		echo "$_lab_meta_fixed"
		echo "qemu: ${qemu:-unknown}"
		echo "accel: ${accel:-unknown}"
		echo "vcpus: ${vcpus:-unknown}"
		echo "mem: ${mem:-unknown}"
		echo "guest_cpu: ${guest_cpu:-unknown}"
		echo "kernel_release: ${release:-unknown}"
		echo "image_sha256: ${image:-unknown}"
		echo "initramfs_sha256: ${initramfs:-unknown}"
		echo "variant: $variant"
		echo "command: $*"
		if [ -f "$meta" ]; then
			grep -v -E "^($(echo $LAB_RUN_KEYS | tr ' ' '|')): " "$meta" || true
		fi
	} > "$tmp"
	mv "$tmp" "$meta"
}

# run_figures_found DIR: run_figures for every bench whose CSV DIR holds (the file of its first
# result: line; benches whose parse exists and whose meta declares figure: lines).
run_figures_found() {
	local m b benches=()
	for m in "$LAB"/bench/*/meta; do
		b=${m%/meta} b=${b##*/}
		[ -x "$LAB/bench/$b/parse" ] && grep -q '^figure:' "$m" || continue
		[ -f "$1/$(bench_csv "$b")" ] && benches+=("$b")
	done
	[ ${#benches[@]} -eq 0 ] || run_figures "$1" "${benches[@]}"
}

# interleave N JOBS NCOLS FN: the one order in which a bench runs its units: round 1..N,
# in each round every column 1..NCOLS (A B A B ...), so a drift of the machine falls on
# every side alike, with JOBS calls of `FN ROUND COL` at once (instruction counts under
# icount do not depend on host load; times do: 1). Each call's status goes to
# $RUN_TMP/.interleave/ROUND-COL (interleave_ok reads it; run_dir_finish removes it); the
# order started, to $RUN_TMP/order. A call that fails does not stop the others (the bench
# decides), but with "stop" no call starts after one has failed (interleave_failed names it):
# a dead guest is not followed by four more boots.
interleave() {
	local n=$1 jobs=$2 ncols=$3 fn=$4 stop=${5:-} round i
	mkdir -p "$RUN_TMP/.interleave"
	: > "$RUN_TMP/order"
	for round in $(seq 1 "$n"); do
		for i in $(seq 1 "$ncols"); do
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
			[ -z "$stop" ] || ! interleave_failed > /dev/null || break 2
			echo "$round $i" >> "$RUN_TMP/order"
			# the status appears whole (written, then renamed): interleave_failed, reading
			# while it is written, took an empty file for a failure and stopped starting boots,
			# and the run went on with fewer units than asked
			{ local rc=0 st=$RUN_TMP/.interleave/$round-$i; "$fn" "$round" "$i" || rc=$?
				echo "$rc" > "$st.tmp" && mv "$st.tmp" "$st"; } &
		done
	done
	wait
}

# interleave_ok ROUND COL: whether interleave's call for that round and column succeeded.
interleave_ok() { [ "$(cat "$RUN_TMP/.interleave/$1-$2" 2>/dev/null)" = 0 ]; }
# interleave_failed: "ROUND COL" of the first call, in the order started, that has failed.
interleave_failed() {
	local round i st
	while read -r round i; do
		st=$(cat "$RUN_TMP/.interleave/$round-$i" 2>/dev/null) || continue
		[ "$st" = 0 ] || { echo "$round $i"; return 0; }
	done < "$RUN_TMP/order"
	return 1
}

# host_procs: the benches named in the array benches, each a fresh process HOST_PROCS times
# (5), in turn (A B A B ...), the command of bench I in cmds[I-1] with @OUT@ for its
# process's folder $RUN_TMP/procs/NN/ (its output in BENCH.log there). A process that fails
# ends the run with its own words and status; else each bench's CSV in $RUN_TMP is the
# processes' merged (scripts/procs-merge: the median process's rows, the range between
# processes) and its meta the first process's, saying so.
host_procs() {
	local b
	host_procs_only _host_proc
	for b in "${benches[@]}"; do
		echo ">> host: $b, $HOST_PROCS processes in turn with the other benches; the first one's output:" >&2
		cat "$RUN_TMP/procs/01/$b.log"
	done
	_merge_units procs "host_units: $HOST_PROCS processes, started in turn with the other benches; each row the median process's, ns_min and ns_max the fastest and slowest process, ns_reps one figure per process, request quantiles the median process's with the range between processes (procs/ has each)" \
		"HOST_PROCS: $HOST_PROCS"
}

# host_procs_only FN: host_procs's processes without the merge (a bench whose rows are not
# the harness's): `FN ROUND I` HOST_PROCS times for each bench I of the array benches, in
# turn, FN running it as fresh processes in $RUN_TMP/procs/NN/ with their words in BENCH.log
# there. One that fails ends the run with its own words and status, nothing written.
host_procs_only() {
	local i round
	HOST_PROCS=${HOST_PROCS:-5}
	case $HOST_PROCS in ''|*[!0-9]*|0) die "HOST_PROCS must be a positive number, not '$HOST_PROCS'" ;; esac
	interleave "$HOST_PROCS" 1 ${#benches[@]} "$1" stop
	if read -r round i < <(interleave_failed); then
		# the program's own words (a usage error: one line), its status, nothing written
		cat "$RUN_TMP/procs/$(printf '%02d' "$round")/${benches[i - 1]}.log" >&2
		exit "$(cat "$RUN_TMP/.interleave/$round-$i")"
	fi
}

# guest_boots VARIANT COMMAND: the benches named in the array benches, run by COMMAND (sh -c,
# in the guest; /out its output) in GUEST_BOOTS boots of VARIANT (5), each with a seed of its
# own (BOOT_SEED: GUEST_SEED0 + k), two at once under icount (whose counts do not depend on
# host load), into $RUN_TMP/boots/NN/. A boot that fails ends the run; else each bench's CSV
# in $RUN_TMP is the boots' merged (scripts/procs-merge: the median boot's rows, the range
# between boots), its meta the first boot's, saying so, and $RUN_TMP/lab-boot.info the first
# boot's record.
guest_boots() {
	guest_boots_only "$@"
	cp "$RUN_TMP/boots/01/lab-boot.info" "$RUN_TMP/lab-boot.info"
	_merge_units boots "guest_units: $GUEST_BOOTS boots, each with its own seed (BOOT_SEED $((GUEST_SEED0 + 1)) to $((GUEST_SEED0 + GUEST_BOOTS))); each row the median boot's, ns_min and ns_max the lowest and highest boot, ns_reps one figure per boot (boots/ has each)" \
		"GUEST_BOOTS: $GUEST_BOOTS" "GUEST_SEED0: $GUEST_SEED0"
}

# guest_boots_only VARIANT COMMAND [SUB]: guest_boots's boots without the merge (a bench whose
# rows are not the harness's): $RUN_TMP/SUB/NN/ each (SUB: boots), a boot that fails ends the
# run.
guest_boots_only() {
	local k jobs=1
	GUEST_BOOTS=${GUEST_BOOTS:-5} GUEST_SEED0=${GUEST_SEED0:-0}
	case $GUEST_BOOTS in ''|*[!0-9]*|0) die "GUEST_BOOTS must be a positive number, not '$GUEST_BOOTS'" ;; esac
	case $GUEST_SEED0 in ''|*[!0-9]*) die "GUEST_SEED0 must be a number, not '$GUEST_SEED0'" ;; esac
	[ "$ACCEL" != icount ] || jobs=2
	_GUEST_VARIANT=$1 _GUEST_CMD=$2 _GUEST_SUB=${3:-boots}
	interleave "$GUEST_BOOTS" "$jobs" 1 _guest_boot stop
	if read -r k _ < <(interleave_failed); then
		sed 's/^/  /' "$RUN_TMP/$_GUEST_SUB/$(printf '%02d' "$k").log" >&2
		die "$1, boot $k: the guest run failed (see $RUN_TMP/$_GUEST_SUB/$(printf '%02d' "$k")/lab-output); nothing written"
	fi
	# every boot asked for, or no run: a run never goes on with fewer units than it says
	k=$(wc -l < "$RUN_TMP/order")
	[ "$k" = "$GUEST_BOOTS" ] || die "$1: $k of $GUEST_BOOTS boots started; nothing written"
}

# _merge_units SUB LINE PARAM...: each bench's CSV in $RUN_TMP from its units' own under
# $RUN_TMP/SUB/*/ (scripts/procs-merge), its meta the first unit's with LINE and a
# "param PARAM" line each added. A unit without the CSV, or a merge that fails, ends the run.
_merge_units() {
	local sub=$1 line=$2 b csv k p meta n
	shift 2
	for b in "${benches[@]}"; do
		n=0
		# each CSV the first unit wrote (a bench may write several; options may leave some out)
		for csv in $(bench_csvs "$b"); do
			[ -f "$RUN_TMP/$sub/01/$csv" ] || continue
			n=$((n + 1))
			for k in "$RUN_TMP/$sub"/*/; do
				[ -f "$k$csv" ] || die "$b: no $csv from ${k%/}; nothing written"
			done
			"$LAB/scripts/procs-merge" "$RUN_TMP/$csv" "$RUN_TMP/$sub"/*/"$csv" ||
				die "$b: the units' $csv did not merge; nothing written"
		done
		[ "$n" -gt 0 ] || die "$b: no $(bench_csv "$b") from $RUN_TMP/$sub/01; nothing written"
		meta=$(bench_meta "$b")
		cp "$RUN_TMP/$sub/01/$meta" "$RUN_TMP/$meta"
		{ echo "$line"; for p in "$@"; do echo "param $p"; done; } >> "$RUN_TMP/$meta"
	done
}

# _guest_boot K 1: guest_boots's boot K.
_guest_boot() {
	local dir=$RUN_TMP/$_GUEST_SUB/$(printf '%02d' "$1")
	mkdir -p "$dir"
	BOOT_SEED=$((GUEST_SEED0 + $1)) OUTDIR=$dir QUIET=1 TIMEOUT=${TIMEOUT:-240} \
		"$LAB_BOOT" "$_GUEST_VARIANT" -- sh -c "$_GUEST_CMD" > "$dir.log" 2>&1
}

# _host_proc ROUND I: host_procs's call for bench I in round ROUND.
_host_proc() {
	local dir=$RUN_TMP/procs/$(printf '%02d' "$1") words b=${benches[$2 - 1]}
	mkdir -p "$dir"
	read -r -a words <<< "${cmds[$2 - 1]}"
	words[0]=$(bench_prog "${words[0]}")
	bench_host_exec "$b" "$dir" "${words[@]}" > "$dir/$b.log" 2>&1
}

# bench_host_exec BENCH DIR WORD...: one process of BENCH on the host, @OUT@ in WORD... its
# folder DIR; inside the bench's session when it has one (session_start).
bench_host_exec() {
	local b=$1 dir=$2 home
	shift 2
	home=$(session_of "$b")
	if [ -n "$home" ]; then
		"$LAB/bench/$b/$(bench_key "$b" host-session)" exec "$home" "$dir" "$@"
	else
		"${@//@OUT@/$dir}"
	fi
}

# run_dir_begin: make a hidden temporary directory under $DATA, removed unless finished.
run_dir_begin() {
	mkdir -p "$DATA"
	RUN_TMP=$(mktemp -d "$DATA/.run.XXXXXX")
	at_exit run_dir_abort
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
# run_dir_abort: at exit, boots still running (interleave) are stopped with the run, and so are
# its sessions; an unfinished run's folder goes (a finished one has moved away).
run_dir_abort() {
	{ kill $(jobs -p) && wait; } 2>/dev/null || true
	sessions_stop > /dev/null
	[ -z "${RUN_TMP:-}" ] || rm -rf "$RUN_TMP"
}

# run_dir_finish SUFFIX: rename the temporary directory to $DATA/<UTC date>-<host>-SUFFIX,
# never over an earlier run (a -2, -3 ... is added), and print its path.
run_dir_finish() {
	local base n=1 dir
	rm -rf "$RUN_TMP/.interleave"
	base=$DATA/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || uname -n)-$1
	dir=$base
	until mv -T "$RUN_TMP" "$dir" 2>/dev/null; do
		[ -e "$dir" ] || die "cannot move $RUN_TMP to $dir"
		n=$((n + 1)); dir=$base-$n
	done
	chmod 755 "$dir"
	RUN_TMP=
	echo "$dir"
}
