#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# walk-cost.sh RESULTS: what walking PID-inactive VMAs costs, the mainline
# series' kernel vs its base (scripts/kernels.tsv): scenario 14 of
# lab/scenarios.tsv (lab/guest/s14-walk-cost.c) with the workloads' CPU
# time accounted (LAB_CPU=1), $REPEAT runs of each kernel (default 5), the
# kernels taking turns (scripts/lab-run.sh).  Writes the lab run into
# RESULTS/<date> (RESULTS/latest) and there walk-cost.tsv and
# walk-cost.md (scripts/walk-cost-report.sh).  LAB_NOTIFIER=1 adds the
# MMU-notifier invalidations and secondary-TLB flushes of the workloads'
# mms (lab/notifier, on the notifier variants of the kernels).
# $WALK_KERNELS: the kernels measured against the base, in this order
# (default: the series' kernel), e.g. "7.3.4-v6 7.3.4-series".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"
. "$here/run-lib.sh"

results=${1:?usage: walk-cost.sh RESULTS}
scenario=14
series=$(series_kernel mainline)
base=$(base_kernel "$series")
status=0
# shellcheck disable=SC2086 # one kernel per word
SCENARIOS=$scenario LAB_CPU=1 REPEAT=${REPEAT:-5} \
	"$here/lab-run.sh" "$results" "$base" ${WALK_KERNELS:-$series} || status=$?
[ $status -eq 0 ] || [ $status -eq 3 ] || exit $status
"$here/walk-cost-report.sh" "$results/latest" "$scenario" ||
	die "walk-cost-report.sh failed on $results/latest"
step "walk cost: $results/latest/walk-cost.md, table: walk-cost.tsv"
exit $status
