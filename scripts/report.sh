#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# report.sh DIR [EXPECT...]: from DIR/{ends,samples,skips}.tsv and the run's
# kernels (DIR/kernels.tsv) write DIR/summary.tsv (verdicts against the
# EXPECT files, default lab/expect.tsv), DIR/report.md and
# DIR/top-tier.png, and print the table.  Every table is read by its
# column names.  Exit status: 0 every verdict passes, 3 some verdict
# failed, 1 no report (bad input; no summary.tsv is left).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: report.sh DIR [EXPECT...]}
shift
[ $# -gt 0 ] || set -- "$here/../lab/expect.tsv"
[ -s "$dir/kernels.tsv" ] || die "$dir/kernels.tsv: no list of the run's kernels"
[ -s "$dir/ends.tsv" ] && tsv_awk '{ n++ } END { exit !n }' "$dir/ends.tsv" ||
	die "$dir/ends.tsv: no scenario results to report"
# A guest that printed no skip (lab.trace=0) or sample lines made no table:
# an empty file is one with no rows.
touch "$dir/skips.tsv" "$dir/samples.tsv"
awk -f "$here/tsv.awk" -f "$here/verdict.awk" "$dir/kernels.tsv" "$here/../lab/scenarios.tsv" \
	"$@" "$dir/ends.tsv" "$dir/skips.tsv" "$dir/samples.tsv" >"$dir/summary.tsv.tmp" || {
	rm -f "$dir/summary.tsv.tmp"
	die "no verdicts for $dir (above)"
}
mv "$dir/summary.tsv.tmp" "$dir/summary.tsv"

# The Markdown report: how the run was made, what the columns are, the
# summary table, then the plot.
{
	printf '# NUMA tiering lab: %s\n\n' "$(tsv_awk '{ printf "%s ", col("kernel") }' "$dir/kernels.tsv")"
	[ ! -s "$dir/versions.txt" ] || { sed 's/^/- /' "$dir/versions.txt"; echo; }
	cat <<'EOT'
Columns (`summary.tsv` has them all, by name; `ends.tsv` the raw counts):
- *mode*: `kernel.numa_balancing` (1 placement, 2 tiering, 3 both);
- *run s*: the scenario's measured seconds;
- *top %*: the share of the hot set on the top tier at the end of the run;
- *local %*: its share on the nodes of the CPUs the workload runs on (the
  top tier, unless the scenario pins it to one CPU: `-c`);
- *t90 s*: the first sample with *local %* at or above 90 %; the guest
  samples once a second, so this is whole seconds, rounded up, and one
  second apart is one sample apart; *never*: not within the run;
- *PTE upd/s*, *hint flt/s*: NUMA PTE updates and hinting faults over the run;
- *skipped bytes*: bytes of VMAs `sched_skip_vma_numa` skipped, per reason.

EOT
	tsv_awk 'BEGIN {
		print "| kernel | scenario | name | mode | run s | top % | local % | t90 s | PTE upd/s | hint flt/s | skipped bytes | verdict |"
		print "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"
	}
	FILENAME == ends { secs[col("kernel"), col("scenario")] = col("secs"); next }
	{
		t90 = t90_secs(col("t90"), "never")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s |\n", col("kernel"), col("scenario"), col("name"), col("mode"), \
			secs[col("kernel"), col("scenario")], col("top_pct"), col("local_pct"), t90, col("pte_updates_per_s"), col("hint_faults_per_s"), \
			col("skipped_bytes"), col("verdict"), (col("verdict") == "fail" ? ": " col("failed") : "")
	}' -f "$here/t90.awk" -v ends="$dir/ends.tsv" "$dir/ends.tsv" "$dir/summary.tsv"
	printf '\n![local share over time](top-tier.png)\n'
} >"$dir/report.md"

# One panel per scenario, one line per kernel.
if command -v gnuplot >/dev/null 2>&1 && [ -s "$dir/samples.tsv" ]; then
	pdir=$dir/plot-data
	rm -rf "$pdir"
	mkdir -p "$pdir"
	tsv_awk 'BEGIN { OFS = " " } { f = d "/" col("scenario") "@" col("kernel") ".dat"; print col("t"), col("local_pct") > f }' \
		-v d="$pdir" "$dir/samples.tsv"
	scenarios=$(find "$pdir" -name '*.dat' | sed 's#.*/##; s/@.*//' | sort -u -n)
	# One panel per scenario, titled with its name from summary.tsv.
	tsv_awk '!((col("scenario") "") in name) { name[col("scenario") ""] = col("name") }
		END {
			n = split(list, l, " ")
			for (i = 1; i <= n; i++)
				printf "%s\tscenario %s %s\n", l[i], l[i], name[l[i]]
		}' -v list="$(printf '%s ' $scenarios)" "$dir/summary.tsv" |
		"$here/share-panels.sh" "$dir/top-tier.png" "Share of the hot set on its CPUs' nodes (the top tier unless pinned) over time" 4 360 "$pdir"
fi

# The terminal table: what a reader scans first; the rest is in the files.
tsv_awk 'BEGIN { n = split("kernel scenario name mode top_pct local_pct t90 pte_updates_per_s hint_faults_per_s skipped_bytes verdict", c, " ") }
!hdr++ {
	for (i = 1; i <= n; i++)
		printf "%s%s", c[i], (i < n ? "\t" : "\n")
}
{
	for (i = 1; i <= n; i++)
		printf "%s%s", col(c[i]), (i < n ? "\t" : "\n")
}' "$dir/summary.tsv" | column -t -s "$(printf '\t')"
tsv_awk 'col("verdict") != "pass" { bad = 1 } END { exit !bad }' "$dir/summary.tsv" && exit 3
exit 0
