# SPDX-License-Identifier: MIT
# TAP helpers for the bench tests (bash), on top of tap.sh: the bench's binary, bad input, a
# --check on the host or in a guest, a CSV field. Sourced by bench/*/tests/*.t.
. "${BASH_SOURCE[0]%/*}/tap.sh"

# need_bin NAME: bin=$BUILD/guest/bin/NAME, or a plan of one failed test and exit.
need_bin() {
	bin=$BUILD/guest/bin/$1
	[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
}

# bad REGEX ARGS...: $bin ARGS exits 2 with one line on stderr, matching REGEX (two tests).
bad() {
	local err rc
	err=$("$bin" "${@:2}" 2>&1 >/dev/null); rc=$?
	is "$rc:$(wc -l <<<"$err")" "2:1" "${bin##*/} ${*:2} fails with one line"
	like "$err" "$1" "... saying why ($1)"
}

# run_refuses DRIVER ARGS...: the bench's run driver refuses ARGS with status 2 and one line,
# and writes nothing to data/ (two tests).
run_refuses() {
	local d err rc
	d=$(mktemp -d)
	err=$(DATA=$d/data "$@" 2>&1); rc=$?
	is "$rc:$(wc -l <<<"$err")" "2:1" "${1#"$LAB/"} ${*:2}: status 2, one line"
	is "$(ls -A "$d/data" 2>/dev/null | wc -l)" 0 "... and nothing in data/"
	rm -rf "$d"
}

# host_check WANT WHAT ARGS...: $bin --check ARGS on the host exits 0, prints WANT "ok" lines
# (WHAT: what they prove) and runs 6 x NCPU threads (three tests); its output in $out.
host_check() {
	local want=$1 what=$2 rc ncpu
	shift 2
	ncpu=$(nproc)
	out=$("$bin" --check "$@" 2>&1); rc=$?
	ok $rc "--check $* exits 0"
	is "$(grep -c '^ok ' <<<"$out")" "$want" "$what"
	like "$out" "$((6 * ncpu)) threads x" "6 x NCPU = $((6 * ncpu)) threads"
	[ $rc -eq 0 ] || diag "$(grep -v '^ok' <<<"$out" | head -n 20)"
}

# boot ARGS...: scripts/boot ARGS (stderr too), TIMEOUT seconds at most (BOOT_TIMEOUT, 400).
boot() { TIMEOUT=${TIMEOUT:-${BOOT_TIMEOUT:-400}} "$LAB/scripts/boot" "$@" 2>&1; }

# guest_check VARIANT WANT WHAT CMD...: CMD (a --check) in a VARIANT guest exits 0 and prints
# WANT "ok" lines (WHAT: what they prove; two tests); its output in $out.
guest_check() {
	local v=$1 want=$2 what=$3 rc
	shift 3
	out=$(boot "$v" -- "$@"); rc=$?
	ok $rc "$v: $* exits 0"
	is "$(grep -c '^ok ' <<<"$out")" "$want" "$v: $what"
	[ $rc -eq 0 ] || diag "$(grep -v '^ok' <<<"$out" | tail -n 20)"
}

# csv FILE METHOD COLUMN: the column's value in the first row of METHOD; "<no FILE>", "<no row
# METHOD>" or "<no column COLUMN>" when there is none, so that a missing CSV or row never
# compares equal to an empty value.
csv() {
	[ -f "$1" ] || { echo "<no $1>"; return; }
	local r
	r=$("$LAB/scripts/csv" "$1" method "$3" --where method="$2" 2>/dev/null) ||
		{ echo "<no column $3>"; return; }
	[ -n "$r" ] || { echo "<no row $2>"; return; }
	r=${r%%$'\n'*}; echo "${r#*$'\t'}"; }

# guest_run_enosys BENCH RSEQ_ROW OTHER_ROW ARGS...: bench/BENCH/run rseq-n ARGS (TCG) writes
# a run directory whose RSEQ_ROW says ENOSYS and whose OTHER_ROW ran (three tests).
guest_run_enosys() {
	local b=$1 rseq=$2 other=$3 t d
	shift 3
	t=$(mktemp -d)
	# two boots (the default is five): the merge of a failed row is exercised too
	DATA=$t/data ACCEL=tcg GUEST_BOOTS=2 "$LAB/bench/$b/run" rseq-n "$@" >"$t/log" 2>&1
	ok $? "rseq-n: bench/$b/run rseq-n exits 0"
	d=$(ls -d "$t"/data/*-"$b"-rseq-n 2>/dev/null | head -n 1)
	is "$(csv "$d/$b.csv" "$rseq" status)" ENOSYS "rseq-n: $rseq row says ENOSYS"
	is "$(csv "$d/$b.csv" "$other" status)" ok "rseq-n: $other row ran"
	rm -rf "$t"
}

# run_fig GLOB FIGURE: "value unit" of FIGURE in the figures.csv of the run GLOB names.
run_fig() {
	"$LAB/scripts/csv" "$(ls -d $1 | head -n 1)/figures.csv" value unit --where "figure=$2" |
		tr '\t' ' '
}

# rseq_sides_host BENCH OPERATION...: a real library's bench on the host (bench/BENCH/run, by
# a relative path as make calls it; 3 processes): one run of its own, every row measured,
# each OPERATION's NAME-rseq-on and -off rows ran with glibc's rseq on and off, reading the
# CPU as they say, figures for every row in ns, the report's off - on line with its interval
# over the 3 processes for each; bad options refused (15 + 4 per OPERATION tests). The run
# directory in $d, its scratch folder in $t.
rseq_sides_host() {
	local b=$1 names op s rep
	shift
	t=$(mktemp -d)
	(cd "$LAB" && DATA=$t/data HOST_PROCS=3 "bench/$b/run" host --reps 2 --duration 10) \
		> "$t/log" 2>&1
	ok $? "bench/$b/run host runs"
	[ $? -eq 0 ] || diag "$(tail -n 5 "$t/log")"
	is "$(ls "$t/data")" "$(ls "$t/data" | grep -- "-$b-host\$")" "its run is named ...-$b-host"
	d=$(ls -d "$t"/data/*-"$b"-host 2>/dev/null | head -n 1)
	is "$(ls "$d" | grep -c '^cpu-read\|^percpu')" 0 "it ran $b alone"
	names=$("$bin" --list | awk '{print $1}' | sort | tr '\n' ' ')
	is "$(csv_cols "$d/$b.csv" method | sort | tr '\n' ' ')" "$names" "one row per case"
	is "$(csv_cols "$d/$b.csv" status | sort -u)" ok "every row measured"
	is "$(csv_cols "$d/figures.csv" unit | sort -u)" ns "figures.csv: every figure in ns"
	is "$(csv_cols "$d/figures.csv" figure | sort | tr '\n' ' ')" "$names" "... one for each case"
	is "$(ls "$d/procs" | tr '\n' ' ')" "01 02 03 " "one folder per process"
	RUNS="*-$b-*" DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > "$t/report.log" 2>&1
	ok $? "the report of the run"
	rep=$(cat "$t/plots/report.txt" 2>/dev/null)
	for op in "$@"; do
		for s in on off; do
			is "$(csv "$d/$b.csv" "$op-rseq-$s" glibc_rseq)" $s "$op-rseq-$s ran with glibc's rseq $s"
		done
		like "$(csv "$d/$b.csv" "$op-rseq-on" path)" "rseq cpu_id|no sched_getcpu" \
			"$op-rseq-on: its path says the rseq area (or no getcpu)"
		like "$(csv "$d/$b.csv" "$op-rseq-off" path)" "vDSO|no sched_getcpu" \
			"$op-rseq-off: its path says the vDSO (or no getcpu)"
	done
	is "$(grep -A1 -E "^    off - on: [-+][0-9.]+ ns \[[-+][0-9.]+, [-+][0-9.]+\]$" <<<"$rep" |
		grep -cE "^      [a-z ]+ \(3 processes\)$")" \
		"$#" "the report: off - on of each operation with its interval over 3 processes"
	is "$(grep -cE "^    glibc rseq on [0-9.]+, off [0-9.]+ ns$" <<<"$rep")" "$#" "... and both its figures"
	run_refuses "$LAB/bench/$b/run" host --reps 0
	run_refuses "$LAB/bench/$b/run" host --method nosuch
}
