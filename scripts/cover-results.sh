#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cover-results.sh SUMMARY BASE SERIES [TARGET]: the lab table of a cover
# letter, base vs series per scenario, from a summary.tsv of one lab run
# of make TARGET (check by default) and the ends.tsv beside it (PTE
# updates of each run: both kernels ran every scenario for the same time,
# or 6.0-6.4 for the same scan passes).  Both are read by column name.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

summary=${1:?usage: cover-results.sh SUMMARY BASE SERIES}
base=${2:?usage: cover-results.sh SUMMARY BASE SERIES}
series=${3:?usage: cover-results.sh SUMMARY BASE SERIES}
target=${4:-check}
ends=$(dirname "$summary")/ends.tsv
# How the run was made: the commit, and command and date where the run
# recorded them (versions.txt).
made=$(sed -n 's/^repository commit \(.*\)/repository commit \1/p; s/^command: .*, \(.* UTC\)$/\1/p; s/^runs: \([0-9]*\) .*/\1 run(s) per kernel and scenario/p' \
	"$(dirname "$summary")/versions.txt" 2>/dev/null | paste -sd, - | sed 's/,/, /g')
tsv_awk '
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
	printf "%s vs %s, one make %s run%s.\n", b, s, target, (made == "" ? "" : " (" made ")")
	printf "Per kernel: share of the hot set at the end of the run on the node\n"
	printf "of its CPU where the scenario pins it to one (-c), else on the top\n"
	printf "tier;\n"
	printf "t90: seconds to 90 %%, the first of the once-a-second samples at\n"
	printf "or above it, rounded up (-: not within the run); run: its seconds;\n"
	printf "PTE updates in the run (the same time on both kernels; 6.0-6.4 the\n"
	printf "same number of scan passes).\n\n"
	printf "  %-4s %-12s %4s | %6s %3s %3s %8s | %6s %3s %3s %8s\n", "scn", "workload", "mode", \
		"base", "t90", "run", "PTE upd", "series", "t90", "run", "PTE upd"
	for (i = 1; i <= n; i++) {
		c = order[i]
		printf "  %-4s %-12s %4s | %6s %3s %3s %8s | %6s %3s %3s %8s\n", c, name[c], mode[c], \
			top[b, c], reach[b, c], secs[b, c], pte[b, c], top[s, c], reach[s, c], secs[s, c], pte[s, c]
	}
}' -f "$here/t90.awk" -v b="$base" -v s="$series" -v target="$target" -v ends="$ends" -v made="$made" "$summary" "$ends"
