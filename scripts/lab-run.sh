#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lab-run.sh RESULTS KERNEL...: build the guest and the named kernels
# (scripts/kernels.tsv), run the scenarios on each in the lab guest,
# and write the report into RESULTS/<date>, pointed to by RESULTS/latest.
# $SCENARIOS selects scenarios of lab/scenarios.tsv (space or comma
# separated; "6" is 6.0-6.5, "6.5" only 6.5; empty: those of suite
# $LAB_SUITE: demo, check or full, the default, every one).
# $REPEAT=N runs every kernel N times, the kernels taking turns (base,
# series, base, series, ...), each run in RESULTS/<date>/run-R with its
# own report, and reports the median and range of the N runs
# (scripts/repeat-report.sh); 1 (the default) is the single run as ever.
# $LAB_CPU=1 runs every workload under damon-run, which accounts its CPU
# time ("@@ cpu" lines, cpu.tsv).  $LAB_NOTIFIER=1 boots the notifier
# variant of each kernel (kconfig/notifier.config) with lab/notifier's
# module built for it, which counts the MMU-notifier invalidations and
# secondary-TLB flushes of each workload's mm ("@@ notify", notify.tsv).
# Nothing is left half-written: a failed run leaves RESULTS/latest alone.
# Exit status: 0 all verdicts pass, 3 some verdict failed, else the run failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"
. "$here/run-lib.sh"

results=${1:?usage: lab-run.sh RESULTS KERNEL...}
shift
[ $# -gt 0 ] || die "usage: lab-run.sh RESULTS KERNEL..."
# Check the scenarios and every kernel name before spending time on builds.
scenarios=$(run_selection lab "${SCENARIOS:-}")
kernel_check "$@"
repeat=$(run_repeat) || exit 1
case ${LAB_CPU:-1} in
1) ;;
*) die "LAB_CPU=$LAB_CPU: 1 accounts the workloads' CPU time, unset does not" ;;
esac
case ${LAB_NOTIFIER:-} in
'' | 1) ;;
*) die "LAB_NOTIFIER=$LAB_NOTIFIER: 1 counts the workloads' MMU-notifier invalidations, unset does not" ;;
esac

run_guest lab
[ -z "${LAB_NOTIFIER:-}" ] || run_notifier
run_build "$@"
run_dir=$(run_start "$results")
kernels=$*
# boot_all DIR: every kernel once, into DIR.
boot_all() {
	for k in $kernels; do
		[ -z "${LAB_NOTIFIER:-}" ] || run_notifier_initrd "$k"
		run_boot "$1" "$k" "lab.scenarios=$scenarios" ${LAB_SECS:+"lab.secs=$LAB_SECS"} \
			${LAB_CPU:+"lab.cpu=$LAB_CPU"} ${LAB_NOTIFIER:+"lab.notifier=$LAB_NOTIFIER"}
		run_parse "$1" "$k"
	done
}

# report.sh exits 3 when a verdict failed: the run is still published.
run_experiment boot_all "$here/report.sh"
# shellcheck disable=SC2154 # set by run_experiment
status=$run_status
run_publish "$run_dir" "$results" >/dev/null
if [ "$repeat" -eq 1 ]; then
	step "report: $results/latest/report.md, table: $results/latest/summary.tsv, plot: $results/latest/top-tier.png"
else
	step "report: $results/latest/report.md (medians and ranges), table: $results/latest/summary.tsv, each run: $results/latest/run-N/"
fi
exit $status
