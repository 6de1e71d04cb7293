#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# repeat-report.sh DIR: the repeated runs DIR/run-1, DIR/run-2, ... of one
# lab run (each with its own tables and summary.tsv from report.sh) as
# one report in DIR:
#   ends.tsv, summary.tsv  the runs' tables with the median of every
#                          numeric column, a verdict over the runs (pass:
#                          every run passed, median: more than half did,
#                          fail) and the runs and passes (scripts/repeat.awk)
#   ranges.tsv             kernel, scenario, column, n, median, min, max
#   kernels.tsv            the run's kernels (run-1's)
#   report.md              the table of medians and ranges
# Exit status: 0 every verdict passes on every run, 3 otherwise, 1 no
# report (bad input).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: repeat-report.sh DIR}
runs=$(repeat_runs "$dir")
[ -n "$runs" ] || die "$dir: no runs (run-1, run-2, ...)"
for r in $runs; do
	[ -s "$r/summary.tsv" ] || die "$r: no summary.tsv; was it reported (report.sh)?"
done
cp "$(printf '%s\n' "$runs" | head -n 1)/kernels.tsv" "$dir/kernels.tsv"
# The ranges of what the runs measured (ends.tsv); summary.tsv's own
# numbers are made from them.
for table in ends summary; do
	r=
	[ $table = summary ] || r=$dir/ranges.tsv
	# shellcheck disable=SC2086 # one run directory per word
	repeat_over $table.tsv "$r" $runs >"$dir/$table.tsv.tmp"
	mv "$dir/$table.tsv.tmp" "$dir/$table.tsv"
done

# The Markdown report: the median of each measure and its range.
{
	printf '# NUMA tiering lab: %s\n\n' "$(tsv_awk '{ printf "%s ", col("kernel") }' "$dir/kernels.tsv")"
	[ ! -s "$dir/versions.txt" ] || { sed 's/^/- /' "$dir/versions.txt"; echo; }
	cat <<'EOT'
Each cell is the median of the runs and, in brackets, the lowest and the
highest run.  The columns are those of a single run's report (`run-N/`
holds each run's own report, tables and plot); *runs* counts the runs
that passed, and the verdict is *pass* when every run passed, *median*
when more than half did, *fail* otherwise.  t90 in whole seconds,
rounded up, *never*: not within the run.

| kernel | scenario | name | mode | run s | top % | local % | t90 s | PTE updates | hint faults | runs | verdict |
|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|
EOT
	tsv_awk '
	function cell(k, s, c) { return m[k, s, c] " [" lo[k, s, c] "-" hi[k, s, c] "]" }
	FILENAME == ranges {
		k = col("kernel"); s = col("scenario"); c = col("column")
		m[k, s, c] = col("median"); lo[k, s, c] = col("min"); hi[k, s, c] = col("max")
		next
	}
	{
		k = col("kernel"); s = col("scenario")
		t90 = t90_secs(m[k, s, "t90"], "never") " [" t90_secs(lo[k, s, "t90"], "never") "-" \
			t90_secs(hi[k, s, "t90"], "never") "]"
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s |\n", k, s, col("name"), col("mode"), \
			cell(k, s, "secs"), cell(k, s, "top_pct"), cell(k, s, "local_pct"), t90, cell(k, s, "pte_updates"), cell(k, s, "hint_faults"), \
			col("passes"), col("runs"), col("verdict")
	}' -f "$here/t90.awk" -v ranges="$dir/ranges.tsv" "$dir/ranges.tsv" "$dir/summary.tsv"
} >"$dir/report.md"

tsv_awk 'col("verdict") != "pass" { printf "%s scenario %s: %s (%s of %s runs passed)\n", col("kernel"), col("scenario"), col("verdict"), col("passes"), col("runs") }' \
	"$dir/summary.tsv" >&2
tsv_awk 'col("verdict") != "pass" { bad = 1 } END { exit !bad }' "$dir/summary.tsv" && exit 3
exit 0
