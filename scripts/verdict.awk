# SPDX-License-Identifier: GPL-2.0
# awk -f tsv.awk -f verdict.awk KERNELS SCENARIOS EXPECT... ENDS SKIPS SAMPLES
# Judge every kernel x scenario row of ENDS (parse-console.awk) against the
# rules of the EXPECT files and print summary.tsv.  Every file is read by
# its header's column names (tsv.awk); SKIPS and SAMPLES may be empty.
#
# KERNELS: the run's kernels.tsv: kernel, kind (base, series, peer),
# base_kernel (the base a "base" rule compares with), patches (how many
# patches of its series a series kernel has).
# SCENARIOS: lab/scenarios.tsv; its programs are the scenarios' processes.
#
# EXPECT rows: scenario (a regex of ids), kind, metric, op, value, todo.
#   kind   a comma-separated list of: any, base, series, peer, series:A-B
#          (a series kernel with A to B patches; series:-3, series:4-)
#   op     ge, le, eq            metric compared with value
#          within_base_pct       |metric - base's| <= value % of base's (or both 0)
#          le_base               metric <= base's metric + value
#          ge_base               metric >= base's metric - value
#   value  a number, or the name of a column of ENDS: that column of the
#          row judged (hot_bytes: the size of the scenario's hot set)
#   todo   optional, a known problem: a row that fails only such rules gets
#          that text in its "todo" column (check.sh reports a TAP TODO).
# Metrics: the columns of ENDS, COLUMN_per_s (COLUMN / secs), skip:REASON
# (bytes of distinct VMAs of the scenario's processes skipped for REASON)
# and reach:PCT (seconds until the sampled local share, local_pct, first
# reached PCT %, or 1e9 if never).  local_pct is the share of the hot set
# on the nodes of the CPUs the workload runs on (lab.h): the top tier
# unless the scenario pins it to one CPU.  The base of a row is the row of
# the same scenario on the kernel's base_kernel.

function num(x) { return (x == "NA" || x == "") ? "NA" : x + 0 }

function error(msg) {
	print "verdict.awk: " msg > "/dev/stderr"
	bad = 1
	exit 2
}

function is_number(x) { return x ~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }

function metric(k, s, m,    r) {
	if (m ~ /^reach:/) {
		r = substr(m, 7)
		return ((k SUBSEP s SUBSEP r) in reach) ? reach[k, s, r] : 1e9
	}
	if (m ~ /^skip:/) {
		r = substr(m, 6)
		return ((k SUBSEP s SUBSEP r) in skip) ? skip[k, s, r] : 0
	}
	if (m ~ /_per_s$/ && !(m in endcol)) {
		r = substr(m, 1, length(m) - 6)
		if (num(val[k, s, r]) == "NA" || val[k, s, "secs"] + 0 <= 0)
			return "NA"
		return sprintf("%.1f", val[k, s, r] / val[k, s, "secs"])
	}
	return ((k SUBSEP s SUBSEP m) in val) ? num(val[k, s, m]) : "NA"
}

# The rule's value for row k, s: a number, or a column of that row.
function value(k, s, i) {
	if (is_number(rval[i]))
		return rval[i] + 0
	return num(val[k, s, rval[i]])
}

function check(k, s, i,    x, v, b, ok, bk) {
	x = metric(k, s, rmetric[i])
	v = value(k, s, i)
	if (x == "NA" || v == "NA")
		return 0
	if (rop[i] == "ge") return x + 0 >= v
	if (rop[i] == "le") return x + 0 <= v
	if (rop[i] == "eq") return x + 0 == v
	bk = kbase[k]
	if (!((bk SUBSEP s) in seen))
		return 0
	b = metric(bk, s, rmetric[i])
	if (b == "NA")
		return 0
	if (rop[i] == "le_base") return x + 0 <= b + v
	if (rop[i] == "ge_base") return x + 0 >= b - v
	if (rop[i] == "within_base_pct") {
		if (b + 0 == 0)
			return x + 0 == 0
		ok = (x - b) / b * 100
		return ok <= v && ok >= -v
	}
	return 0
}

# Whether a kind list of EXPECT (checked by kinds_valid) holds kernel k.
function kind_matches(list, k,    n, a, i, r, p) {
	n = split(list, a, ",")
	for (i = 1; i <= n; i++) {
		if (a[i] == "any" || a[i] == kkind[k])
			return 1
		if (kkind[k] != "series" || a[i] !~ /^series:/)
			continue
		split(substr(a[i], 8), r, "-")
		p = kpatch[k] + 0
		if ((r[1] == "" || p >= r[1] + 0) && (r[2] == "" || p <= r[2] + 0))
			return 1
	}
	return 0
}

function kinds_valid(list,    n, a, i) {
	n = split(list, a, ",")
	for (i = 1; i <= n; i++)
		if (a[i] !~ /^(any|base|series|peer|series:([0-9]+-[0-9]*|-[0-9]+))$/)
			return 0
	return n > 0
}

# "file:line:" of rule i, for error messages.
function where(i) { return rfile[i] ":" rline[i] ": " }

BEGIN {
	if (ARGC < 7)
		error("usage: awk -f tsv.awk -f verdict.awk KERNELS SCENARIOS EXPECT... ENDS SKIPS SAMPLES")
	role[ARGV[1]] = "kernels"
	role[ARGV[2]] = "scenarios"
	for (i = 3; i < ARGC - 3; i++)
		role[ARGV[i]] = "expect"
	role[ARGV[ARGC - 3]] = "ends"
	role[ARGV[ARGC - 2]] = "skips"
	role[ARGV[ARGC - 1]] = "samples"
}

