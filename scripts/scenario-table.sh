#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scenario-table.sh: the scenario table of lab/README.md, in Markdown, from
# the lab rows of lab/scenarios.tsv (the only list of the scenarios).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# A "|" inside a cell, even in a code span, ends the cell unless escaped.
tsv_awk 'function cell(x) { gsub(/\|/, "\\|", x); return x }
BEGIN {
	print "| # | program | arguments | workload | filter on the base | mode | suites |"
	print "|---|---|---|---|---|---|---|"
}
col("run") == "lab" {
	printf "| %s | `%s` | `%s` | %s | %s | %s | %s |\n", col("id"), cell(col("program")), cell(col("args")), cell(col("workload")), cell(col("filter")), cell(col("mode")), col("suites")
}' "$here/../lab/scenarios.tsv"
