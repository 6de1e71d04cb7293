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
tsv_awk '
function t90(x) { return (x == "-1" || x == "NA") ? "never" : x "s" }
FILENAME == ends { pte[col("kernel"), col("scenario")] = col("pte_updates"); next }
col("kernel") == b || col("kernel") == s {
	k = col("kernel"); c = col("scenario")
	if (!(c in seen)) { order[++n] = c; seen[c] = 1 }
	name[c] = col("name"); mode[c] = col("mode")
	top[k, c] = col("top_pct") "%"; reach[k, c] = t90(col("t90"))
}
END {
	printf "Two-tier QEMU guest (node 1 CPU-less, lower tier via ACPI HMAT),\n"
	printf "top-tier share of the hot set at the end of the run, time to 90%%,\n"
	printf "PTE updates in the run (the same time on both kernels; 6.0-6.4 the\n"
	printf "same number of scan passes), %s vs %s, one make\n", b, s
	printf "%s run:\n\n", target
	printf "  %-5s %-14s %4s | %7s %6s %9s | %7s %6s %9s\n", "scn", "workload", "mode", "base", "t90", "PTE upd", "series", "t90", "PTE upd"
	for (i = 1; i <= n; i++) {
		c = order[i]
		printf "  %-5s %-14s %4s | %7s %6s %9s | %7s %6s %9s\n", c, name[c], mode[c], \
			top[b, c], reach[b, c], pte[b, c], top[s, c], reach[s, c], pte[s, c]
	}
}' -v b="$base" -v s="$series" -v target="$target" -v ends="$ends" "$summary" "$ends"
