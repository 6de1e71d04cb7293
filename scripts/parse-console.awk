# SPDX-License-Identifier: GPL-2.0
# parse-console.awk -v kernel=NAME -v kind=base|series -v dir=OUTDIR CONSOLE
# Turns the guest's "@@ " lines into tab-separated rows appended to
# OUTDIR/samples.tsv, OUTDIR/ends.tsv, OUTDIR/skips.tsv and OUTDIR/errors.tsv,
# and OUTDIR/cpu.tsv for the "@@ cpu" lines of damon-run (lab.cpu=1,
# lab.damon=1; a normal run has none and gets no cpu.tsv).
# Everything else on the console is prose and ignored.

function kv(    i, n, f, k) {
	delete v
	n = split(rest, f, " ")
	for (i = 1; i <= n; i++) {
		k = index(f[i], "=")
		if (k > 1)
			v[substr(f[i], 1, k - 1)] = substr(f[i], k + 1)
	}
}

function get(k) {
	return (k in v) ? v[k] : "NA"
}

BEGIN {
	OFS = "\t"
	samples = dir "/samples.tsv"
	ends = dir "/ends.tsv"
	skips = dir "/skips.tsv"
	errors = dir "/errors.tsv"
	cpu = dir "/cpu.tsv"
	nend = split("name mode secs top_pct t90 pte_updates huge_pte_updates hint_faults hint_faults_local pages_migrated pgpromote_success pgpromote_candidate pgdemote scan_passes", endkeys, " ")
}

{
	# Serial output may carry a kernel message glued in front; anchor on "@@ ".
	p = index($0, "@@ ")
	if (!p)
		next
	line = substr($0, p + 3)
	tag = line
	sub(/ .*/, "", tag)
	rest = substr(line, length(tag) + 2)
	kv()
}

tag == "boot" {
	boot_seen = 1
	lower = get("lower_tier")
	vmstat = get("vmstat")
}

tag == "begin" {
	name[get("scenario")] = get("name")
	mode[get("scenario")] = get("mode")
}

tag == "sample" {
	print kernel, kind, get("scenario"), get("t"), get("top_pct"), get("pte_updates"), get("hint_faults"), get("pgpromote_success"), get("pages_migrated") >> samples
}

tag == "skip" {
	print kernel, kind, get("scenario"), get("comm"), get("pid"), get("reason"), get("events"), get("vmas"), get("bytes") >> skips
}

tag == "end" {
	s = get("scenario")
	v["name"] = (s in name) ? name[s] : "NA"
	v["mode"] = (s in mode) ? mode[s] : "NA"
	row = kernel OFS kind OFS s
	for (i = 1; i <= nend; i++)
		row = row OFS get(endkeys[i])
	print row >> ends
}

tag == "cpu" {
	print kernel, kind, get("scenario"), get("mech"), get("secs"), get("user_ms"), get("sys_ms"), get("kdamond_ms"), get("promoted_bytes"), get("demoted_bytes") >> cpu
}

tag == "error" {
	print kernel, kind, get("scenario"), get("msg") >> errors
}

END {
	if (!boot_seen) {
		print "no boot line from the guest" > "/dev/stderr"
		exit 2
	}
	if (lower != "yes") {
		print "node 1 is not in a lower memory tier than node 0 in this guest (no ACPI HMAT tiers?): no results" > "/dev/stderr"
		exit 3
	}
	if (vmstat != "yes") {
		print "the guest kernel has no NUMA balancing counters in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS=y missing from its config?): no results" > "/dev/stderr"
		exit 3
	}
}
