# SPDX-License-Identifier: GPL-2.0
# t90.awk: the time to 90 % as the reports print it.  The guest samples
# once a second, so a t90 is given in whole seconds, rounded up; one that
# was never reached (negative or NA) prints as NEVER.
function t90_secs(x, never) {
	if (x == "NA" || x < 0)
		return never
	return sprintf("%d", x == int(x) ? x : int(x) + 1)
}
