#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scale-report.sh DIR: from the "5-NxT" rows of {ends,skips,cpu,samples}.tsv
# of a run (scale.sh) write its scale.tsv, one row per kernel x point:
#
#   kernel kind scenario nvmas threads vma_kib secs top_pct t90 reached
#   pte_updates_per_s hint_faults_per_s seqs_per_min promoted_mib_per_s
#   pid_inactive_bytes sys_ms
#
# (scenario: 5-NxT; vma_kib: the size of each hot VMA; t90: seconds until
# the sampled top-tier share first reached 90 %, -1 if not within the run;
# reached: 1 or 0; seqs_per_min: the process' scan sequences
# (scan_passes) a minute; promoted_mib_per_s: pgpromote_success over the
# run, in MiB of base pages; pid_inactive_bytes: bytes of the scenario's
# VMAs sched_skip_vma_numa skipped as PID-inactive; sys_ms: the
# workload's system time over the run).  The run is DIR, or each of DIR/run-1,
# DIR/run-2, ... (REPEAT): then DIR/scale.tsv holds the median of every
# column over the runs and DIR/scale-ranges.tsv their ranges (kernel,
# scenario, column, n, median, min, max: scripts/repeat.awk).  Then
# DIR/scale.md (table, with the ranges), DIR/scale.png (seconds to 90 %
# against VMAs and VMAs x threads, log-log, the medians; a point not
# reached is drawn at the run's length, marked) and DIR/scale-top-tier.png
# (top-tier share over time per point, of the first run).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=${1:?usage: scale-report.sh DIR}
runs=$(repeat_runs "$dir")
[ -n "$runs" ] || runs=$dir
first=$(printf '%s\n' "$runs" | head -n 1)

# run_table RUN: RUN/scale.tsv from RUN's tables.
run_table() {
	[ -s "$1/ends.tsv" ] || die "$1/ends.tsv: no results to report"
	touch "$1/skips.tsv" "$1/cpu.tsv" "$1/samples.tsv"
	tsv_awk '
	BEGIN {
		OFS = "\t"
		print "kernel", "kind", "scenario", "nvmas", "threads", "vma_kib", "secs", "top_pct", "t90", "reached", "pte_updates_per_s", "hint_faults_per_s", "seqs_per_min", "promoted_mib_per_s", "pid_inactive_bytes", "sys_ms"
	}
	FILENAME == skips {
		if (col("comm") != "skipstat" && col("reason") == "pid_inactive")
			pid[col("kernel"), col("scenario")] += col("bytes")
		next
	}
	FILENAME == cpu {
		sys[col("kernel"), col("scenario")] = col("sys_ms")
		next
	}
	col("scenario") ~ /^5-[0-9]+x[0-9]+$/ {
		k = col("kernel"); sc = col("scenario"); secs = col("secs"); t90 = col("t90")
		p = substr(sc, 3)
		n = p; sub(/x.*/, "", n)
		t = p; sub(/.*x/, "", t)
		reached = (t90 != "-1" && t90 != "NA")
		row[++rows] = k OFS col("kind") OFS sc OFS n OFS t OFS col("hot_bytes") / 1024 / n OFS secs OFS col("top_pct") OFS t90 OFS reached OFS \
			(secs + 0 > 0 ? sprintf("%.1f", col("pte_updates") / secs) : "NA") OFS \
			(secs + 0 > 0 ? sprintf("%.1f", col("hint_faults") / secs) : "NA") OFS \
			(secs + 0 > 0 ? sprintf("%.1f", 60 * col("scan_passes") / secs) : "NA") OFS \
			(secs + 0 > 0 ? sprintf("%.2f", col("pgpromote_success") * 4096 / 1048576 / secs) : "NA") OFS \
			((k SUBSEP sc) in pid ? pid[k, sc] : 0) OFS ((k SUBSEP sc) in sys ? sys[k, sc] : "NA")
		nv[rows] = n + 0; nt[rows] = t + 0
	}
	# By VMAs, then threads, each kernel in the order it ran: what the table
	# and the plots below read in order.
	END {
		for (i = 1; i <= rows; i++)
			idx[i] = i
		for (i = 2; i <= rows; i++)
			for (j = i; j > 1 && (nv[idx[j - 1]] > nv[idx[j]] || (nv[idx[j - 1]] == nv[idx[j]] && nt[idx[j - 1]] > nt[idx[j]])); j--) {
				x = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = x
			}
		for (i = 1; i <= rows; i++)
			print row[idx[i]]
	}' -v skips="$1/skips.tsv" -v cpu="$1/cpu.tsv" "$1/skips.tsv" "$1/cpu.tsv" "$1/ends.tsv" >"$1/scale.tsv"
	[ "$(wc -l <"$1/scale.tsv")" -gt 1 ] || die "$1/ends.tsv has no scenario 5-NxT rows"
}
for r in $runs; do
	run_table "$r"
