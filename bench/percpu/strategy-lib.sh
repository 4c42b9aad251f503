# SPDX-License-Identifier: MIT
# What `make strategy` and `make strategy-compare` share (bench/percpu/strategy and
# strategy-compare source this): a user's strategy files built into a lab-percpu of their own,
# its rows told apart from the lab's, checked exact before anything is timed, and the guest
# initramfs that carries it. Every refusal is one "error: ..." line and status 2, before
# anything is written to data/.
. "$LAB/scripts/bench-lib.sh"

# From make (bench/percpu/bench.mk): the compiler and flags the lab's rows are built with, the
# archive of the harness and rows, their table's symbols, the lab's own lab-percpu.
: "${STRATEGY_CC:=cc}" "${STRATEGY_CFLAGS:?run through make strategy}"
: "${STRATEGY_LIB:?run through make strategy}" "${STRATEGY_BUILTIN:?run through make strategy}"
: "${STRATEGY_BIN:=$BUILD/guest/bin/lab-percpu}"
# The exactness check's bound (s) per strategy: a hang ends there. The schedule exploration's
# is longer (a list strategy's takes minutes here); a hang ends it sooner, at its own bound on
# one schedule's instructions.
: "${CHECK_TIMEOUT:=120}"
: "${EXPLORE_TIMEOUT:=$((CHECK_TIMEOUT * 8))}"

refuse() { echo "error: $*" >&2; exit "$(lab_status refused)"; }

