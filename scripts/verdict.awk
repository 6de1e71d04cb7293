# SPDX-License-Identifier: GPL-2.0
# verdict.awk EXPECT ENDS SKIPS SAMPLES: judge every kernel x scenario row of ENDS
# (from parse-console.awk) against the rules of EXPECT and print summary.tsv.
#
# EXPECT rows: scenario-regex, kind (base|series|any), metric, op, value,
# and optionally a known problem: a row that fails only such rules gets
# that text in its "todo" column (check.sh reports it as a TAP TODO).
#   op: ge, le, eq            metric compared with value
#       within_base_pct       |metric - base's| <= value % of base's (or both 0)
#       le_base               metric <= base's metric + value
#       ge_base               metric >= base's metric - value
# Metrics: the columns of ENDS, *_per_s rates, skip:REASON (bytes of
# distinct VMAs of the scenario's processes skipped for REASON) and reach:PCT (seconds
# until the sampled top-tier share first reached PCT %, or 1e9 if never).
# A series row's "base" is the row of the same scenario on "<version>-base".

function num(x) { return (x == "NA" || x == "") ? "NA" : x + 0 }

function metric(k, s, m,    r) {
	if (m ~ /^reach:/) {
		r = substr(m, 7)
		return ((k SUBSEP s SUBSEP r) in reach) ? reach[k, s, r] : 1e9
	}
	if (m ~ /^skip:/) {
		r = substr(m, 6)
		return ((k SUBSEP s SUBSEP r) in skip) ? skip[k, s, r] : 0
	}
	if (m ~ /_per_s$/) {
		r = substr(m, 1, length(m) - 6)
		if (val[k, s, r] == "NA" || val[k, s, "secs"] + 0 <= 0)
			return "NA"
		return sprintf("%.1f", val[k, s, r] / val[k, s, "secs"])
	}
	return ((k SUBSEP s SUBSEP m) in val) ? num(val[k, s, m]) : "NA"
}

function basename_of(k) {
	sub(/-[^-]*$/, "", k)
	return k "-base"
}

function check(k, s, i,    x, b, ok, bk) {
	x = metric(k, s, rmetric[i])
	if (x == "NA")
		return 0
	if (rop[i] == "ge") return x + 0 >= rval[i] + 0
	if (rop[i] == "le") return x + 0 <= rval[i] + 0
	if (rop[i] == "eq") return x + 0 == rval[i] + 0
	bk = basename_of(k)
	if (!((bk SUBSEP s) in seen))
		return 0
	b = metric(bk, s, rmetric[i])
	if (b == "NA")
		return 0
	if (rop[i] == "le_base") return x + 0 <= b + rval[i]
	if (rop[i] == "ge_base") return x + 0 >= b - rval[i]
	if (rop[i] == "within_base_pct") {
		if (b + 0 == 0)
			return x + 0 == 0
		ok = (x - b) / b * 100
		return ok <= rval[i] + 0 && ok >= -rval[i]
	}
	return 0
}

BEGIN { FS = OFS = "\t" }

FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || NF < 5)
		next
	n++
	rscn[n] = $1; rkind[n] = $2; rmetric[n] = $3; rop[n] = $4; rval[n] = $5
	rtodo[n] = (NF >= 6) ? $6 : ""
	next
}

FILENAME == ARGV[2] {
	# kernel kind scenario name mode secs top_pct t90 pte_updates huge_pte_updates
	# hint_faults hint_faults_local pages_migrated pgpromote_success
	# pgpromote_candidate pgdemote scan_passes
	ncols = split("name mode secs top_pct t90 pte_updates huge_pte_updates hint_faults hint_faults_local pages_migrated pgpromote_success pgpromote_candidate pgdemote scan_passes", cols, " ")
	for (i = 1; i <= ncols; i++)
		val[$1, $3, cols[i]] = $(i + 3)
	if (!(($1 SUBSEP $3) in seen))
		order[++rows] = $1 SUBSEP $2 SUBSEP $3
	seen[$1, $3] = 1
	next
}

FILENAME == ARGV[3] {
	# kernel kind scenario comm pid reason events vmas bytes
	# Only the scenario's own processes (lab/guest/sN-*.c, their children
	# and threads keep the name) count: init, skipstat and short-lived
	# helpers are tasks NUMA balancing scans too, but whether one of them
	# is scanned while a scenario runs is timing, not the workload.
	if ($4 !~ /^s[0-9]+-/)
		next
	skip[$1, $3, $6] += $9
	next
}

{
	# kernel kind scenario t top_pct ...: first time each threshold is reached
	for (p = 50; p <= 100; p += 5)
		if ($5 + 0 >= p && !(($1 SUBSEP $3 SUBSEP p) in reach))
			reach[$1, $3, p] = $4 + 0
}

END {
	print "kernel", "kind", "scenario", "name", "mode", "top_pct", "t90", "pte_updates_per_s", "hint_faults_per_s", "pgpromote_success", "skipped_bytes", "checks", "failed", "verdict", "todo"
	for (r = 1; r <= rows; r++) {
		split(order[r], a, SUBSEP)
		k = a[1]; kd = a[2]; s = a[3]
		checks = failed = todo = ""
		unknown = 0
		for (i = 1; i <= n; i++) {
			if (s !~ ("^(" rscn[i] ")$") || (rkind[i] != "any" && rkind[i] != kd))
				continue
			c = rmetric[i] " " rop[i] " " rval[i]
			checks = checks (checks == "" ? "" : ", ") c
			if (!check(k, s, i)) {
				failed = failed (failed == "" ? "" : ", ") c " (got " metric(k, s, rmetric[i]) ")"
				if (rtodo[i] == "")
					unknown++
				else
					todo = rtodo[i]
			}
		}
		sk = ""
		for (key in skip) {
			split(key, b, SUBSEP)
			if (b[1] == k && b[2] == s)
				sk = sk (sk == "" ? "" : ";") b[3] "=" skip[key]
		}
		print k, kd, s, val[k, s, "name"], val[k, s, "mode"], val[k, s, "top_pct"], val[k, s, "t90"], \
			metric(k, s, "pte_updates_per_s"), metric(k, s, "hint_faults_per_s"), \
			val[k, s, "pgpromote_success"], (sk == "" ? "-" : sk), (checks == "" ? "-" : checks), \
			(checks == "" ? "no expectation for this scenario" : failed == "" ? "-" : failed), (checks == "" || failed != "" ? "fail" : "pass"), \
			(failed != "" && !unknown && todo != "" ? todo : "-")
	}
}
