#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# damon-demo.sh RESULTS: the DAMON peer.  Scenarios 0-5 ($DAMON_SCENARIOS)
# on three kernels of the same 7.3.4 source:
#   7.3.4-base    NUMA balancing (the scenarios' modes), no series; booted
#                 once more with no tiering mechanism at all, the floor of
#                 the CPU cost (RESULTS/<date>/floor/)
#   7.3.4-damon   NUMA balancing off, DAMON paddr migrate_hot/migrate_cold
#                 (lab/guest/damon-run.c, lab/README.md)
#   7.3.4-series  NUMA balancing with series/mainline
# every workload under damon-run, which accounts its CPU time.  Writes
# RESULTS/<date> (RESULTS/latest): the files of a lab run (summary.tsv with
# verdicts against lab/expect.tsv + lab/expect-damon.tsv, report.md,
# top-tier.png with one line per kernel, samples.tsv, ends.tsv, skips.tsv)
# and cpu.tsv, damon-summary.tsv, damon.md (scripts/damon-report.sh).
# Exit status: 0, 3 when some verdict failed, else 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/peer-lib.sh"

results=${1:?usage: damon-demo.sh RESULTS}
scenarios=${DAMON_SCENARIOS:-0 1 2 3 4 5}
for s in $(printf '%s' "$scenarios" | tr ',' ' '); do
	case $s in
	[0-5]) ;;
	*) die "scenario '$s' has no DAMON counterpart (the DAMON peer runs scenarios 0-5)" ;;
	esac
done
scenarios=$(printf '%s' "$scenarios" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
base=7.3.4-base
damon=7.3.4-damon
series=7.3.4-series
peer_known $base $damon $series
[ -f "$here/../series/mainline/series" ] || die "series/mainline does not exist"

peer_guest
# Build all three first: a failed build stops before any guest time is spent.
for k in $base $damon $series; do
	"$here/kernel.sh" "$k" >/dev/null || die "building kernel $k failed"
done

mkdir -p "$results"
run=$(mktemp -d "$results/.run.XXXXXX")
trap 'rm -rf "$run"' EXIT INT TERM
peer_run "$run" $base base "lab.scenarios=$scenarios" lab.cpu=1 ${LAB_SECS:+lab.secs=$LAB_SECS}
# The floor of the CPU cost: the base kernel again with no tiering
# mechanism (NUMA balancing off, no DAMON), only its "@@ cpu" lines kept.
mkdir "$run/floor"
# shellcheck disable=SC2154 # $initrd: set by peer_guest
"$here/run-guest.sh" "$("$here/kernel.sh" $base)" "$initrd" "$run/floor/$base.console" \
	"lab.scenarios=$scenarios" lab.off=1 ${LAB_SECS:+lab.secs=$LAB_SECS}
awk -f "$here/parse-console.awk" -v kernel=$base -v kind=off -v dir="$run/floor" "$run/floor/$base.console" ||
	die "$base: the floor run's results are unusable (see $run/floor/$base.console)"
peer_run "$run" $damon damon "lab.scenarios=$scenarios" lab.damon=1 ${LAB_SECS:+lab.secs=$LAB_SECS}
peer_run "$run" $series series "lab.scenarios=$scenarios" lab.cpu=1 ${LAB_SECS:+lab.secs=$LAB_SECS}
peer_versions >"$run/versions.txt"

status=0
cat "$here/../lab/expect.tsv" "$here/../lab/expect-damon.tsv" >"$run/expect.tsv"
LAB_EXPECT=$run/expect.tsv "$here/report.sh" "$run" || status=3
"$here/damon-report.sh" "$run" || die "damon-report.sh failed on $run"
trap - EXIT INT TERM
final=$(peer_publish "$run" "$results")
step "DAMON peer: $final/damon.md, table: damon-summary.tsv, plot: top-tier.png (also $results/latest/)"
exit $status