# strategy_build DIR FILE...: DIR/guest/bin/lab-percpu with the lab's rows and FILE's; sets
# ROWS (the files' strategy names, in order), SHAPES (theirs, alike) and STRATEGY_RECORD (what
# the runs' metadata says of them: name=file@sha256/12, comma-separated).
strategy_build() {
	local dir=$1 f i=0 sym err line syms=() objs=() name shape
	shift
	[ $# -gt 0 ] || refuse "no strategy file (STRATEGY=path/to/mine.c)"
	mkdir -p "$dir/obj" "$dir/guest/bin"
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] || refuse "$f: no such file"
		case $f in *.c) ;; *) refuse "$f: a strategy is one C file (*.c)" ;; esac
		i=$((i + 1)) sym=lab_strategies_user_$i
		# The compiler's first error, as it words it, is the one line.
		if ! err=$("$STRATEGY_CC" $STRATEGY_CFLAGS -DLAB_STRATEGY_SYM=$sym -c \
				-o "$dir/obj/user-$i.o" "$f" 2>&1); then
			line=$(grep -m1 -E ': (fatal )?error: ' <<<"$err" || head -n 1 <<<"$err")
			refuse "$f does not compile: ${line/: error: /: }"
		fi
		nm -g "$dir/obj/user-$i.o" 2>/dev/null | grep -qE " [DR] $sym\$" ||
			refuse "$f: no LAB_STRATEGIES(...) list, so no strategy for the lab (see bench/percpu/include/lab/strategy.h)"
		syms+=("$sym") objs+=("$dir/obj/user-$i.o")
	done
	"$LAB/bench/percpu/strategy-table" $STRATEGY_BUILTIN "${syms[@]}" > "$dir/obj/table.c"
	if ! err=$("$STRATEGY_CC" $STRATEGY_CFLAGS -o "$dir/guest/bin/lab-percpu" \
			"$dir/obj/table.c" "${objs[@]}" "$STRATEGY_LIB" ${STRATEGY_LIBS:--lpthread -ldl -lm} 2>&1); then
		line=$(grep -m1 -E 'undefined reference|multiple definition|error' <<<"$err" || head -n 1 <<<"$err")
		refuse "$* do not link: ${line#*: }"
	fi
	# The binary checks every strategy's fields (name, label, a known shape) as it starts.
	if ! err=$(timeout 20 "$dir/guest/bin/lab-percpu" --list 2>&1 >"$dir/list"); then
		refuse "$(head -n 1 <<<"$err" | sed 's/^error: //')"
	fi
	"$STRATEGY_BIN" --list > "$dir/builtin.list" || refuse "no lab-percpu $STRATEGY_BIN (make it)"
	ROWS=() SHAPES=() STRATEGY_RECORD=
	while read -r name shape _; do
		grep -q "^$name " "$dir/builtin.list" && continue
		ROWS+=("$name") SHAPES+=("$shape")
	done < "$dir/list"
	[ ${#ROWS[@]} -gt 0 ] || refuse "$*: LAB_STRATEGIES(...) lists no strategy"
	for f in "$@"; do
		STRATEGY_RECORD+="${STRATEGY_RECORD:+,}$(basename "$f")@$(sha256sum < "$f" | cut -c1-12)"
	done
}

# check_bounded NAME CHECK CONTEXT CMD...: CMD (a lab-percpu check of NAME) bounded by
# CHECK_TIMEOUT, its TAP output in $out and its status in $rc; refused when it hangs, crashes
# or skips. CHECK names the check and CONTEXT (may be empty) the pass, in the refusal.
check_bounded() {
	local name=$1 check=$2 ctx=$3
	shift 3
	out=$(timeout --kill-after=5 "$CHECK_TIMEOUT" "$@" 2>&1) && rc=0 || rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		refuse "$name: no end within ${CHECK_TIMEOUT} s in the $check (${ctx:+$ctx; }a hang?); not timed"
	elif [ $rc -gt 128 ]; then
		refuse "$name: crashed in the $check (${ctx:+$ctx: }SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))); not timed"
	elif grep -q '# SKIP' <<<"$out"; then
		refuse "$name: cannot be checked here: $(grep -m1 -o '# SKIP.*' <<<"$out" | cut -c8-) (it needs rseq); not timed"
	fi
}

# check_pass BIN NAME WHAT ARGS...: one lab-percpu --check of NAME (ARGS added), check_bounded;
# refused with the first wrong figure when it fails, crashes or hangs. WHAT names the pass in
# the refusal. Its TAP output in $out.
check_pass() {
	local bin=$1 name=$2 what=$3 rc why
	shift 3
	check_bounded "$name" "exactness check" "$what" "$bin" --check --method "$name" "$@" ${CHECK_ARGS:-}
	if [ $rc -ne 0 ] || ! grep -q '^ok ' <<<"$out"; then
		why=$(grep -m1 '^not ok' <<<"$out" | sed -E 's/^not ok [0-9]+ - [^:]*: [^:]*: //; s/, via .*//')
		refuse "$name fails the exactness check ($what): ${why:-$(grep -v '^#' <<<"$out" | tail -n 1)}; not timed"
	fi
}

# interleave_pass BIN NAME: the deterministic interleaving check (lab-percpu --interleave:
# NAME's operation interrupted at every instruction boundary, preempted, signalled and moved
# to another CPU, a competitor's operation in each gap); refused with its line when an
# invariant breaks, crashes or hangs. Its coverage is added to $INTERLEAVED for the run's
# metadata (name=instructions/interleavings/aborts/waits/passes, comma-separated);
# where the check cannot run here (no per-arch part, no ptrace), it says so and the random
# passes stand alone.
INTERLEAVED=
interleave_pass() {
	local bin=$1 name=$2 rc why cov insn inter aborts waits secs passes
	check_bounded "$name" "interleaving check" "" "$bin" --interleave --method "$name"
	why=$(sed -n "s/^not ok [0-9]* - $name: //p" <<<"$out" | head -n 1)
	case $why in
	"cannot check: "*)
		echo ">> $name: no interleaving check here (${why#cannot check: }); the random passes only" >&2
		return ;;
	crashed*) refuse "$name: ${why/#crashed/crashed in the interleaving check}; not timed" ;;
	?*) refuse "$name is wrong: $why; not timed" ;;
	esac
	grep -q "^ok [0-9]* - $name:" <<<"$out" || refuse "$name: the interleaving check said nothing ($(tail -n 1 <<<"$out")); not timed"
	cov=$(sed -n "s/^#   $name: instructions \([0-9]*\), passes \([0-9]*\), interleavings \([0-9]*\), aborts \([0-9]*\), waits \([0-9]*\), steps [0-9]*, seconds \([0-9.]*\)$/\1 \3 \4 \5 \6 \2/p" <<<"$out")
	read -r insn inter aborts waits secs passes <<<"$cov"
	INTERLEAVED+="${INTERLEAVED:+,}$name=$insn/$inter/$aborts/$waits/$passes"
	echo ">> $name: every instruction boundary interleaved ($insn instructions, $passes passes, $inter interleavings, $aborts aborts, $secs s)" >&2
}

