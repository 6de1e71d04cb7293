# SPDX-License-Identifier: GPL-2.0
# ranges.awk: the ranges of repeated runs in the reports' tables.  Load
# after tsv.awk (and t90.awk for range_t90()).  Call range_row() on each
# row of a ranges file (scripts/repeat.awk: kernel, scenario, column, n,
# median, min, max); then a cell X of kernel K, scenario S, column C is
#   range_cell(K, S, C, X)          X [MIN-MAX]
#   range_t90(K, S, C, X, NEVER)    the same with t90_secs() of each end
# where the runs differ, and X alone where they agree or ran once (for
# t90: where they agree in whole sampling steps).
function range_row() {
	range_lo[col("kernel"), col("scenario"), col("column")] = col("min")
	range_hi[col("kernel"), col("scenario"), col("column")] = col("max")
}
function range_differs(k, s, c) {
	return ((k, s, c) in range_lo) && range_lo[k, s, c] != range_hi[k, s, c]
}
function range_cell(k, s, c, x) {
	return range_differs(k, s, c) ? x " [" range_lo[k, s, c] "-" range_hi[k, s, c] "]" : x
}
function range_t90(k, s, c, x, never,    lo, hi) {
	if (!range_differs(k, s, c))
		return x
	lo = t90_secs(range_lo[k, s, c], never)
	hi = t90_secs(range_hi[k, s, c], never)
	# Runs apart by less than a sampling step are shown as one.
	return lo == hi ? x : x " [" lo "-" hi "]"
}
