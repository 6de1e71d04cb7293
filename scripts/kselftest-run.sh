#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL: build the mm
# kselftests of lab/kselftest/tests.list from kernel tree SRC (statically),
# run the same binaries in the lab guest on both kernels and compare: fails
# when a test that passes on the base does not pass on the series, also when
# rerun alone (LAB_KSFT_RERUNS times, default 2).
# Writes RESULTS/kselftest-<kernel>.console and RESULTS/kselftest.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

results=${1:?usage: kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL}
src=${2:?usage: kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL}
basek=${3:?usage: kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL}
seriesk=${4:?usage: kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL}
ks=$here/../lab/kselftest
out=$LAB_CACHE/kselftest

step "building the mm kselftests from $src"
"$ks/build.sh" "$src" "$out" || die "building the mm kselftests failed"
"$here/mkinitramfs.sh" "$out/initrd.gz" "$out/bin" "$ks/init.sh"

mkdir -p "$results"
for k in "$basek" "$seriesk"; do
	bz=$("$here/kernel.sh" "$k")
	LAB_GUEST_TIMEOUT=${LAB_KSFT_TIMEOUT:-1500} \
		"$here/run-guest.sh" "$bz" "$out/initrd.gz" "$results/kselftest-$k.console"
done
rc=0
awk -f "$ks/compare.awk" "$results/kselftest-$basek.console" "$results/kselftest-$seriesk.console" \
	>"$results/kselftest.txt" || rc=$?
cat "$results/kselftest.txt"
[ "$rc" = 1 ] || exit $rc

# Some mm selftests are flaky by design (mremap_test maps at random
# addresses and fails when MAP_FIXED_NOREPLACE hits an existing mapping), so
# a test that passed on the base and failed on the series once is run alone
# on the series again, up to LAB_KSFT_RERUNS times: it is a regression
# unless it passes in one of them.  A real regression fails every time.
regressed=$(awk '$NF == "REGRESSION" { printf "%s%s", sep, $1; sep = " " }' "$results/kselftest.txt")
bz=$("$here/kernel.sh" "$seriesk")
i=0
while [ -n "$regressed" ] && [ "$i" -lt "${LAB_KSFT_RERUNS:-2}" ]; do
	i=$((i + 1))
	step "rerun $i of $regressed on $seriesk"
	console=$results/kselftest-$seriesk-rerun$i.console
	LAB_GUEST_TIMEOUT=${LAB_KSFT_TIMEOUT:-1500} "$here/run-guest.sh" "$bz" "$out/initrd.gz" \
		"$console" "ksft_only=$(printf %s "$regressed" | tr ' ' ',')" || true
	still=
	for t in $regressed; do
		r=$(sed -n "s/^@@ kselftest name=$t result=\([a-z]*\) .*/\1/p" "$console")
		echo "rerun $i: $t ${r:-missing} on $seriesk" | tee -a "$results/kselftest.txt"
		[ "$r" = pass ] || still="$still $t"
	done
	regressed=${still# }
done
if [ -n "$regressed" ]; then
	echo "regression(s) confirmed by $i rerun(s): $regressed" | tee -a "$results/kselftest.txt"
	exit 1
fi
echo "no regression: every test that failed on $seriesk once passed when rerun (flaky)" |
	tee -a "$results/kselftest.txt"
