#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# damon-demo.sh RESULTS: the DAMON peer.  The scenarios lab/expect-damon.tsv
# has rules for ($DAMON_SCENARIOS or $SCENARIOS select among them) on three
# kernels of the same base (scripts/kernels.tsv):
#   the base      NUMA balancing (the scenarios' modes), no series; booted
#                 once more with no tiering mechanism at all, the floor of
#                 the CPU cost (RESULTS/<date>/floor/)
#   the peer      the kernel of kind peer: NUMA balancing off, DAMON paddr
#                 migrate_hot/migrate_cold (lab/guest/damon-run.c,
#                 lab/README.md)
#   the series    NUMA balancing with series/mainline
# every workload under damon-run, which accounts its CPU time.  Writes
# RESULTS/<date> (RESULTS/latest): the files of a lab run (summary.tsv with
# verdicts against lab/expect.tsv + lab/expect-damon.tsv, report.md,
# top-tier.png with one line per kernel, samples.tsv, ends.tsv, skips.tsv)
# and cpu.tsv, damon-summary.tsv, damon.md (scripts/damon-report.sh).
# $REPEAT=N makes N such runs, the four boots of each taking turns, in
# RESULTS/<date>/run-R, and reports their medians and ranges
# (scripts/repeat-report.sh, damon-report.sh; top-tier.png: run 1's).
# Exit status: 0, 3 when some verdict failed, else 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"
. "$here/run-lib.sh"

results=${1:?usage: damon-demo.sh RESULTS}
expect_damon=$here/../lab/expect-damon.tsv

# damon_ids: the lab scenarios lab/expect-damon.tsv has rules for (its
# scenario column is a regex of ids, matched as verdict.awk does).
damon_ids() {
	tsv_awk '{ pat[col("scenario")] }
		END {
			n = split(ids, id, " ")
			for (i = 1; i <= n; i++)
				for (p in pat)
					if (id[i] ~ ("^(" p ")$")) {
						print id[i]
						break
					}
		}' -v ids="$(scenario_ids lab | tr '\n' ' ')" "$expect_damon"
}
known=$(damon_ids | tr '\n' ' ')
[ -n "$known" ] || die "$expect_damon has rules for no scenario of lab/scenarios.tsv"
selection=${DAMON_SCENARIOS:-${SCENARIOS:-}}
scenarios=$(run_selection lab "${selection:-$known}")
for s in $(printf '%s' "$scenarios" | tr ',' ' '); do
	for id in $(scenario_ids lab "$s"); do
		case " $known" in
		*" $id "*) ;;
		*) die "scenario '$s' has no DAMON counterpart (no rules in lab/expect-damon.tsv; the DAMON peer runs ${known% })" ;;
		esac
	done
done

damon=$(kernels_of_kind peer | head -n 1)
[ -n "$damon" ] || die "scripts/kernels.tsv has no kernel of kind peer"
base=$(base_kernel "$damon")
series=$(series_kernel mainline)
[ "$(base_kernel "$series")" = "$base" ] ||
	die "$damon and $series are not built on the same base ($base, $(base_kernel "$series"))"
[ -f "$here/../series/mainline/series" ] || die "series/mainline does not exist"

repeat=$(run_repeat) || exit 1

run_guest lab
run_build "$base" "$damon" "$series"
run_dir=$(run_start "$results")
# one_run DIR: the four boots of one run into DIR.
one_run() {
	run_boot "$1" "$base" "lab.scenarios=$scenarios" lab.cpu=1 ${LAB_SECS:+"lab.secs=$LAB_SECS"}
	run_parse "$1" "$base"
	# The floor of the CPU cost: the base kernel again with no tiering
	# mechanism (NUMA balancing off, no DAMON), only its "@@ cpu" lines kept.
	run_boot "$1/floor" "$base" "lab.scenarios=$scenarios" lab.off=1 ${LAB_SECS:+"lab.secs=$LAB_SECS"}
	run_parse "$1/floor" "$base" off
	run_boot "$1" "$damon" "lab.scenarios=$scenarios" lab.damon=1 ${LAB_SECS:+"lab.secs=$LAB_SECS"}
	run_parse "$1" "$damon"
	run_boot "$1" "$series" "lab.scenarios=$scenarios" lab.cpu=1 ${LAB_SECS:+"lab.secs=$LAB_SECS"}
	run_parse "$1" "$series"
}
# verdicts DIR: the verdicts of DIR's run.  The DAMON rules join those of
# every lab run, for this run only; report.sh exits 3 when a verdict
# failed: the run is still published.
verdicts() {
	"$here/report.sh" "$1" "$here/../lab/expect.tsv" "$expect_damon"
}
run_experiment one_run verdicts
# shellcheck disable=SC2154 # set by run_experiment
status=$run_status
[ "$repeat" -eq 1 ] || [ ! -f "$run_dir/run-1/top-tier.png" ] || cp "$run_dir/run-1/top-tier.png" "$run_dir/top-tier.png"
"$here/damon-report.sh" "$run_dir" || die "damon-report.sh failed on $run_dir"
final=$(run_publish "$run_dir" "$results")
step "DAMON peer: $final/damon.md, table: damon-summary.tsv, plot: top-tier.png (also $results/latest/)"
exit $status
