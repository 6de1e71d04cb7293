# SPDX-License-Identifier: GPL-2.0
# awk -f tsv.awk -f repeat.awk [-v ranges=FILE] TABLE...: one table of N
# repeated runs (the same table, ends.tsv or summary.tsv, of each run, all
# with the same columns), one row per kernel and scenario:
#
#   - a numeric column holds the median of the runs (of an even number,
#     the mean of the middle two); a t90 of -1 (never reached) sorts after
#     every time, so the median t90 is -1 when most runs never got there;
#     so does "NA" (not defined in that run, e.g. a cost per MiB where
#     nothing was promoted) in a column of numbers, the median "NA" when
#     most runs have it, the range over the runs with a number;
#   - verdict: "pass" when every run passed, "median" when more than half
#     did (the rules hold for the median run), else "fail"; failed: each
#     failing run's failed checks, "run R: ...";
#   - any other column: the first run's value;
#   - "runs" and "passes" (summary.tsv) are added at the end.
#
# With -v ranges=FILE, every numeric column's minimum and maximum go to
# FILE, as rows of kernel, scenario, column, n, median, min, max
# (appended; the caller writes its header: scripts/lib.sh repeat_over()).  Read by column name, written
# in the tables' order.

function is_number(x) { return x ~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }

# sort_numbers(list, n): list[1..n] in ascending order (mawk has no asort).
function sort_numbers(list, n,    i, j, v) {
	for (i = 2; i <= n; i++) {
		v = list[i]
		for (j = i - 1; j >= 1 && list[j] > v; j--)
			list[j + 1] = list[j]
		list[j + 1] = v
	}
}

# fmt(x, point): x as the runs wrote it, with one decimal when they did.
function fmt(x, point) { return (point || x != int(x)) ? sprintf("%.1f", x) : sprintf("%d", x) }

{
	# tsv.awk takes each file's first line (its header) for itself:
	# count the runs by file name.
	if (FILENAME != cur_file) {
		file++
		cur_file = FILENAME
	}
	if (!ncols) {
		ncols = split(tsv_header(), names, "\t")
		for (i = 1; i <= ncols; i++)
			is_col[names[i]] = 1
	}
	k = col("kernel") SUBSEP col("scenario")
	if (!(k in nruns))
		order[++nkeys] = k
	r = ++nruns[k]
	run_of[k, r] = file
	for (i = 1; i <= ncols; i++)
		val[k, r, i] = col(names[i])
}

END {
	summary = ("verdict" in is_col)
	printf "%s%s\n", tsv_header(), summary ? "\truns\tpasses" : ""
	for (o = 1; o <= nkeys; o++) {
		k = order[o]
		n = nruns[k]
		split(k, ks, SUBSEP)
		passes = 0
		failed = ""
		for (r = 1; r <= n; r++)
			for (i = 1; i <= ncols; i++)
				if (names[i] == "verdict" && val[k, r, i] == "pass")
					passes++
		line = ""
		for (i = 1; i <= ncols; i++) {
			c = names[i]
			numeric = 1
			defined = 0
			for (r = 1; r <= n; r++)
				if (is_number(val[k, r, i]))
					defined++
				else if (val[k, r, i] != "NA")
					numeric = 0
			numeric = numeric && defined
			if (c == "verdict") {
				v = passes == n ? "pass" : (passes * 2 > n ? "median" : "fail")
			} else if (c == "failed") {
				for (r = 1; r <= n; r++)
					if (val[k, r, i] != "-" && val[k, r, i] != "")
						failed = failed (failed == "" ? "" : "; ") "run " run_of[k, r] ": " val[k, r, i]
				v = failed == "" ? "-" : failed
			} else if (numeric && c != "scenario" && c != "mode") {
				point = 0
				for (r = 1; r <= n; r++) {
					point = point || index(val[k, r, i], ".")
					x = val[k, r, i] + 0
					list[r] = (c == "t90" && x < 0) || val[k, r, i] == "NA" ? 1e18 : x
				}
				sort_numbers(list, n)
				med = (n % 2) ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
				lo = list[1]
				hi = list[defined]
				if (c == "t90") {
					med = med >= 1e17 ? -1 : med
					lo = lo >= 1e17 ? -1 : lo
					hi = hi >= 1e17 ? -1 : hi
				}
				v = med >= 1e17 ? "NA" : fmt(med, point)
				lo = fmt(lo, point)
				hi = fmt(hi, point)
				if (c == "t90") {	# never reached: -1, as the runs wrote it
					v = v < 0 ? -1 : v
					lo = lo < 0 ? -1 : lo
					hi = hi < 0 ? -1 : hi
				}
				if (ranges != "")
					printf "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", ks[1], ks[2], c, defined, v, lo, hi >> ranges
			} else {
				v = val[k, 1, i]
			}
			line = line (i > 1 ? "\t" : "") v
		}
		if (summary)
			line = line "\t" n "\t" passes
		print line
	}
}
