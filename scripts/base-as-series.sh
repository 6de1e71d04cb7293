#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# base-as-series.sh RESULTS BASE: the negative control of the lab verdicts.
# Judge the measurements of kernel BASE (e.g. 7.3.4-base) in RESULTS (a
# lab-run.sh report directory) by the rules for a patched kernel, as if it
# were a patched kernel of the same version, and print the scenarios whose verdict fails, one
# line.  On a kernel with the bug these are the scenarios the series fixes:
# a check that cannot fail there proves nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: base-as-series.sh RESULTS BASE}
base=${2:?usage: base-as-series.sh RESULTS BASE}
for f in ends.tsv skips.tsv samples.tsv; do
	[ -s "$dir/$f" ] || die "$dir/$f is missing or empty; run the lab first"
done
grep -q "^$base	" "$dir/ends.tsv" || die "$dir/ends.tsv has no rows of $base"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# The base's rows once more as kernel "<version>-as_series" of kind series:
# verdict.awk compares it with "<version>-base", BASE itself.
fake=${base%-*}-as_series
for f in ends.tsv skips.tsv samples.tsv; do
	awk -F'\t' -v OFS='\t' -v b="$base" -v k="$fake" '
		{ print }
		$1 == b { $1 = k; $2 = "series"; print }' "$dir/$f" >"$tmp/$f"
done
awk -f "$here/verdict.awk" "$here/../lab/expect.tsv" "$tmp/ends.tsv" "$tmp/skips.tsv" "$tmp/samples.tsv" |
	awk -F'\t' -v k="$fake" '$1 == k && $14 == "fail" { printf "%s%s", sep, $3; sep = " " } END { print "" }'
