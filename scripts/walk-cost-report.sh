#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# walk-cost-report.sh DIR SCENARIO: the walk cost of a lab run of
# SCENARIO's rows (lab/scenarios.tsv, e.g. 14: 14.0-14.4) with CPU
# accounting (LAB_CPU=1), repeated (DIR/run-1, DIR/run-2, ...) or not
# (DIR).  Each mode has a row with cold VMAs and a control row without
# them (args "-n 0"); per run and kernel, RUN/walk.tsv pairs them:
#   control             the control row's id
#   cpu_ms_per_s        the process' system time over the run, ms a second
#                       (10 is 1 % of a CPU)
#   control_cpu_ms_per_s  the same in the control row
#   walk_cpu_ms_per_s   the difference: what walking the cold VMAs cost
#   seqs_per_min        scan sequences (scan_passes) a minute, and
#   control_seqs_per_min  the same in the control row
#   t90, control_t90    seconds until the hot VMA was 90 % on the top tier
#                       (-1: never)
#   inval_per_s, control_inval_per_s  MMU_NOTIFY_PROTECTION_VMA
#                       invalidations of the workload's mm a second, what
#                       a secondary MMU (KVM) is told to zap: the walks'
#   inval_mib_per_s     the MiB those invalidations cover, a second
#   tlb_per_s           the TLB flushes of its mm that reach a secondary
#                       TLB, a second (of a range and of the whole mm)
#                       These four from RUN/notify.tsv, a run made with
#                       LAB_NOTIFIER=1 (lab/notifier), else NA.
# DIR/walk-cost.tsv holds their median and range over the runs (kernel,
# scenario, column, n, median, min, max: scripts/repeat.awk), and
# DIR/walk-cost.md the tables, one per scenario: the base, every other kernel
# of the run and its ratio to the base.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: walk-cost-report.sh DIR SCENARIO"
dir=${1:?$usage}
scenario=${2:?$usage}
table=$here/../lab/scenarios.tsv
runs=$(repeat_runs "$dir")
[ -n "$runs" ] || runs=$dir
for r in $runs; do
	for f in cpu ends; do
		[ -s "$r/$f.tsv" ] || die "$r/$f.tsv: missing; was the run made with LAB_CPU=1 (make walk-cost)?"
	done
done

scenarios_awk 'selection_takes(scn, col("id")) { n++ } END { exit !n }' -v scn="$scenario" ||
	die "lab/scenarios.tsv has no row $scenario.N"

# The notifier counts: in every run, or in none.
notify=
for r in $runs; do
	[ -s "$r/notify.tsv" ] && notify=1
done
for r in $runs; do
	[ -z "$notify" ] || [ -s "$r/notify.tsv" ] || die "$r/notify.tsv: missing, where other runs have one"
done

for r in $runs; do
	tsv_awk '
	FILENAME ~ /scenarios\.tsv$/ {
		if (selection_takes(scn, col("id"))) {
			ids[++nids] = col("id")
			mode[col("id")] = col("mode")
			control[col("id")] = col("args") ~ /(^| )-n 0( |$)/
		}
		next
	}
	!(col("scenario") in mode) { next }
	FILENAME ~ /notify\.tsv$/ {
		k = col("kernel"); s = col("scenario"); e = col("event")
		if (e == "protection_vma") {
			inv[k, s] = sprintf("%.2f", col("calls") / col("secs"))
			invb[k, s] = sprintf("%.2f", col("bytes") / col("secs") / 1048576)
		} else if (e == "tlb" || e == "tlb_all") {
			tlb[k, s] += col("calls") / col("secs")
		}
		next
	}
	FILENAME ~ /cpu\.tsv$/ {
		k = col("kernel")
		if (!(k in seen)) { seen[k]; kernels[++nk] = k }
		cpu[k, col("scenario")] = col("sys_ms") / col("secs")
		next
	}
	{
		k = col("kernel")
		seqs[k, col("scenario")] = 60 * col("scan_passes") / col("secs")
		t90[k, col("scenario")] = col("t90")
		secs[k, col("scenario")] = col("secs")
	}
	function na(a, k, s) { return (k, s) in a ? a[k, s] : "NA" }
	END {
		print "kernel\tscenario\tmode\tcontrol\tcpu_ms_per_s\tcontrol_cpu_ms_per_s\twalk_cpu_ms_per_s\tseqs_per_min\tcontrol_seqs_per_min\tt90\tcontrol_t90\tsecs\tinval_per_s\tcontrol_inval_per_s\tinval_mib_per_s\ttlb_per_s"
		for (j = 1; j <= nids; j++)
			if (control[ids[j]])
				ctl[mode[ids[j]]] = ids[j]
		for (i = 1; i <= nk; i++) {
			k = kernels[i]
			for (j = 1; j <= nids; j++) {
				s = ids[j]
				if (control[s] || !(mode[s] in ctl) || !((k, s) in cpu))
					continue
				c = ctl[mode[s]]
				printf "%s\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, s, mode[s], c,
					cpu[k, s], cpu[k, c], cpu[k, s] - cpu[k, c], seqs[k, s], seqs[k, c], t90[k, s], t90[k, c],
					secs[k, s], na(inv, k, s), na(inv, k, c), na(invb, k, s),
					(k, s) in tlb ? sprintf("%.2f", tlb[k, s]) : "NA"
			}
		}
	}' -f "$here/../lab/guest/selection.awk" -v scn="$scenario" "$table" "$r/cpu.tsv" "$r/ends.tsv" ${notify:+"$r/notify.tsv"} >"$r/walk.tsv"
	[ "$(wc -l <"$r/walk.tsv")" -gt 1 ] || die "$r: no pair of scenario $scenario rows with and without cold VMAs"
