#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# report.sh DIR: from DIR/{ends,samples,skips}.tsv write DIR/summary.tsv
# (verdicts against lab/expect.tsv), DIR/report.md and DIR/top-tier.png,
# and print the table.  Exits non-zero when any verdict is "fail".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: report.sh DIR}
expect=${LAB_EXPECT:-$here/../lab/expect.tsv}
[ -s "$dir/ends.tsv" ] || die "$dir/ends.tsv: no scenario results to report"
touch "$dir/skips.tsv" "$dir/samples.tsv"
awk -f "$here/verdict.awk" "$expect" "$dir/ends.tsv" "$dir/skips.tsv" "$dir/samples.tsv" >"$dir/summary.tsv"

# The Markdown report: the summary table, then the plot.
{
	printf '# NUMA tiering lab: %s\n\n' "$(cat "$dir/kernels" 2>/dev/null | tr '\n' ' ')"
	printf 'Top-tier share of the hot set at the end, seconds to 90 %%, rates over\n'
	printf 'the run, bytes of VMAs skipped per `sched_skip_vma_numa` reason.\n\n'
	awk -F'\t' 'NR == 1 {
		print "| kernel | scenario | name | mode | top % | t90 s | PTE upd/s | hint flt/s | skipped bytes | verdict |"
		print "|---|---|---|---|---:|---:|---:|---:|---|---|"
		next
	}
	{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s |\n", $1, $3, $4, $5, $6, $7, $8, $9, $11, $14, ($14 == "fail" ? ": " $13 : "")
	}' "$dir/summary.tsv"
	printf '\n![top-tier share over time](top-tier.png)\n'
} >"$dir/report.md"

# One panel per scenario, one line per kernel.
if command -v gnuplot >/dev/null 2>&1 && [ -s "$dir/samples.tsv" ]; then
	pdir=$dir/plot-data
	rm -rf "$pdir"
	mkdir -p "$pdir"
	awk -F'\t' -v d="$pdir" '{ f = d "/" $3 "@" $1 ".dat"; print $4, $5 > f }' "$dir/samples.tsv"
	scenarios=$(ls "$pdir" | sed 's/@.*//' | sort -u -n)
	n=$(printf '%s\n' $scenarios | wc -l)
	cols=4
	rows=$(( (n + cols - 1) / cols ))
	{
		printf 'set terminal pngcairo size %d,%d font ",9"\n' $((cols * 360)) $((rows * 260))
		printf 'set output "%s"\n' "$dir/top-tier.png"
		printf 'set multiplot layout %d,%d title "Top-tier share of the hot set over time"\n' "$rows" "$cols"
		printf 'set yrange [0:105]\nset xlabel "s"\nset ylabel "top tier %%"\nset key bottom right\nset grid\n'
		for s in $scenarios; do
			name=$(awk -F'\t' -v s="$s" '$3 == s { print $4; exit }' "$dir/summary.tsv")
			printf 'set title "scenario %s %s"\n' "$s" "$name"
			printf 'plot '
			sep=
			for f in "$pdir/$s"@*.dat; do
				k=${f##*@}
				printf '%s"%s" using 1:2 with lines lw 2 title "%s"' "$sep" "$f" "${k%.dat}"
				sep=', '
			done
			printf '\n'
		done
		printf 'unset multiplot\n'
	} >"$dir/plot.gp"
	gnuplot "$dir/plot.gp" 2>"$dir/plot.log" || die "gnuplot failed; see $dir/plot.log"
fi

# The terminal table: what a reader scans first; the rest is in the files.
cut -f1,3,4,5,6,7,8,9,11,14 "$dir/summary.tsv" | column -t -s "$(printf '\t')"
! awk -F'\t' 'NR > 1 && $14 != "pass" { bad = 1 } END { exit !bad }' "$dir/summary.tsv"
