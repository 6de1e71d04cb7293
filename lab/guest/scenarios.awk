# SPDX-License-Identifier: GPL-2.0
# scenarios.awk: the rows of lab/scenarios.tsv that a run executes, for
# /init (lab/guest/init.sh, as /lab/scenarios.awk) and lab/guest/Makefile.
#   awk -f scripts/tsv.awk -f lab/guest/selection.awk -f lab/guest/scenarios.awk \
#       [-v run=RUN] [-v sel=N,N,...] lab/scenarios.tsv
# Prints one line a row: ID PROGRAM MODE ARGS, tab-separated, fields as in
# the table ("-" for no mode or no arguments: a tab-separated `read` in sh
# would drop an empty field).
#   run   only the rows of this run (lab, debug); empty: every row
#   sel   comma-separated selections, run in the order given, each the
#         rows it takes (selection.awk) in table order.  A selection that
#         takes no row prints its name
#         alone, for the caller to report.  Empty: every row of the run.

run == "" || col("run") == run {
	n++
	id[n] = col("id")
	row[n] = col("id") "\t" col("program") "\t" col("mode") "\t" col("args")
}

END {
	if (sel == "") {
		for (i = 1; i <= n; i++)
			print row[i]
		exit
	}
	ns = split(sel, s, ",")
	for (j = 1; j <= ns; j++) {
		if (s[j] == "")
			continue
		found = 0
		for (i = 1; i <= n; i++) {
			if (selection_takes(s[j], id[i])) {
				print row[i]
				found = 1
			}
		}
		if (!found)
			print s[j]
	}
}
