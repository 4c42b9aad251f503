# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# scripts/mutate --sample: generated mutants (scripts/mutants.py) run against the check tier's
# tests that touch their file (scripts/test-map). Sourced by scripts/mutate once its clone is
# built: uses $tree, in_tree, $sample, $seed, $minutes.
commit=$(git -C "$tree" rev-parse HEAD)
# MUTATE_MAP: a map built at another commit, taken knowingly (the tests and what they touch
# move slowly; the run's meta names the map it used)
map=${MUTATE_MAP:-$BUILD/mutants/test-map-$commit.tsv}
[ -z "${MUTATE_MAP:-}" ] || [ -s "$map" ] || die "no test map $map"
if [ ! -s "$map" ]; then
	# the newest map of an earlier commit: its unchanged tests' lines are kept
	since=()
	for m in $(ls -t "$BUILD"/mutants/test-map-*.tsv 2>/dev/null); do
		c=${m##*/test-map-}; c=${c%.tsv}
		if git -C "$tree" merge-base --is-ancestor "$c" HEAD 2>/dev/null; then since=(--since "$m" "$c"); break; fi
	done
	echo ">> mutate: mapping the check tier's tests to the files they touch (once per commit)" >&2
	# shellcheck disable=SC2046 # the list of test files
	in_tree scripts/test-map "${since[@]}" "$map" $(in_tree make -s --no-print-directory check-list) ||
		die "the test map could not be built (scripts/test-map)"
fi
# A score needs tests that pass unmutated: the tests every mutant runs (those mapped to every
# file), on the unmutated clone first.
always=$(awk -F'\t' '$2 == "*" { print $1 }' "$map" | sort -u | tr '\n' ' ')
if [ -n "$always" ]; then
	echo ">> mutate: the tests every mutant runs, on the unmutated clone" >&2
	# shellcheck disable=SC2086 # a list of test files
	in_tree env LAB_TEST_TIER=check prove -j"$(($(nproc) + 1))" $always >/dev/null 2>&1 ||
		die "the unmutated clone fails some of: $always(run them with prove in $tree): no score"
fi
run_dir_begin
plan=$RUN_TMP/mutants.json
python3 "$LAB/scripts/mutants.py" plan "$tree" "$sample" "$seed" > "$plan" ||
	die "the mutants could not be generated"
csv=$RUN_TMP/mutation.csv
rows=$RUN_TMP/.rows
: > "$rows"
echo ">> mutate: $sample mutants, seed $seed, of $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sites"])' "$plan") sites" >&2
t_end=$((minutes > 0 ? SECONDS + minutes * 60 : 0))
done_n=0
for ((k = 0; k < sample; k++)); do
	if [ "$t_end" -gt 0 ] && [ "$SECONDS" -ge "$t_end" ]; then
		echo ">> mutate: the $minutes minutes are up after $done_n mutants" >&2
		break
	fi
	t0=$SECONDS
	# the clone as committed before each mutant (a test that writes a tracked file is a bug)
	changed=$(git -C "$tree" status --porcelain --untracked-files=no)
	[ -z "$changed" ] || die "the clone's tracked files changed under the run: $(echo $changed)"
	IFS=$'\t' read -r id area lang op file < <(python3 "$LAB/scripts/mutants.py" apply "$plan" "$k" "$tree") ||
		die "mutant $k could not be applied"
	tests=$(python3 "$LAB/scripts/mutants.py" tests "$map" "$file")
	if ! in_tree make -s check-prereqs >/dev/null 2>&1; then
		# C that does not compile is stillborn (not scored); a script that breaks make check's
		# prerequisites (install-deps, the initramfs's builders) is caught by make check
		if [ "$lang" = c ]; then result=stillborn; else result=caught; fi
	elif [ -z "$tests" ]; then
		result=survived  # no test touches its file
	else
		# the first failing test ends the mutant (xargs starts no test after a 255); a mutant
		# that makes a test hang is caught at MUTATE_TIMEOUT seconds (300: five times the
		# slowest test's time unmutated)
		# shellcheck disable=SC2086 # a list of test files
		if printf '%s\n' $tests | in_tree env LAB_TEST_TIER=check timeout --kill-after=10 "${MUTATE_TIMEOUT:-300}" \
			xargs -P "$(($(nproc) + 1))" -n 1 sh -c 'prove "$1" >/dev/null 2>&1 || exit 255' sh \
			2>/dev/null; then
			result=survived
		else
			result=caught
		fi
	fi
	git -C "$tree" checkout -q -- "$file"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$result" "$((SECONDS - t0))" \
		"$(wc -w <<< "$tests")" "$area" "$lang" "$op" >> "$rows"
	done_n=$((done_n + 1))
	echo ">> $id: $result in $((SECONDS - t0)) s ($(wc -w <<< "$tests") tests)" >&2
done
in_tree make -s check-prereqs >/dev/null 2>&1 || true
python3 - "$plan" "$rows" "$csv" <<'PY'
import csv, json, sys
plan, rows, out = sys.argv[1:]
ms = json.load(open(plan))["mutants"]
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "area", "lang", "op", "file", "line", "result", "seconds", "tests", "old", "new"])
    for line in open(rows):
        k, result, secs, ntests, *_ = line.rstrip("\n").split("\t")
        m = ms[int(k)]
        w.writerow([m["id"], m["area"], m["lang"], m["op"], m["path"], m["line"], result, secs,
                    ntests, m["old"], m["new"]])
PY
{
	echo "bench: mutation"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "lab_commit: $commit"
	echo "generated: yes"
	echo "seed: $seed"
	echo "asked: $sample"
	echo "mutations: $done_n"
	echo "tests: the check tier's that touch the mutant's file (scripts/test-map)"
	echo "test_map: ${map#$BUILD/}"
	echo "timeout_s: ${MUTATE_TIMEOUT:-300} (a mutant whose tests run past it is caught)"
} > "$RUN_TMP/mutation.meta"
rm -f "$rows"
PYTHONPATH=$LAB/scripts python3 "$LAB/scripts/mutation-score" "$csv" | tee "$RUN_TMP/score.txt"
echo ">> results in $(run_dir_finish mutation)"
