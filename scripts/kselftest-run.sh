#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest-run.sh RESULTS KERNEL [TEST...]: build the mm kselftests of
# lab/kselftest/tests.list from KERNEL's tree (statically), run the same
# binaries (only the TESTs, when named) in the lab guest
# (lab.run=kselftest) on KERNEL's base kernel and on KERNEL
# (scripts/kernels.tsv) and compare: fails when a test that
# passes on the base does not pass on KERNEL, also when rerun alone
# (LAB_KSFT_RERUNS times, default 2).  $LAB_KSFT_TIMEOUT: each guest's
# time limit (default 1500 s).
# Writes RESULTS/kselftest/: BASE.console, KERNEL.console, kernels.tsv,
# uname.tsv, kselftest.txt and rerunN/KERNEL.console.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/run-lib.sh"

usage="usage: kselftest-run.sh RESULTS KERNEL [TEST...]"
results=${1:?$usage}
seriesk=${2:?$usage}
shift 2
only=$(printf '%s\n' "$@" | paste -sd, -)
for t in "$@"; do
	awk -v t="$t" '!/^#/ && $1 == t { found = 1 } END { exit !found }' "$here/../lab/kselftest/tests.list" ||
		die "$t is no test of lab/kselftest/tests.list"
done
basek=$(series_base "$seriesk")
dir=$results/kselftest

src=$("$here/kernel.sh" --tree "$seriesk")
run_guest kselftest "$src"
run_build "$basek" "$seriesk"
LAB_GUEST_TIMEOUT=${LAB_KSFT_TIMEOUT:-1500}
export LAB_GUEST_TIMEOUT
rm -rf "$dir"
for k in "$basek" "$seriesk"; do
	run_boot "$dir" "$k" ${only:+"ksft_only=$only"}
done
rc=0
awk -f "$here/at-line.awk" -f "$here/../lab/kselftest/compare.awk" "$dir/$basek.console" "$dir/$seriesk.console" \
	>"$dir/kselftest.txt" || rc=$?
cat "$dir/kselftest.txt"
[ "$rc" = 1 ] || exit $rc

# Some mm selftests are flaky by design (mremap_test maps at random
# addresses and fails when MAP_FIXED_NOREPLACE hits an existing mapping), so
# a test that passed on the base and failed on the series once is run alone
# on the series again, up to LAB_KSFT_RERUNS times: it is a regression
# unless it passes in one of them.  A real regression fails every time.
regressed=$(awk '$NF == "REGRESSION" { printf "%s%s", sep, $1; sep = " " }' "$dir/kselftest.txt")
i=0
while [ -n "$regressed" ] && [ "$i" -lt "${LAB_KSFT_RERUNS:-2}" ]; do
	i=$((i + 1))
	step "rerun $i of $regressed on $seriesk"
	run_boot "$dir/rerun$i" "$seriesk" "ksft_only=$(printf %s "$regressed" | tr ' ' ',')" || true
	still=
	for t in $regressed; do
		r=$(sed -n "s/^@@ kselftest name=$t result=\([a-z]*\) .*/\1/p" "$dir/rerun$i/$seriesk.console")
		echo "rerun $i: $t ${r:-missing} on $seriesk" | tee -a "$dir/kselftest.txt"
		[ "$r" = pass ] || still="$still $t"
	done
	regressed=${still# }
done
if [ -n "$regressed" ]; then
	echo "regression(s) confirmed by $i rerun(s): $regressed" | tee -a "$dir/kselftest.txt"
	exit 1
fi
echo "no regression: every test that failed on $seriesk once passed when rerun (flaky)" |
	tee -a "$dir/kselftest.txt"