NF == 0 { next }

role[FILENAME] == "kernels" {
	k = col("kernel")
	kkind[k] = col("kind")
	kbase[k] = col("base_kernel")
	kpatch[k] = col("patches")
	next
}

role[FILENAME] == "scenarios" {
	# The kernel keeps the first 15 characters of a task's name (comm).
	program[substr(col("program"), 1, 15)] = 1
	next
}

role[FILENAME] == "expect" {
	n++
	rfile[n] = FILENAME; rline[n] = FNR
	rscn[n] = col("scenario"); rkind[n] = col("kind"); rmetric[n] = col("metric")
	rop[n] = col("op"); rval[n] = col("value"); rtodo[n] = col("todo")
	if (rval[n] == "")
		error(where(n) "a rule needs scenario, kind, metric, op and value")
	if (!kinds_valid(rkind[n]))
		error(where(n) "unknown kind \"" rkind[n] "\" (any, base, series, peer, series:A-B, comma-separated)")
	if (rop[n] !~ /^(ge|le|eq|within_base_pct|le_base|ge_base)$/)
		error(where(n) "unknown op \"" rop[n] "\"")
	next
}

role[FILENAME] == "ends" {
	if (!ncols) {
		ncols = split(tsv_header(), cols, "\t")
		for (i = 1; i <= ncols; i++)
			endcol[cols[i]] = 1
	}
	k = col("kernel"); s = col("scenario")
	if (!(k in kkind))
		error(FILENAME ":" FNR ": kernel " k " is not in " ARGV[1])
	if (col("kind") != kkind[k])
		error(FILENAME ":" FNR ": kernel " k " is of kind " col("kind") " here, " kkind[k] " in " ARGV[1])
	for (i = 1; i <= ncols; i++)
		val[k, s, cols[i]] = $i
	if (!((k SUBSEP s) in seen))
		order[++rows] = k SUBSEP s
	seen[k, s] = 1
	next
}

role[FILENAME] == "skips" {
	# Only the scenario's own processes (the programs of the scenario
	# table, their children and threads keep the name) count: init,
	# skipstat and short-lived helpers are tasks NUMA balancing scans too,
	# but whether one of them is scanned while a scenario runs is timing,
	# not the workload.
	if (!(col("comm") in program))
		next
	k = col("kernel"); s = col("scenario"); r = col("reason")
	if (!((k SUBSEP s SUBSEP r) in skip))
		skiporder[++nskip] = k SUBSEP s SUBSEP r
	skip[k, s, r] += col("bytes")
	next
}

role[FILENAME] == "samples" {
	# The first time each threshold is reached.
	k = col("kernel"); s = col("scenario"); t = col("t") + 0; top = col("local_pct") + 0
	for (p = 50; p <= 100; p += 5)
		if (top >= p && !((k SUBSEP s SUBSEP p) in reach))
			reach[k, s, p] = t
}

END {
	if (bad)
		exit 2
	# A rule on a column ENDS does not have is a renamed or missing
	# column: an error, not a failed verdict.
	for (i = 1; i <= n; i++) {
		m = rmetric[i]
		if (m ~ /_per_s$/ && !(m in endcol))
			m = substr(m, 1, length(m) - 6)
		if (m !~ /^(reach:[0-9]+|skip:.+)$/ && !(m in endcol))
			error(where(i) "metric \"" rmetric[i] "\" is not a column of " ARGV[ARGC - 3])
		if (!is_number(rval[i]) && !(rval[i] in endcol))
			error(where(i) "value \"" rval[i] "\" is neither a number nor a column of " ARGV[ARGC - 3])
	}
	print "kernel", "kind", "scenario", "name", "mode", "top_pct", "local_pct", "t90", "pte_updates_per_s", "hint_faults_per_s", "pgpromote_success", "skipped_bytes", "checks", "failed", "verdict", "todo"
	for (r = 1; r <= rows; r++) {
		split(order[r], a, SUBSEP)
		k = a[1]; s = a[2]
		checks = failed = todo = ""
		unknown = 0
		for (i = 1; i <= n; i++) {
			if (s !~ ("^(" rscn[i] ")$") || !kind_matches(rkind[i], k))
				continue
			c = rmetric[i] " " rop[i] " " rval[i]
			checks = checks (checks == "" ? "" : ", ") c
			if (!check(k, s, i)) {
				failed = failed (failed == "" ? "" : ", ") c " (got " metric(k, s, rmetric[i]) \
					(is_number(rval[i]) ? "" : ", " rval[i] " " value(k, s, i)) ")"
				if (rtodo[i] == "")
					unknown++
				else
					todo = rtodo[i]
			}
		}
		sk = ""
		for (j = 1; j <= nskip; j++) {
			split(skiporder[j], b, SUBSEP)
			if (b[1] == k && b[2] == s)
				sk = sk (sk == "" ? "" : ";") b[3] "=" skip[skiporder[j]]
		}
		print k, kkind[k], s, val[k, s, "name"], val[k, s, "mode"], val[k, s, "top_pct"], val[k, s, "local_pct"], val[k, s, "t90"], \
			metric(k, s, "pte_updates_per_s"), metric(k, s, "hint_faults_per_s"), \
			val[k, s, "pgpromote_success"], (sk == "" ? "-" : sk), (checks == "" ? "-" : checks), \
			(checks == "" ? "no expectation for this scenario" : failed == "" ? "-" : failed), (checks == "" || failed != "" ? "fail" : "pass"), \
			(failed != "" && !unknown && todo != "" ? todo : "-")
	}
}
