#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest-repeat.sh RESULTS KERNEL [RUNS]: run the series' kselftest,
# numa_tiering_promotion, RUNS times (default 20) in one guest on KERNEL,
# and its control cases as many times on KERNEL's base kernel, where the
# cases the series fixes fail by design.  The controls are the cases that
# need no fix (lab/kselftest/promotion-cases.tsv: those that pass on the
# base).
# Writes RESULTS/kselftest-repeat/: KERNEL.console, BASE.console and
# repeat.tsv: a row per kernel and case, with how the table wants it to
# end on that kernel (want), the runs, and how many times it passed,
# failed and skipped (the TAP lines, scripts/ksft-cases.awk).  Exit
# status 1 unless every case ended as wanted in every run, and no case
# the table does not have ran.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/run-lib.sh"

usage="usage: kselftest-repeat.sh RESULTS KERNEL [RUNS]"
results=${1:?$usage}
seriesk=${2:?$usage}
runs=${3:-20}
case $runs in '' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$runs'" ;; esac
basek=$(series_base "$seriesk")
test=numa_tiering_promotion
controls=$(tsv_awk 'col("base") == "pass" { print col("case") }' "$here/../lab/kselftest/promotion-cases.tsv")
dir=$results/kselftest-repeat

src=$("$here/kernel.sh" --tree "$seriesk")
run_guest kselftest "$src"
run_build "$basek" "$seriesk"
# The test's own limit is 300 s a run (lab/kselftest/tests.list).
LAB_GUEST_TIMEOUT=$((runs * 300 + 300))
export LAB_GUEST_TIMEOUT
rm -rf "$dir"
step "$test: $runs runs on $seriesk, the controls $runs times on $basek"
run_boot "$dir" "$seriesk" "ksft_only=$test" "ksft_repeat=$runs" ||
	die "the guest of $seriesk did not finish (console: $dir/$seriesk.console)"
run_boot "$dir" "$basek" "ksft_only=$test" "ksft_repeat=$runs" \
	"ksft_args=$(for c in $controls; do printf -- '-t,%s,' "$c"; done | sed 's/,$//')" ||
	die "the guest of $basek did not finish (console: $dir/$basek.console)"

# A row per kernel and case: the series' cases as the table's series
# column wants them, the base's controls passing; a case the table does
# not have (or not as a control, on the base) wants "-".
{
	printf 'kernel\tcase\twant\truns\tpass\tfail\tskip\n'
	for k in "$seriesk" "$basek"; do
		awk -v fixture=numa_tiering -f "$here/ksft-cases.awk" "$dir/$k.console" >"$dir/$k.cases.tsv"
		tsv_awk 'FILENAME == ARGV[1] {
				if (k == seriesk || col("base") == "pass") {
					want[col("case")] = k == seriesk ? col("series") : col("base")
					order[++n] = col("case")
				}
				next
			}
			{
				got[col("case"), col("result")]++
				if (!(col("case") in want) && !seen[col("case")]++)
					order[++n] = col("case")
			}
			END {
				for (i = 1; i <= n; i++) {
					c = order[i]
					printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\n", k, c, c in want ? want[c] : "-",
						runs, got[c, "pass"], got[c, "fail"], got[c, "skip"]
				}
			}' -v k="$k" -v seriesk="$seriesk" -v runs="$runs" \
			"$here/../lab/kselftest/promotion-cases.tsv" "$dir/$k.cases.tsv"
	done
} >"$dir/repeat.tsv"
column -t -s "$(printf '\t')" "$dir/repeat.tsv"
tsv_awk 'col("want") == "-" || col(col("want")) != col("runs") { bad = 1 } END { exit bad }' "$dir/repeat.tsv"