done
ranges=
if [ "$runs" != "$dir" ]; then
	ranges=$dir/scale-ranges.tsv
	# shellcheck disable=SC2086 # one run directory per word
	repeat_over scale.tsv "$ranges" $runs >"$dir/scale.tsv"
fi
# The hot set of the points: the same at every point (scale.sh).
hot_mib=$(tsv_awk '{ print col("nvmas") * col("vma_kib") / 1024; exit }' "$dir/scale.tsv")

# The table: one row per point, base and series side by side.
table() {
	tsv_awk '
	# secs(k, p, x): a t90 of kernel k at point p as the reports print
	# it (t90.awk), "> S" when not reached within the run of S s.
	function secs(k, p, x) {
		return t90_secs(x, "> " run[k, p])
	}
	function cell(k, p) {
		if (!((k SUBSEP p) in t90))
			return md ? "- | -" : "-\t-"
		return range_t90(kern[k, p], scen[p], "t90", secs(k, p, t90[k, p]), "> " run[k, p]) \
			(md ? " | " : "\t") top[k, p]
	}
	FILENAME == ranges { range_row(); next }
	{
		p = col("nvmas") SUBSEP col("threads")
		if (!(p in seen)) { order[++n] = p; seen[p] = 1; kib[p] = col("vma_kib") }
		k = col("kind")
		kern[k, p] = col("kernel"); scen[p] = col("scenario")
		t90[k, p] = col("t90"); run[k, p] = sprintf("%.0f", col("secs")); top[k, p] = col("top_pct")
	}
	END {
		if (md) {
			print "| hot VMAs | KiB each | threads | VMAs x threads | base: s to 90 % | base: top % at end | series: s to 90 % | series: top % at end |"
			print "|---:|---:|---:|---:|---:|---:|---:|---:|"
		} else
			print "vmas\tkib\tthreads\tvmas*threads\tbase_t90\tbase_top%\tseries_t90\tseries_top%"
		for (i = 1; i <= n; i++) {
			split(order[i], a, SUBSEP)
			if (md)
				printf "| %s | %s | %s | %s | %s | %s |\n", a[1], kib[order[i]], a[2], a[1] * a[2], cell("base", order[i]), cell("series", order[i])
			else
				printf "%s\t%s\t%s\t%s\t%s\t%s\n", a[1], kib[order[i]], a[2], a[1] * a[2], cell("base", order[i]), cell("series", order[i])
		}
	}' -f "$here/t90.awk" -f "$here/ranges.awk" -v md="$1" -v ranges="$ranges" "$dir/scale.tsv" \
		${ranges:+"$ranges"}
}

