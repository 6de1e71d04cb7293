# SPDX-License-Identifier: GPL-2.0
# ksft-cases.awk -v fixture=NAME CONSOLE...: the cases of a kselftest
# harness fixture in lab consoles, from their TAP lines ("ok N NAME.CASE",
# "not ok N NAME.CASE", "... # SKIP why"), as a table: case and result
# (pass, fail or skip), a row per TAP line, in console order.
BEGIN {
	OFS = "\t"
	print "case", "result"
}

{ sub(/\r$/, "") }

/^(not )?ok [0-9]+ / {
	failed = $1 == "not"
	name = failed ? $4 : $3
	if (index(name, fixture ".") != 1)
		next
	print substr(name, length(fixture) + 2), failed ? "fail" : / # SKIP/ ? "skip" : "pass"
}
