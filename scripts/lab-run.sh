#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lab-run.sh RESULTS KERNEL...: build the guest and the named kernels
# (scripts/kernels.tsv), run the scenarios on each in the two-tier guest,
# and write the report into RESULTS/<date>, pointed to by RESULTS/latest.
# $SCENARIOS selects scenarios of lab/scenarios.tsv (space or comma
# separated; "6" is 6.0-6.5, "6.5" only 6.5; empty: all).
# Nothing is left half-written: a failed run leaves RESULTS/latest alone.
# Exit status: 0 all verdicts pass, 3 some verdict failed, else the run failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/run-lib.sh"

results=${1:?usage: lab-run.sh RESULTS KERNEL...}
shift
[ $# -gt 0 ] || die "usage: lab-run.sh RESULTS KERNEL..."
# Check the scenarios and every kernel name before spending time on builds.
scenarios=$(run_selection lab "${SCENARIOS:-}")
kernel_check "$@"

run_guest lab
run_build "$@"
run_dir=$(run_start "$results")
for k in "$@"; do
	run_boot "$run_dir" "$k" "lab.scenarios=$scenarios" ${LAB_SECS:+"lab.secs=$LAB_SECS"}
	run_parse "$run_dir" "$k"
done

run_versions "$run_dir" >"$run_dir/versions.txt"
# report.sh exits 3 when a verdict failed: the run is still published.
status=0
"$here/report.sh" "$run_dir" || status=$?
[ $status -eq 0 ] || [ $status -eq 3 ] || exit $status
run_publish "$run_dir" "$results" >/dev/null
step "report: $results/latest/report.md, table: $results/latest/summary.tsv, plot: $results/latest/top-tier.png"
exit $status
