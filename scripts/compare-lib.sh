# SPDX-License-Identifier: MIT
# What every comparison does once its two sides have run: scripts/compare (two kernels),
# bench/percpu/strategy-compare (two strategy files) and scripts/host-ab (two builds, or two
# glibc settings, on the host) source this after bench-lib.sh and call compare_sides inside
# run_dir_begin. Their part is to run the sides: under $RUN_TMP/boots,
# round-N/ folders of runs labelled cmp-base and cmp-test (round N's two runs are a pair), or
# runs that key their own boots; the run's record in $RUN_TMP/compare.meta; each side's
# kernel record in $RUN_TMP/base.info and test.info.

# compare_sides NAME UNIT: every figure through its bench's own parse (compare-figures; under
# one name on both sides when compare.meta's sides are "glibc setting"),
# lab-ab's statistics with UNIT (boot or process) as the unit and the round as the pair, the
# block (compare-mail), the run directory $DATA/<date>-<host>-NAME (COMPARE_DIR) and the
# block again as $PLOTS/compare-<run>.txt (COMPARE_BLOCK). On a failure: status 1, the step
# that failed in COMPARE_WHY, nothing in data/.
compare_sides() {
	local name=$1 unit=$2
	COMPARE_DIR= COMPARE_BLOCK= COMPARE_WHY=
	rm -f "$RUN_TMP/last.log"
	local how=()
	[ "$(kv "$RUN_TMP/compare.meta" sides)" != "glibc setting" ] || how=(--glibc-sides)
	# every bench the record names must reach the block, and every figure find its side
	how+=(--benches "$(kv "$RUN_TMP/compare.meta" bench)")
	"$LAB/scripts/compare-figures" "${how[@]}" "$RUN_TMP/boots" > "$RUN_TMP/figures.csv" ||
		{ COMPARE_WHY="the figures could not be read or placed"; return 1; }
	[ "$(wc -l < "$RUN_TMP/figures.csv")" -gt 1 ] ||
		{ COMPARE_WHY="the benches gave no figures"; return 1; }
	"$LAB/scripts/compare-ab" "$AB" "$RUN_TMP/figures.csv" "$RUN_TMP" "$unit" round ||
		{ COMPARE_WHY="the statistics failed"; return 1; }
	"$LAB/scripts/compare-mail" "$RUN_TMP" > "$RUN_TMP/compare.txt" ||
		{ COMPARE_WHY="the block could not be written"; return 1; }
	COMPARE_DIR=$(run_dir_finish "$name")
	mkdir -p "$PLOTS"
	COMPARE_BLOCK=$PLOTS/compare-$(basename "$COMPARE_DIR").txt
	cp "$COMPARE_DIR/compare.txt" "$COMPARE_BLOCK"
	cat "$COMPARE_DIR/compare.txt"
	echo ">> results in $COMPARE_DIR; mail block: $COMPARE_BLOCK" >&2
}

# compare_meta BASE_DESC TEST_DESC [LINE...]: the run's record for $RUN_TMP/compare.meta, on
# stdout: the host's identity, what each side is, BENCH, ROUNDS, ACCEL (none: the host) and
# FAIL_ABOVE as the caller has them, then each LINE ("key: value").
compare_meta() {
	lab_host_identity
	echo "base_describe: $1"
	echo "test_describe: $2"
	shift 2
	echo "bench: $BENCH"
	echo "rounds: $ROUNDS"
	echo "accel: $ACCEL"
	echo "fail_above: ${FAIL_ABOVE:-}"
	[ $# -eq 0 ] || printf '%s\n' "$@"
}

# compare_host_info: both sides' kernel record when they ran on the host's own kernel.
compare_host_info() {
	local s
	for s in base test; do
		{ echo "release: $(uname -r)"; echo "config_base: the host's"; } > "$RUN_TMP/$s.info"
	done
}
