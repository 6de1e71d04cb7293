#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scale.sh RESULTS: scenario 5 over a grid of PID-inactive hot VMAs x reader
# threads, base vs series (7.3.4-base, 7.3.4-series), one guest boot per
# kernel.  $SCALE_GRID: NVMASxNTHREADS points (default 64, 512, 4096 VMAs x
# 8, 64, 512 threads; s5-pid-inactive takes at most 16384 VMAs and 512
# threads); $SCALE_SECS: measured seconds per point (default 60).  Writes
# RESULTS/<date> (RESULTS/latest): scale.tsv, scale.md, scale.png (log-log)
# and scale-top-tier.png (scripts/scale-report.sh), with the raw
# samples.tsv, ends.tsv, skips.tsv, cpu.tsv and the consoles.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/peer-lib.sh"

results=${1:?usage: scale.sh RESULTS}
grid=${SCALE_GRID:-64x8 64x64 64x512 512x8 512x64 512x512 4096x8 4096x64 4096x512}
secs=${SCALE_SECS:-60}
case $secs in
'' | *[!0-9]* | 0) die "SCALE_SECS=$secs is not a number of seconds" ;;
esac
points=0
for p in $(printf '%s' "$grid" | tr ',' ' '); do
	n=${p%x*} t=${p#*x}
	case $p in
	[0-9]*x[0-9]*) ;;
	*) die "scale point '$p' is not NVMASxNTHREADS (e.g. 512x64)" ;;
	esac
	case $n$t in
	*[!0-9]*) die "scale point '$p' is not NVMASxNTHREADS (e.g. 512x64)" ;;
	esac
	if [ "$n" -lt 1 ] || [ "$n" -gt 16384 ] || [ "$t" -lt 1 ] || [ "$t" -gt 512 ]; then
		die "scale point '$p' is outside 1-16384 VMAs x 1-512 threads (s5-pid-inactive's limits)"
	fi
	points=$((points + 1))
done
[ "$points" -gt 0 ] || die "SCALE_GRID is empty"
grid=$(printf '%s' "$grid" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
base=7.3.4-base
series=7.3.4-series
peer_known $base $series
[ -f "$here/../series/mainline/series" ] || die "series/mainline does not exist"

# Each point: set-up and demotion, up to 30 s on the top tier, the run;
# under TCG a 4096 x 512 point took about twice its measured time.
LAB_GUEST_TIMEOUT=${LAB_GUEST_TIMEOUT:-$((300 + points * (2 * secs + 180)))}
export LAB_GUEST_TIMEOUT

peer_guest
for k in $base $series; do
	"$here/kernel.sh" "$k" >/dev/null || die "building kernel $k failed"
done

mkdir -p "$results"
run=$(mktemp -d "$results/.run.XXXXXX")
trap 'rm -rf "$run"' EXIT INT TERM
step "scale grid: $(printf '%s' "$grid" | tr ',' ' '), ${secs} s each, on $base and $series"
peer_run "$run" $base base lab.scenarios= "lab.scale=$grid" "lab.scale_secs=$secs" lab.cpu=1
peer_run "$run" $series series lab.scenarios= "lab.scale=$grid" "lab.scale_secs=$secs" lab.cpu=1
peer_versions >"$run/versions.txt"
"$here/scale-report.sh" "$run" || die "scale-report.sh failed on $run"
trap - EXIT INT TERM
final=$(peer_publish "$run" "$results")
step "scale: $final/scale.md, table: scale.tsv, plot: scale.png (also $results/latest/)"
