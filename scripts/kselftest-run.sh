#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest-run.sh RESULTS SRC BASE_KERNEL SERIES_KERNEL: build the mm
# kselftests of lab/kselftest/tests.list from kernel tree SRC (statically),
# run the same binaries in the lab guest on both kernels and compare: fails
# when a test that passes on the base does not pass on the series.
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
exit $rc
