#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# damon-report.sh DIR: the DAMON peer's report from a run of damon-demo.sh:
# a run's summary.tsv (report.sh) and cpu.tsv (damon-run's "@@ cpu"
# lines), read by column name, into its damon-summary.tsv, one row per
# kernel x scenario (the DAMON kernel is of kind peer):
#
#   kernel kind mech scenario name mode top_pct t90 secs user_ms sys_ms
#   kdamond_ms floor_sys_ms cost_ms cost_pct promoted_bytes ms_per_mib
#   verdict
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
# ms_per_mib: cost_ms per MiB promoted (NA: nothing promoted).
# A scenario made of parts (lab_run_parts(): part-ends.tsv) gets a row
# per part in damon-parts.tsv: kernel kind scenario ("ID/PART") top_pct
# t90.  The run is DIR, or each of DIR/run-1, DIR/run-2, ... (REPEAT): then
# DIR/damon-summary.tsv holds the median of every column over the runs
# and DIR/damon-ranges.tsv their ranges (scripts/repeat.awk).  Then
# DIR/damon.md (headline tables, with the ranges; plot) and the table on
# stdout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: damon-report.sh DIR}
runs=$(repeat_runs "$dir")
[ -n "$runs" ] || runs=$dir

# run_summary RUN: RUN/damon-summary.tsv from RUN's tables.
run_summary() {
	[ -s "$1/summary.tsv" ] || die "$1/summary.tsv: no lab summary (run report.sh first)"
	[ -s "$1/cpu.tsv" ] || die "$1/cpu.tsv: no CPU accounting; the guests ran without lab.cpu=1 / lab.damon=1"
	[ -s "$1/floor/cpu.tsv" ] || die "$1/floor/cpu.tsv: no floor run (lab.off=1)"
	tsv_awk '
	BEGIN {
		OFS = "\t"
		print "kernel", "kind", "mech", "scenario", "name", "mode", "top_pct", "t90", "secs", "user_ms", "sys_ms", "kdamond_ms", "floor_sys_ms", "cost_ms", "cost_pct", "promoted_bytes", "ms_per_mib", "verdict"
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
		mpm = (cost == "NA" || pb == "NA" || pb + 0 <= 0) ? "NA" : sprintf("%.1f", cost / (pb / 1048576))
		print col("kernel"), col("kind"), m, s, col("name"), col("mode"), col("top_pct"), col("t90"), secs[key], user[key], sys[key], \
			(m == "damon" ? kd[key] : "-"), (m == "damon" ? "-" : fl), cost, pct, pb, mpm, col("verdict")
	}' -v floor="$1/floor/cpu.tsv" -v cpu="$1/cpu.tsv" "$1/floor/cpu.tsv" "$1/cpu.tsv" "$1/summary.tsv" >"$1/damon-summary.tsv"
}
for r in $runs; do
	run_summary "$r"
done
# run_parts RUN: RUN/damon-parts.tsv from RUN/part-ends.tsv, if any.
run_parts() {
	[ -s "$1/part-ends.tsv" ] || return 0
	tsv_awk 'BEGIN { OFS = "\t"; print "kernel", "kind", "scenario", "top_pct", "t90" }
		{ print col("kernel"), col("kind"), col("scenario") "/" col("part"), col("top_pct"), col("t90") }' \
		"$1/part-ends.tsv" >"$1/damon-parts.tsv"
}
for r in $runs; do
	run_parts "$r"
done
ranges='' parts_ranges=''
if [ "$runs" != "$dir" ]; then
	ranges=$dir/damon-ranges.tsv
	# shellcheck disable=SC2086 # one run directory per word
	repeat_over damon-summary.tsv "$ranges" $runs >"$dir/damon-summary.tsv"
	if [ -s "$(printf '%s\n' "$runs" | head -n 1)/damon-parts.tsv" ]; then
		parts_ranges=$dir/damon-parts-ranges.tsv
		# shellcheck disable=SC2086 # one run directory per word
		repeat_over damon-parts.tsv "$parts_ranges" $runs >"$dir/damon-parts.tsv"
	fi
fi

