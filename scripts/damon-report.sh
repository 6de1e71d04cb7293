#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# damon-report.sh DIR: the DAMON peer's report from a run of damon-demo.sh:
# DIR/summary.tsv (report.sh) and DIR/cpu.tsv (damon-run's "@@ cpu" lines),
# read by column name, into DIR/damon-summary.tsv, one row per kernel x
# scenario (the DAMON kernel is of kind peer):
#
#   kernel kind mech scenario name mode top_pct t90 secs user_ms sys_ms
#   kdamond_ms floor_sys_ms cost_ms cost_pct promoted_bytes verdict
#
# cost_ms is the tiering mechanism's CPU time over the measured run:
#   damon  kdamond_ms, both kdamonds' utime+stime;
#   numab  sys_ms - floor_sys_ms: the workload's system time (where NUMA
#          balancing's scans, hinting faults and promotions are accounted)
#          less its system time in the floor run of the same scenario
#          (DIR/floor/cpu.tsv: no tiering mechanism at all, so only its
#          own system calls: the 1 s move_pages(2) probe, ...).
#          Tick-sampled: +-10 ms per process.
# cost_pct is cost_ms as a share of one CPU over the run.  promoted_bytes:
# damon, what migrate_hot applied; numab, pgpromote_success x 4 KiB.
# Then DIR/damon.md (headline table, plot) and the table on stdout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: damon-report.sh DIR}
[ -s "$dir/summary.tsv" ] || die "$dir/summary.tsv: no lab summary (run report.sh first)"
[ -s "$dir/cpu.tsv" ] || die "$dir/cpu.tsv: no CPU accounting; the guests ran without lab.cpu=1 / lab.damon=1"
[ -s "$dir/floor/cpu.tsv" ] || die "$dir/floor/cpu.tsv: no floor run (lab.off=1)"

tsv_awk '
BEGIN {
	OFS = "\t"
	print "kernel", "kind", "mech", "scenario", "name", "mode", "top_pct", "t90", "secs", "user_ms", "sys_ms", "kdamond_ms", "floor_sys_ms", "cost_ms", "cost_pct", "promoted_bytes", "verdict"
}
FILENAME == floor {
	# the floor run: no tiering mechanism, the workload alone
	if (col("mech") == "none")
		floor_sys[col("scenario")] = col("sys_ms")
	next
}
FILENAME == cpu {
	key = col("kernel") SUBSEP col("scenario")
	mech[key] = col("mech"); secs[key] = col("secs"); user[key] = col("user_ms")
	sys[key] = col("sys_ms"); kd[key] = col("kdamond_ms"); prom[key] = col("promoted_bytes")
	next
}
{
	s = col("scenario")
	key = col("kernel") SUBSEP s
	if (!(key in mech))
		next
	m = mech[key]
	fl = (s in floor_sys) ? floor_sys[s] : "NA"
	if (m == "damon")
		cost = kd[key]
	else if (fl != "NA" && sys[key] != "NA")
		cost = sys[key] - fl
	else
		cost = "NA"
	pct = (cost == "NA" || secs[key] + 0 <= 0) ? "NA" : sprintf("%.1f", cost / (secs[key] * 10))
	ps = col("pgpromote_success")
	pb = (m == "damon") ? prom[key] : (ps == "NA" ? "NA" : ps * 4096)
	print col("kernel"), col("kind"), m, s, col("name"), col("mode"), col("top_pct"), col("t90"), secs[key], user[key], sys[key], \
		(m == "damon" ? kd[key] : "-"), (m == "damon" ? "-" : fl), cost, pct, pb, col("verdict")
}' -v floor="$dir/floor/cpu.tsv" -v cpu="$dir/cpu.tsv" "$dir/floor/cpu.tsv" "$dir/cpu.tsv" "$dir/summary.tsv" >"$dir/damon-summary.tsv"

# One row per scenario, one column group per kernel kind (the peer: DAMON).
table() {
	tsv_awk '
	function t90(x) { return (x == "-1" || x == "NA") ? "never" : x }
	{
		k = col("kind"); s = col("scenario")
		if (!(s in seen)) { order[++n] = s; seen[s] = 1 }
		name[s] = col("name")
		top[k, s] = col("top_pct"); reach[k, s] = t90(col("t90"))
		cost[k, s] = col("cost_ms"); pct[k, s] = col("cost_pct")
	}
	END {
		nk = split("base peer series", kinds, " ")
		split("base (NUMA bal.)|DAMON|series (NUMA bal.)", label, "|")
		split("base damon series", short, " ")
		if (md) {
			printf "| scn | workload |"
			for (i = 1; i <= nk; i++)
				printf " %s top %% | t90 s | CPU ms (%% of a CPU) |", label[i]
			printf "\n|---|---|"
			for (i = 1; i <= nk; i++)
				printf "---:|---:|---:|"
			printf "\n"
		} else {
			printf "scn\tworkload"
			for (i = 1; i <= nk; i++)
				printf "\t%s\tt90\tcpu_ms(%%)", short[i]
			printf "\n"
		}
		for (j = 1; j <= n; j++) {
			s = order[j]
			if (md)
				printf "| %s | %s |", s, name[s]
			else
				printf "%s\t%s", s, name[s]
			for (i = 1; i <= nk; i++) {
				k = kinds[i]
				if (!((k SUBSEP s) in top)) {
					printf (md ? " - | - | - |" : "\t-\t-\t-")
					continue
				}
				# Less system time than the floor run is noise of the
				# floor, not a negative cost.
				if (cost[k, s] != "NA" && cost[k, s] < 0)
					c = "below the floor"
				else
					c = cost[k, s] (pct[k, s] == "NA" ? "" : " (" pct[k, s] "%)")
				if (md)
					printf " %s | %s | %s |", top[k, s], reach[k, s], c
				else
					printf "\t%s\t%s\t%s", top[k, s], reach[k, s], c
			}
			printf "\n"
		}
	}' -v md="$1" "$dir/damon-summary.tsv"
}

{
	printf '# DAMON peer: NUMA balancing vs DAMON on the same kernel source\n\n'
	if [ -s "$dir/versions.txt" ]; then
		sed 's/^/    /' "$dir/versions.txt"
		printf '\n'
	fi
	cat <<'EOT'
Scenarios 0-5 (`lab/README.md`) on one kernel source: NUMA balancing
without (base) and with the series, and DAMON with NUMA balancing off.
Top-tier share of the hot set at the end of the run; seconds until it first
reached 90 % ("never": not within the run); CPU time of the tiering
mechanism over the run, in ms and as a share of one CPU: for DAMON the two
kdamonds' utime+stime, for NUMA balancing the workload's system time less
that of the same workload with no tiering mechanism (NUMA balancing off, no
DAMON: the floor run, `floor/`).  Bytes promoted and the raw times:
`damon-summary.tsv`.

EOT
	table 1
	printf '\n![top-tier share over time, one line per kernel](top-tier.png)\n'
} >"$dir/damon.md"

table "" | column -t -s "$(printf '\t')"