# bounds: per point and kernel, its time to 90 % against the series'
# smallest at the same thread count, and what the time is made of: scan
# sequences a minute, PTE updates, hinting faults and MiB promoted a
# second, system time a second (the medians).  The series should stay within twice its
# smallest time; where it does not, these say what bounds it.
bounds() {
	tsv_awk '
	FILENAME == ranges { range_row(); next }
	{
		p = col("nvmas") SUBSEP col("threads")
		if (!(p in seen)) { order[++n] = p; seen[p] = 1 }
		k = col("kind")
		# In whole sampling steps, as shown; one not reached counts as the
		# run length: a lower bound.
		run[k, p] = sprintf("%.0f", col("secs"))
		t = (col("reached") ? t90_secs(col("t90")) : run[k, p]) + 0
		tt[k, p] = t; reached[k, p] = col("reached")
		shown[k, p] = range_t90(col("kernel"), col("scenario"), "t90", t90_secs(col("t90"), "> " run[k, p]), "> " run[k, p])
		if (col("reached") && (!((k, col("threads")) in best) || t < best[k, col("threads")]))
			best[k, col("threads")] = t
		seq[k, p] = col("seqs_per_min"); pte[k, p] = col("pte_updates_per_s")
		flt[k, p] = col("hint_faults_per_s")
		mib[k, p] = col("promoted_mib_per_s")
		sys[k, p] = col("secs") > 0 && col("sys_ms") != "NA" ? sprintf("%.0f", col("sys_ms") / col("secs")) : "NA"
	}
	END {
		print "| hot VMAs | threads | kernel | s to 90 % | x the series\x27 smallest at these threads | scan sequences a minute | PTE updates a second | hinting faults a second | MiB promoted a second | system ms a second |"
		print "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= n; i++) {
			split(order[i], a, SUBSEP)
			nk = split("base series", kinds, " ")
			for (j = 1; j <= nk; j++) {
				k = kinds[j]
				if (!((k SUBSEP order[i]) in tt))
					continue
				x = "-"
				if (("series" SUBSEP a[2]) in best && best["series", a[2]] > 0)
					x = (reached[k, order[i]] ? "" : "> ") sprintf("%.1f", tt[k, order[i]] / best["series", a[2]])
				printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2], k, shown[k, order[i]], x,
					seq[k, order[i]], pte[k, order[i]], flt[k, order[i]], mib[k, order[i]], sys[k, order[i]]
			}
		}
	}' -f "$here/t90.awk" -f "$here/ranges.awk" -v ranges="$ranges" ${ranges:+"$ranges"} "$dir/scale.tsv"
}

# Plot data: one file per kernel kind and thread count, by VMA count:
# nvmas, nvmas*threads, seconds (t90, or the run length if not reached),
# reached.
pdir=$dir/scale-plot
rm -rf "$pdir"
mkdir -p "$pdir"
tsv_awk 'BEGIN { OFS = " " }
{
	y = col("reached") ? (col("t90") < 0.5 ? 0.5 : col("t90")) : col("secs")
	print col("nvmas"), col("nvmas") * col("threads"), y, col("reached") > (d "/" col("kind") "-" col("threads") ".dat")
}' -v d="$pdir" "$dir/scale.tsv"
threads=$(tsv_awk '{ print col("threads") }' "$dir/scale.tsv" | sort -un)
ymax=$(tsv_awk 'col("secs") + 0 > m { m = col("secs") + 0 } END { print (m > 0 ? m * 2 : 100) }' "$dir/scale.tsv")

