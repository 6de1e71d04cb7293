#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest-repeat.sh RESULTS KERNEL [RUNS]: run the series' kselftest,
# numa_tiering_promotion, RUNS times (default 20) in one guest on KERNEL,
# and its control cases as many times on KERNEL's base kernel, where the
# cases the series fixes fail by design.  The controls are the cases that
# need no fix (lab/kselftest/promotion-cases.tsv: those that pass on the
# base).
# Writes RESULTS/kselftest-repeat/: KERNEL.console, BASE.console and
# repeat.tsv (kernel, cases, runs, pass, fail, skip, failed: TAP cases
# that failed, CASE=TIMES).  Exit status 1 when a run did not pass.
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

# One row a kernel: the "@@ kselftest" result lines, and the TAP cases
# ("not ok N numa_tiering.CASE") that failed.
{
	printf 'kernel\tcases\truns\tpass\tfail\tskip\tfailed\n'
	for k in "$seriesk" "$basek"; do
		cases=all
		[ "$k" = "$seriesk" ] || cases=$(echo $controls | tr ' ' ,)
		awk -v k="$k" -v cases="$cases" -v t="$test" '
			index($0, "@@ kselftest name=" t " ") {
				n++
				r = $0; sub(/.* result=/, "", r); sub(/ .*/, "", r)
				count[r]++
			}
			/^not ok [0-9]+ / { sub(/\r$/, ""); failed[$4]++ }
			END {
				f = ""
				for (c in failed)
					f = f (f == "" ? "" : ",") c "=" failed[c]
				printf "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", k, cases, n,
					count["pass"], count["fail"], count["skip"], f == "" ? "-" : f
			}' "$dir/$k.console"
	done
} >"$dir/repeat.tsv"
column -t -s "$(printf '\t')" "$dir/repeat.tsv"
tsv_awk 'col("runs") != want || col("pass") != want { bad = 1 } END { exit bad }' -v want="$runs" "$dir/repeat.tsv"
