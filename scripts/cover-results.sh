#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cover-results.sh SUMMARY BASE SERIES [TARGET]: the lab table of a cover
# letter, base vs series per scenario, from a summary.tsv of one lab run
# of make TARGET (check by default) and the ends.tsv beside it (PTE
# updates of each run: both kernels ran every scenario for the same time,
# or 6.0-6.4 for the same scan passes).  Both are read by column name.
# Of a REPEAT run (scripts/repeat-report.sh) they hold medians, and the
# ranges.tsv beside them the lowest and highest run: each scenario then
# gets a second line with those.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

summary=${1:?usage: cover-results.sh SUMMARY BASE SERIES}
base=${2:?usage: cover-results.sh SUMMARY BASE SERIES}
series=${3:?usage: cover-results.sh SUMMARY BASE SERIES}
target=${4:-check}
ends=$(dirname "$summary")/ends.tsv
ranges=$(dirname "$summary")/ranges.tsv
[ -s "$ranges" ] || ranges=/dev/null
# How the run was made: the commit, and command and date where the run
# recorded them (versions.txt).
made=$(sed -n 's/^repository commit \(.*\)/repository commit \1/p; s/^command: .*, \(.* UTC\)$/\1/p; s/^runs: \([0-9]*\) .*/\1 run(s) per kernel and scenario/p' \
	"$(dirname "$summary")/versions.txt" 2>/dev/null | paste -sd, - | sed 's/,/, /g')
tsv_awk '
function span(k, c, column, t) {
	if (!((k SUBSEP c SUBSEP column) in lo))
		return "-"
	if (t)
		return lo[k, c, column] == hi[k, c, column] ? "[" t90_secs(lo[k, c, column], "never") "]" : \
			"[" t90_secs(lo[k, c, column], "-") "-" t90_secs(hi[k, c, column], "never") "]"
	return lo[k, c, column] == hi[k, c, column] ? "[" lo[k, c, column] "]" : "[" lo[k, c, column] "-" hi[k, c, column] "]"
}
FILENAME == ranges {
	lo[col("kernel"), col("scenario"), col("column")] = col("min")
	hi[col("kernel"), col("scenario"), col("column")] = col("max")
	nranges++
	next
}
FILENAME == ends {
	pte[col("kernel"), col("scenario")] = col("pte_updates")
	secs[col("kernel"), col("scenario")] = sprintf("%.0f", col("secs"))
	next
}
col("kernel") == b || col("kernel") == s {
	k = col("kernel"); c = col("scenario")
	if (!(c in seen)) { order[++n] = c; seen[c] = 1 }
	name[c] = col("name"); mode[c] = col("mode")
	top[k, c] = col("local_pct") "%"; reach[k, c] = t90_secs(col("t90"), "-")
}
END {
	printf "QEMU guest with two DRAM nodes (a CPU each) and a CPU-less lower\n"
	printf "tier (node 2, via ACPI HMAT),\n"
	printf "%s vs %s, make %s%s.\n", b, s, target, (made == "" ? "" : " (" made ")")
	printf "Per kernel: share of the hot set at the end of the run on the node\n"
	printf "of its CPU where the scenario pins it to one (-c), else on the top\n"
	printf "tier;\n"
	printf "t90: seconds to 90 %%, the first of the once-a-second samples at\n"
	printf "or above it, rounded up (-: not within the run); run: its seconds;\n"
	printf "PTE updates in the run (the same time on both kernels; 6.0-6.4 the\n"
	printf "same number of scan passes).\n"
	if (nranges)
		printf "Each cell is the median of the runs; the line below it gives the\nlowest and highest run of the share, the t90 and the PTE updates.\n"
	printf "\n"
	printf "  %-4s %-12s %4s | %6s %3s %3s %8s | %6s %3s %3s %8s\n", "scn", "workload", "mode", \
		"base", "t90", "run", "PTE upd", "series", "t90", "run", "PTE upd"
	for (i = 1; i <= n; i++) {
		c = order[i]
		printf "  %-4s %-12s %4s | %6s %3s %3s %8s | %6s %3s %3s %8s\n", c, name[c], mode[c], \
			top[b, c], reach[b, c], secs[b, c], pte[b, c], top[s, c], reach[s, c], secs[s, c], pte[s, c]
		if (nranges)
			printf "  %-22s | %s %s %s | %s %s %s\n", "", span(b, c, "local_pct"), span(b, c, "t90", 1), \
				span(b, c, "pte_updates"), span(s, c, "local_pct"), span(s, c, "t90", 1), span(s, c, "pte_updates")
	}
}' -f "$here/t90.awk" -v b="$base" -v s="$series" -v target="$target" -v ends="$ends" -v made="$made" -v ranges="$ranges" "$ranges" "$summary" "$ends"
