#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hunk-table.sh RESULTS...: the Markdown table of lab/README.md's hunk
# proof from RESULTS, hunk-results.tsv files of scripts/hunk-run.sh (one a
# series, committed as lab/hunks-SERIES.results), and what each hunk does
# from lab/hunks.tsv.  A row per series, hunk and scenario: the share of
# the hot set on the top tier at the end of the run on the base, on
# patches 1-5 of the series and on those without the hunk, in parentheses
# the share on the nodes of its CPU where that differs, and the checks of
# lab/expect.tsv that the kernel without the hunk failed, and how the
# kselftest cases lab/hunks.tsv names for the hunk ended on that kernel
# ("not run" in results older than that column).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

[ $# -gt 0 ] || die "usage: hunk-table.sh RESULTS..."
for f in "$@"; do
	[ -s "$f" ] || die "$f: no hunk results; run scripts/hunk-run.sh (make check-full)"
done
tsv_awk '
function pct(top, local) {
	if (top == "")
		return "-"
	return top "%" (local != top ? " (" local "%)" : "")
}
# The kselftest cases named for the hunk, each with how it ended.
function cases(named, failed,    n, c, i, out, how) {
	if (named == "-")
		return "-"
	n = split(named, c, " ")
	for (i = 1; i <= n; i++) {
		how = index(" " failed " ", " " c[i] " ") ? "fails" : "passes, NOT PROVEN"
		out = out (i > 1 ? ", " : "") c[i] ": " (failed == "" ? "not run" : how)
	}
	return out
}
FILENAME ~ /hunks.tsv$/ {
	what[col("series"), col("patch"), col("hunk")] = col("what")
	ksft[col("series"), col("patch"), col("hunk")] = col("kselftest")
	next
}
BEGIN {
	print "| series | patch.hunk | what it does | scenario | base | series | series without it | its failed checks | kselftest without it |"
	print "|---|---|---|---|---|---|---|---|---|"
}
{
	sr = col("series"); p = col("patch"); h = col("hunk")
	f = col("hunk_failed")
	gsub(/\|/, "\\|", f)
	printf "| %s | %s.%s | %s | %s | %s | %s | %s | %s | %s |\n", sr, p, h, what[sr, p, h], col("scenario"),
		pct(col("base_top"), col("base_local")), pct(col("series_top"), col("series_local")),
		pct(col("hunk_top"), col("hunk_local")),
		(col("scenario") == "-" ? "-" : col("proven") == "yes" || f != "-" ? f : "none: NOT PROVEN"),
		cases(ksft[sr, p, h], has_col("ksft_failed") ? col("ksft_failed") : "")
}' "$here/../lab/hunks.tsv" "$@"