if command -v gnuplot >/dev/null 2>&1; then
	{
		printf 'set terminal pngcairo size 1400,640 font ",10"\n'
		printf 'set output "%s"\n' "$dir/scale.png"
		printf 'set multiplot layout 1,2 title "Scenario 5: seconds until 90 %% of the hot set is on the top tier (log-log)"\n'
		printf 'set logscale xy\nset grid\nset key outside bottom center horizontal maxrows 4\n'
		printf 'set yrange [0.4:%s]\nset ylabel "seconds to 90 %% top tier"\n' "$ymax"
		for panel in 1 2; do
			if [ $panel = 1 ]; then
				printf 'set xlabel "PID-inactive hot VMAs (%s MiB in all)"\nset xrange [*:*]\n' "$hot_mib"
			else
				printf 'set xlabel "hot VMAs x reader threads"\n'
			fi
			printf 'plot '
			sep=
			i=0
			for kind in base series; do
				dt=1
				[ "$kind" = series ] && dt=2
				lc=0
				for t in $threads; do
					lc=$((lc + 1))
					f=$pdir/$kind-$t.dat
					[ -f "$f" ] || continue
					i=$((i + 1))
					printf '%s"%s" using %d:3 with linespoints dt %d lw 2 pt 7 lc %d title "%s, %s threads"' \
						"$sep" "$f" "$panel" "$dt" "$lc" "$kind" "$t"
					sep=', '
					# shellcheck disable=SC2016 # gnuplot's $4, $3
					printf '%s"%s" using %d:($4 == 0 ? $3 : 1/0) with points pt 9 ps 2.2 lc rgb "black" %s' \
						"$sep" "$f" "$panel" "$([ $i = 1 ] && echo 'title "90 % not reached: drawn at the run length"' || echo notitle)"
				done
			done
			printf '\n'
		done
		printf 'unset multiplot\n'
	} >"$dir/scale.gp"
	gnuplot "$dir/scale.gp" 2>"$dir/scale-plot.log" || die "gnuplot failed; see $dir/scale-plot.log"

	# Top-tier share over time, one panel per point.
	sdir=$dir/scale-samples
	rm -rf "$sdir"
	mkdir -p "$sdir"
	tsv_awk 'BEGIN { OFS = " " } col("scenario") ~ /^5-[0-9]+x[0-9]+$/ { print col("t"), col("top_pct") > (d "/" substr(col("scenario"), 3) "@" col("kind") ".dat") }' \
		-v d="$sdir" "$first/samples.tsv"
	pts=$(find "$sdir" -name '*.dat' | sed 's#.*/##; s/@.*//' | sort -u -t x -k1,1n -k2,2n)
	if [ -n "$pts" ]; then
		for p in $pts; do
			printf '%s\t%s VMAs x %s threads\n' "$p" "${p%x*}" "${p#*x}"
		done | "$here/share-panels.sh" "$dir/scale-top-tier.png" \
			"Scenario 5 grid: top-tier share of the hot set over time" 3 380 "$sdir"
	fi
fi

{
	printf '# Scenario 5 at scale: PID-inactive VMAs x threads, base vs series\n\n'
	if [ -s "$dir/versions.txt" ]; then
		sed 's/^/    /' "$dir/versions.txt"
		printf '\n'
	fi
	printf '`s5-pid-inactive -n VMAS -V KIB -T THREADS` (%s MiB of hot memory in\n' "$hot_mib"
	cat <<'EOT'
VMAS VMAs of KIB each, a 512 MiB budget eater on the slow node, up to
30 s on the top tier, then demoted) in mode 2: seconds until the sampled
top-tier share of the hot set first reached 90 % ("> N": not within the
N s run), at the guest's sampling step (1 s), rounded up, and the share
at the end.  Machine-readable: `scale.tsv` (also PTE updates/s,
PID-inactive skipped bytes, system time).
EOT
	if [ -n "$ranges" ]; then
		printf '\nRuns: %s of each kernel, taking turns; each time is the median and,\n' "$(printf '%s\n' "$runs" | wc -l)"
		cat <<'EOT'
in brackets, the lowest and the highest run, when they differ (the
top-tier share: the median); each run in `run-N/`, the ranges of every
column in `scale-ranges.tsv`.
EOT
	fi
	printf '\n'

	table 1
	printf '\n![seconds to 90 %%, log-log](scale.png)\n\n'
	cat <<'EOT'
### What the times are made of

Point by point (the medians): the time to
90 % against the series' smallest at the same thread count (the series
should stay within 2x of it across VMA counts; "> x": not reached, the
run length counted), the process' scan sequences a minute (a sequence
is one walk of its address space), PTE updates a second, hinting faults
a second (those on the budget eater included: it is never promoted), MiB
promoted a second (pgpromote_success) and the workload's system time, ms
a second.

EOT
	bounds
	printf '\n![top-tier share over time per point](scale-top-tier.png)\n'
} >"$dir/scale.md"

table "" | column -t -s "$(printf '\t')"