# table MD [per_mib]: one row per scenario, one column group per kernel
# kind (the peer: DAMON), Markdown when MD is set: the top-tier share,
# t90 and the mechanism's CPU time; with per_mib, the MiB promoted and
# the CPU time per MiB promoted instead.  Repeated runs: the median, and
# in brackets the lowest and the highest run when they differ.
table() {
	tsv_awk '
	function t90(k, s) {
		return range_t90(kern[k, s], s, "t90", t90_secs(reach[k, s], "never"), "never")
	}
	# A cost range ends at "floor" where a run took less system time
	# than the floor run: noise of the floor, not a negative cost.
	function plain(k, s, c, v,   lo, hi) {
		if ((c != "cost_ms" && c != "ms_per_mib") || !range_differs(kern[k, s], s, c))
			return range_cell(kern[k, s], s, c, v)
		lo = range_lo[kern[k, s], s, c]; hi = range_hi[kern[k, s], s, c]
		return v " [" (lo < 0 ? "floor" : lo) "-" (hi < 0 ? "floor" : hi) "]"
	}
	FILENAME == ranges { range_row(); next }
	{
		k = col("kind"); s = col("scenario")
		if (!(s in seen)) { order[++n] = s; seen[s] = 1 }
		name[s] = col("name"); kern[k, s] = col("kernel")
		if (col("secs") + 0 > secs[s])
			secs[s] = col("secs") + 0
		top[k, s] = col("top_pct"); reach[k, s] = col("t90")
		cost[k, s] = col("cost_ms"); pct[k, s] = col("cost_pct")
		mib[k, s] = col("promoted_bytes") == "NA" ? "NA" : sprintf("%.0f", col("promoted_bytes") / 1048576)
		mpm[k, s] = col("ms_per_mib")
	}
	END {
		nk = split("base peer series", kinds, " ")
		split("base (NUMA bal.)|DAMON|series (NUMA bal.)", label, "|")
		split("base damon series", short, " ")
		ncol = per_mib ? 2 : 3
		if (md) {
			printf "| scn | workload |%s", per_mib ? "" : " run s |"
			for (i = 1; i <= nk; i++)
				if (per_mib)
					printf " %s MiB promoted | CPU ms per MiB |", label[i]
				else
					printf " %s top %% | t90 s | CPU ms (%% of a CPU) |", label[i]
			printf "\n|---|---|%s", per_mib ? "" : "---:|"
			for (i = 1; i <= nk * ncol; i++)
				printf "---:|"
			printf "\n"
		} else {
			printf "scn\tworkload"
			for (i = 1; i <= nk; i++)
				printf "\t%s\tt90\tcpu_ms(%%)", short[i]
			printf "\n"
		}
		for (j = 1; j <= n; j++) {
			s = order[j]
			if (md && per_mib)
				printf "| %s | %s |", s, name[s]
			else if (md)
				printf "| %s | %s | %.0f |", s, name[s], secs[s]
			else
				printf "%s\t%s", s, name[s]
			for (i = 1; i <= nk; i++) {
				k = kinds[i]
				if (!((k SUBSEP s) in top)) {
					for (c = 1; c <= ncol; c++)
						printf (md ? " - |" : "\t-")
					continue
				}
				if (per_mib) {
					# Nothing promoted: no cost per MiB.  Less system
					# time than the floor run is noise of the floor.
					if (mpm[k, s] == "NA")
						c = "-"
					else if (mpm[k, s] < 0)
						c = "below the floor"
					else
						c = plain(k, s, "ms_per_mib", mpm[k, s])
					printf " %s | %s |", mib[k, s], c
					continue
				}
				# Less system time than the floor run is noise of the
				# floor, not a negative cost.
				if (cost[k, s] != "NA" && cost[k, s] < 0)
					c = "below the floor"
				else
					c = plain(k, s, "cost_ms", cost[k, s]) (pct[k, s] == "NA" ? "" : " (" pct[k, s] "%)")
				if (md)
					printf " %s | %s | %s |", plain(k, s, "top_pct", top[k, s]), t90(k, s), c
				else
					printf "\t%s\t%s\t%s", top[k, s], t90(k, s), c
			}
			printf "\n"
		}
	}' -f "$here/t90.awk" -f "$here/ranges.awk" -v md="$1" -v per_mib="${2:-}" -v ranges="$ranges" \
		"$dir/damon-summary.tsv" ${ranges:+"$ranges"}
}