# explore_pass BIN NAME: the bounded exploration of NAME's schedules (lab-percpu --explore,
# bench/percpu/explore.h: two CPUs in parallel, histories of operations, up to EXPLORE_BOUND
# preemptions, signals and migrations, ownership of every byte written); refused with its
# words, file:line and schedule when it finds a break, or when it cannot finish within
# EXPLORE_TIMEOUT. Its coverage is added to $EXPLORED for the run's metadata
# (name=bound/states/schedules/seconds, comma-separated); where it cannot run here (no per-arch
# part), it says so and the other passes stand.
EXPLORED=
explore_pass() {
	local bin=$1 name=$2 why sched cov bound states schedules secs
	CHECK_TIMEOUT=$EXPLORE_TIMEOUT check_bounded "$name" "schedule exploration" "bound ${EXPLORE_BOUND:-2}" "$bin" --explore \
		--bound "${EXPLORE_BOUND:-2}" --method "$name"
	why=$(sed -n "s/^not ok [0-9]* - $name: //p" <<<"$out" | head -n 1)
	sched=$(sed -n "s/^#   $name: schedule: //p" <<<"$out" | head -n 1)
	case $why in
	"cannot check: no interleaving check on "*)
		echo ">> $name: no schedule exploration here (${why#cannot check: }); the other passes only" >&2
		return ;;
	?*) refuse "$name is wrong: $why${sched:+ (schedule: $sched)}; not timed" ;;
	esac
	grep -q "^ok [0-9]* - $name:" <<<"$out" || refuse "$name: the schedule exploration said nothing ($(tail -n 1 <<<"$out")); not timed"
	cov=$(sed -n "s/^#   $name: bound \([0-9]*\), threads [0-9]*, cpus [0-9]*, runs [0-9]*, states \([0-9]*\), schedules \([0-9]*\), .*seconds \([0-9.]*\)$/\1 \2 \3 \4/p" <<<"$out")
	read -r bound states schedules secs <<<"$cov"
	EXPLORED+="${EXPLORED:+,}$name=$bound/$states/$schedules/$secs"
	echo ">> $name: every schedule explored (bound $bound: $states states, $schedules schedules, $secs s)" >&2
}

# strategy_check BIN NAME...: each strategy right, or refused before anything is timed.
# First the schedule exploration (explore_pass) and the interleaving check (interleave_pass),
# then two random passes: the lab's own
# --check (6 x NCPU unpinned threads, yields, migrations, timer signals), which every built-in
# row passes; then the same threads pinned round-robin,
# undisturbed, for about CHECK_LONG_MS (1000) of wall time, calibrated: long
# enough that the scheduler preempts threads inside operations and hands their CPU to
# another thread of the same slot, which the first pass's short, yielding runs rarely do.
strategy_check() {
	local bin=$1 name t ops probe=1000000
	shift
	for name in "$@"; do
		explore_pass "$bin" "$name"
		interleave_pass "$bin" "$name"
		check_pass "$bin" "$name" "yields, migrations, timer signals"
		echo ">> $name: exact ($(grep -m1 '^ok ' <<<"$out" | sed -E 's/^ok [0-9]+ - [^:]*: //; s/, via .*//'))" >&2
		t=$(date +%s%N)
		check_pass "$bin" "$name" "pinned, a calibration run" --disturb none --check-pinned \
			--check-ops $probe
		t=$(( ($(date +%s%N) - t) / 1000000 + 1 ))
		ops=$(( probe * ${CHECK_LONG_MS:-1000} / t ))
		[ $ops -ge $probe ] || ops=$probe
		[ $ops -le 100000000 ] || ops=100000000
		check_pass "$bin" "$name" "pinned, runs long enough for preemption inside operations" \
			--disturb none --check-pinned --check-ops $ops
		echo ">> $name: exact ($(grep -m1 '^ok ' <<<"$out" | sed -E 's/^ok [0-9]+ - [^:]*: //; s/, via .*//'))" >&2
	done
}

# strategy_baselines DIR SHAPE...: the lab's own rows of these shapes (comma-separated), from
# strategy_build's DIR/builtin.list.
strategy_baselines() {
	local list=$1/builtin.list s out=
	shift
	for s in $(printf '%s\n' "$@" | sort -u); do
		out+="${out:+,}$(sed -n "s/^\([^ ]*\) *$s .*/\1/p" "$list" | paste -sd,)"
	done
	echo "$out"
}

# strategy_guest_build DIR BIN...: DIR as a BUILD for scripts/boot and bench-guest: the lab's
# images and tools, and an initramfs that is the lab's with BIN... (/lab/bin/NAME) over it
# (the kernel unpacks the archives in order: a later file replaces an earlier one).
strategy_guest_build() {
	local dir=$1 b
	shift
	[ -f "$BUILD/initramfs/lab.cpio" ] || refuse "no initramfs $BUILD/initramfs/lab.cpio (run: make initramfs)"
	mkdir -p "$dir/initramfs"
	ln -sfn "$BUILD/images" "$dir/images"
	ln -sfn "$BUILD/tools" "$dir/tools"
	for b in "$@"; do echo "file /lab/bin/$(basename "$b") $b 0755 0 0"; done > "$dir/overlay.list"
	"$BUILD/tools/gen_init_cpio" "$dir/overlay.list" > "$dir/overlay.cpio"
	cat "$BUILD/initramfs/lab.cpio" "$dir/overlay.cpio" > "$dir/initramfs/lab.cpio"
}
