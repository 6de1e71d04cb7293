#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# base-as-series.sh RESULTS BASE: the negative control of the lab verdicts.
# Judge the measurements of kernel BASE (a kernel of kind base) in RESULTS
# (a lab run's report directory) by the rules for the kernel with the whole
# series on BASE's version, as if it were that kernel, and print the
# scenarios whose verdict fails, one line.  On a kernel with the bug these
# are the scenarios the series fixes: a check that cannot fail there
# proves nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: base-as-series.sh RESULTS BASE}
base=${2:?usage: base-as-series.sh RESULTS BASE}
for f in kernels.tsv ends.tsv skips.tsv samples.tsv; do
	[ -s "$dir/$f" ] || die "$dir/$f is missing or empty; run the lab first"
done
tsv_awk 'col("kernel") == b { f = 1 } END { exit !f }' -v b="$base" "$dir/ends.tsv" ||
	die "$dir/ends.tsv has no rows of $base"
[ "$(kernel_col "$base" kind)" = base ] || die "$base is not of kind base (scripts/kernels.tsv)"

# The kernel with the whole series on BASE's version: its patch count
# picks the rules of lab/expect.tsv (series:A-B).
version=$(kernel_col "$base" base)
series=$(kernels_awk 'col("kind") == "series" && col("base") "" == v "" && col("series") !~ /[:@]/ { print col("name") }' -v v="$version")
[ -n "$series" ] || die "scripts/kernels.tsv has no kernel with a whole series on $version"
[ "$(printf '%s\n' "$series" | wc -l)" -eq 1 ] ||
	die "scripts/kernels.tsv has several kernels with a whole series on $version: $(printf '%s\n' "$series" | tr '\n' ' ')"
patches=$(kernel_patches "$series")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# BASE's rows once more as kernel FAKE of kind series, whose base is BASE.
fake=$base-as-series
for f in ends.tsv skips.tsv samples.tsv; do
	tsv_awk '!hdr++ { print tsv_header() }
	{ print }
	col("kernel") == b {
		set_col("kernel", k)
		set_col("kind", "series")
		print
	}
	END {
		if (!hdr && tsv_header() != "")
			print tsv_header()
	}' -v b="$base" -v k="$fake" "$dir/$f" >"$tmp/$f"
done
tsv_awk '!hdr++ { print tsv_header() }
	{ print }
	END {
		if (!hdr)
			print tsv_header()
		n = split(tsv_header(), h, "\t")
		for (i = 1; i <= n; i++)
			printf "%s%s", (h[i] == "kernel" ? k : h[i] == "kind" ? "series" : h[i] == "base_kernel" ? b : h[i] == "patches" ? p : "-"), (i < n ? "\t" : "\n")
	}' -v b="$base" -v k="$fake" -v p="$patches" "$dir/kernels.tsv" >"$tmp/kernels.tsv"
awk -f "$here/tsv.awk" -f "$here/verdict.awk" "$tmp/kernels.tsv" "$here/../lab/scenarios.tsv" "$here/../lab/expect.tsv" \
	"$tmp/ends.tsv" "$tmp/skips.tsv" "$tmp/samples.tsv" >"$tmp/summary.tsv"
tsv_awk 'col("kernel") == k && col("verdict") == "fail" { printf "%s%s", sep, col("scenario"); sep = " " } END { print "" }' \
	-v k="$fake" "$tmp/summary.tsv"
