# SPDX-License-Identifier: GPL-2.0
# compare.awk BASE_CONSOLE SERIES_CONSOLE: compare two kselftest guest runs
# (console logs of the guest's kselftest run, lab.run=kselftest, on a base
# and on a series kernel).
# Prints a table: test, base result, series result, seconds on each, note;
# then the TAP cases (ok / not ok lines of each test) whose result differs.
# Exits 1 when a test that passes on the base does not pass on the series
# (fails, or is missing because the series guest stopped early), 2 on a
# usage error, 0 otherwise.  Only "@@ " lines and TAP lines are read.
#   awk -f scripts/at-line.awk -f compare.awk base.log series.log
#   awk -v cases=all -f scripts/at-line.awk -f compare.awk ...	print every TAP case, not only changes

function fail_usage(msg) {
	print "compare.awk: " msg > "/dev/stderr"
	usage_error = 1
	exit 2
}

function add_test(t) {
	if (!(t in seen)) {
		seen[t] = 1
		order[++ntests] = t
	}
}

BEGIN {
	if (ARGC != 3)
		fail_usage("usage: awk -f at-line.awk -f compare.awk BASE_CONSOLE SERIES_CONSOLE")
}

FNR == 1 {
	side = (++nfile == 1) ? "base" : "series"
	current = ""
}

{
	line = $0
	if (at_line(line)) {
		tag = at_tag
		if (tag == "kselftest-begin") {
			current = at_val["name"]
			delete ncase
		} else if (tag == "kselftest" && ("name" in at_val)) {
			add_test(at_val["name"])
			res[side, at_val["name"]] = at_val["result"] (("why" in at_val) ? "(" at_val["why"] ")" : "")
			ok[side, at_val["name"]] = at_val["result"]
			secs[side, at_val["name"]] = at_val["secs"]
			current = ""
		} else if (tag == "done") {
			done[side] = 1
		}
		next
	}
	# TAP result lines of the running test, not the nested "# ok" ones.
	if (current != "" && match(line, /^(not ok|ok) [0-9]+ /)) {
		r = (substr(line, 1, 3) == "not") ? "fail" : "pass"
		desc = substr(line, RLENGTH + 1)
		if (desc ~ /# *(SKIP|skip)/)
			r = "skip"
		else if (desc ~ /# *XFAIL/)
			r = "xfail"
		sub(/ *#.*$/, "", desc)
		key = current ": " desc
		if (++ncase[key] > 1)
			key = key " #" ncase[key]
		if (!(key in cseen)) {
			cseen[key] = 1
			corder[++ncases] = key
		}
		cres[side, key] = r
	}
}

END {
	if (usage_error)
		exit 2
	fmt = "%-28s %-16s %-16s %7s %7s  %s\n"
	printf fmt, "test", "base", "series", "base_s", "ser_s", "note"
	for (i = 1; i <= ntests; i++) {
		t = order[i]
		b = ((("base", t) in res) ? res["base", t] : "-")
		s = ((("series", t) in res) ? res["series", t] : "-")
		note = ""
		if (ok["base", t] == "pass" && ok["series", t] != "pass") {
			note = "REGRESSION"
			regressions++
		} else if (ok["base", t] == "fail" && ok["series", t] == "pass") {
			note = "fixed"
		} else if (ok["base", t] != ok["series", t]) {
			note = "changed"
		}
		printf fmt, t, b, s, ((("base", t) in secs) ? secs["base", t] : "-"), \
			((("series", t) in secs) ? secs["series", t] : "-"), note
	}
	header = 0
	for (i = 1; i <= ncases; i++) {
		k = corder[i]
		b = ((("base", k) in cres) ? cres["base", k] : "-")
		s = ((("series", k) in cres) ? cres["series", k] : "-")
		if (b == s && cases != "all")
			continue
		if (!header) {
			printf "\n%-8s %-8s %s\n", "base", "series", (cases == "all" ? "TAP cases" : "TAP cases that differ")
			header = 1
		}
		printf "%-8s %-8s %s\n", b, s, k
	}
	if (!done["base"])
		printf "\nnote: %s has no '@@ done': the base guest did not finish\n", ARGV[1]
	if (!done["series"])
		printf "\nnote: %s has no '@@ done': the series guest did not finish\n", ARGV[2]
	printf "\n%d test(s), %d regression(s)\n", ntests, regressions
	exit regressions ? 1 : 0
}