# parts_table: one row per part of a composite scenario, its top-tier
# share and t90 per kernel kind, with the ranges over repeated runs.
parts_table() {
	tsv_awk '
	FILENAME == ranges { range_row(); next }
	{
		k = col("kind"); s = col("scenario")
		if (!(s in seen)) { order[++n] = s; seen[s] = 1 }
		kern[k, s] = col("kernel"); top[k, s] = col("top_pct"); t90[k, s] = col("t90")
	}
	END {
		nk = split("base peer series", kinds, " ")
		split("base (NUMA bal.)|DAMON|series (NUMA bal.)", label, "|")
		printf "| scn/part |"
		for (i = 1; i <= nk; i++)
			printf " %s top %% | t90 s |", label[i]
		printf "\n|---|"
		for (i = 1; i <= nk * 2; i++)
			printf "---:|"
		printf "\n"
		for (j = 1; j <= n; j++) {
			s = order[j]
			printf "| %s |", s
			for (i = 1; i <= nk; i++) {
				k = kinds[i]
				if (!((k SUBSEP s) in top)) {
					printf " - | - |"
					continue
				}
				printf " %s | %s |", range_cell(kern[k, s], s, "top_pct", top[k, s]),
					range_t90(kern[k, s], s, "t90", t90_secs(t90[k, s], "never"), "never")
			}
			printf "\n"
		}
	}' -f "$here/t90.awk" -f "$here/ranges.awk" -v ranges="$parts_ranges" "$dir/damon-parts.tsv" \
		${parts_ranges:+"$parts_ranges"}
}

{
	printf '# DAMON peer: NUMA balancing vs DAMON on the same kernel source\n\n'
	if [ -s "$dir/versions.txt" ]; then
		sed 's/^/    /' "$dir/versions.txt"
		printf '\n'
	fi
	printf 'Scenarios %s (`lab/README.md`) on one kernel source: NUMA balancing\n' \
		"$(tsv_awk '!seen[col("scenario")]++ { printf "%s%s", (n++ ? ", " : ""), col("scenario") }' "$dir/damon-summary.tsv")"
	cat <<'EOT'
without (base) and with the series, and DAMON with NUMA balancing off.
The run's length in seconds (the longest of the kernels' runs); top-tier
share of the hot set at the end of the run; seconds until it first
reached 90 % ("never": not within the run); CPU time of the tiering
mechanism over the run, in ms and as a share of one CPU: for DAMON the two
kdamonds' utime+stime, for NUMA balancing the workload's system time less
that of the same workload with no tiering mechanism (NUMA balancing off, no
DAMON: the floor run, `floor/`).  t90 in whole seconds at the guest's
sampling step (1 s), rounded up.  Bytes promoted and the raw times:
`damon-summary.tsv`.
EOT
	if [ -n "$ranges" ]; then
		printf '\nRuns: %s, each kernel and the floor once a run, taking turns.  Each\n' "$(printf '%s\n' "$runs" | wc -l)"
		cat <<'EOT'
cell is the median and, in brackets, the lowest and the highest run when
they differ ("floor": a run's cost below the floor run's, noise of the
floor); each run in `run-N/`, the ranges of every column in
`damon-ranges.tsv`.
EOT
	fi
	printf '\n'
	table 1
	cat <<'EOT'

### The cost per MiB promoted

The mechanism's CPU time above over the MiB
it promoted (DAMON: what `migrate_hot` applied; NUMA balancing:
`pgpromote_success`), "-" when nothing was promoted.

EOT
	table 1 per_mib
	if [ -s "$dir/damon-parts.tsv" ]; then
		cat <<'EOT'

### Part by part

The scenarios made of parts (`lab/README.md`): each part's top-tier
share at the end and seconds to 90 %.

EOT
		parts_table
	fi
	printf '\n![top-tier share over time, one line per kernel](top-tier.png)\n'
} >"$dir/damon.md"

table "" | column -t -s "$(printf '\t')"