done

# shellcheck disable=SC2086 # one run directory per word
repeat_over walk.tsv "$dir/walk-cost.tsv" $runs >/dev/null

nruns=$(printf '%s\n' "$runs" | wc -l)
{
	printf '# The walk cost of PID-inactive VMAs, scenario %s\n\n' "$scenario"
	[ ! -s "$dir/versions.txt" ] || { sed 's/^/    /' "$dir/versions.txt"; echo; }
	printf 'Runs: %s of each kernel, taking turns.  Each cell is the median and,\n' "$nruns"
	cat <<'EOT'
in brackets, the lowest and the highest run when they differ; K / base
is the ratio of kernel K's median to the base's.  CPU: the workload's
system time over the run (damon-run, lab.cpu=1), in ms a second (10 is
1 % of a CPU): NUMA balancing scans in task_numa_work() on the
workload's own threads.
The control row has no cold VMAs; what the cold VMAs cost is the
difference, run by run, "below the control" when the control took more
(the noise of the accounting).  The hot VMA's seconds to 90 % on the top
tier are at the guest's sampling step (1 s), rounded up.  With
LAB_NOTIFIER=1, the MMU-notifier invalidations and secondary-TLB
flushes of the workload's mm (lab/notifier: what KVM would be told).

EOT
	tsv_awk '
	FILENAME ~ /kernels\.tsv$/ {
		if (col("kind") == "base") base = col("kernel"); else others[++no] = col("kernel")
		next
	}
	FILENAME ~ /scenarios\.tsv$/ { args[col("id")] = col("args"); mode[col("id")] = col("mode"); next }
	{
		k = col("kernel"); s = col("scenario"); c = col("column")
		if (!(s in seen_s)) { seen_s[s]; scen[++ns] = s }
		m[k, s, c] = col("median"); lo[k, s, c] = col("min"); hi[k, s, c] = col("max")
	}
	# below(x): a difference as the table shows it, never negative.
	function below(x) { return x < 0 ? "below the control" : x }
	function cell(k, s, c, t,    x, l, h) {
		if (!((k, s, c) in m))
			return "-"
		if (t) {
			x = t90_secs(m[k, s, c], "never"); l = t90_secs(lo[k, s, c], "never"); h = t90_secs(hi[k, s, c], "never")
		} else {
			x = below(m[k, s, c]); l = below(lo[k, s, c]); h = below(hi[k, s, c])
		}
		return lo[k, s, c] == hi[k, s, c] ? x : x " [" l " - " h "]"
	}
	function ratio(k, s, c) {
		if (m[base, s, c] <= 0 || m[k, s, c] < 0 || lo[base, s, c] < 0 || lo[k, s, c] < 0)
			return "-"
		return sprintf("%.2f", m[k, s, c] / m[base, s, c])
	}
	function line(what, s, c, t,    i) {
		printf "| %s | %s |", what, cell(base, s, c, t)
		for (i = 1; i <= no; i++)
			printf " %s |", cell(others[i], s, c, t)
		for (i = 1; i <= no; i++)
			printf " %s |", t ? "-" : ratio(others[i], s, c)
		print ""
	}
	END {
		for (i = 1; i <= ns; i++) {
			s = scen[i]
			c = m[base, s, "control"]
			printf "## Scenario %s: numa_balancing=%s, `%s`, %.0f s runs\n\n", s, mode[s], args[s], m[base, s, "secs"]
			printf "Control: scenario %s, `%s`.\n\n", c, args[c]
			printf "| | %s |", base
			for (j = 1; j <= no; j++)
				printf " %s |", others[j]
			for (j = 1; j <= no; j++)
				printf " %s / base |", others[j]
			printf "\n|---|---:|"
			for (j = 1; j <= 2 * no; j++)
				printf "---:|"
			print ""
			line("system time, ms a second", s, "cpu_ms_per_s")
			line("the same in the control", s, "control_cpu_ms_per_s")
			line("the cold VMAs: the difference", s, "walk_cpu_ms_per_s")
			line("scan sequences a minute", s, "seqs_per_min")
			line("the same in the control", s, "control_seqs_per_min")
			line("hot VMA: seconds to 90 %", s, "t90", 1)
			line("the same in the control", s, "control_t90", 1)
			if ((base, s, "inval_per_s") in m) {
				line("MMU-notifier invalidations a second (protection_vma)", s, "inval_per_s")
				line("the same in the control", s, "control_inval_per_s")
				line("the MiB they cover, a second", s, "inval_mib_per_s")
				line("TLB flushes a secondary TLB is told of, a second", s, "tlb_per_s")
			}
			print ""
		}
	}' -f "$here/t90.awk" "$dir/kernels.tsv" "$table" "$dir/walk-cost.tsv"
} >"$dir/walk-cost.md"
