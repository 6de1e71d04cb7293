#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scale.sh RESULTS: scenario 5 over a grid of PID-inactive hot VMAs x reader
# threads at a constant hot set, the mainline series' kernel vs its base
# (scripts/kernels.tsv), one guest boot per kernel and run.
# $SCALE_GRID: NVMASxNTHREADS points (default 64, 512, 4096, 16384 VMAs x
# 8, 64, 512 threads); $SCALE_HOT_MIB: the hot set of every point (default
# 256), split evenly into its VMAs, within s5-pid-inactive's limits (it
# prints them with -L); $SCALE_SECS: measured seconds per point (default
# 60); $REPEAT: runs of each kernel (default 1), the kernels taking turns,
# each run in RESULTS/<date>/run-R.  Writes RESULTS/<date>
# (RESULTS/latest): scale.tsv, scale.md, scale.png (log-log) and
# scale-top-tier.png (scripts/scale-report.sh; over the runs: medians and
# ranges), with the raw samples.tsv, ends.tsv, skips.tsv, cpu.tsv and the
# consoles.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"
. "$here/run-lib.sh"

results=${1:?usage: scale.sh RESULTS}
grid=${SCALE_GRID:-64x8 64x64 64x512 512x8 512x64 512x512 4096x8 4096x64 4096x512 16384x8 16384x64 16384x512}
secs=${SCALE_SECS:-60}
case $secs in
'' | *[!0-9]* | 0) die "SCALE_SECS=$secs is not a number of seconds" ;;
esac
hot_mib=${SCALE_HOT_MIB:-256}
case $hot_mib in
'' | *[!0-9]* | 0) die "SCALE_HOT_MIB=$hot_mib is not a number of MiB" ;;
esac
repeat=$(run_repeat) || exit 1
case $grid in
*[!0-9x,\ ]*) die "SCALE_GRID='$grid' is not a list of NVMASxNTHREADS points (e.g. 512x64)" ;;
esac
points='' npoints=0
for p in $(printf '%s' "$grid" | tr ',' ' '); do
	case $p in
	[0-9]*x[0-9]*) ;;
	*) die "scale point '$p' is not NVMASxNTHREADS (e.g. 512x64)" ;;
	esac
	case ${p%x*}${p#*x} in
	*[!0-9]*) die "scale point '$p' is not NVMASxNTHREADS (e.g. 512x64)" ;;
	esac
	points=${points:+$points,}$p
	npoints=$((npoints + 1))
done
[ -n "$points" ] || die "SCALE_GRID is empty"
series=$(series_kernel mainline)
base=$(base_kernel "$series")
[ -f "$here/../series/mainline/series" ] || die "series/mainline does not exist"

run_guest lab
# The guest programs are static x86-64 programs: s5-pid-inactive says its
# limits here, before any kernel is built.
limits=$("$(guest_bin)/s5-pid-inactive" -L) || die "s5-pid-inactive -L failed"
max_vmas=$(printf '%s\n' "$limits" | sed -n 's/.*max_vmas=\([0-9][0-9]*\).*/\1/p')
max_threads=$(printf '%s\n' "$limits" | sed -n 's/.*max_threads=\([0-9][0-9]*\).*/\1/p')
min_kib=$(printf '%s\n' "$limits" | sed -n 's/.*min_vma_kib=\([0-9][0-9]*\).*/\1/p')
max_kib=$(printf '%s\n' "$limits" | sed -n 's/.*max_vma_kib=\([0-9][0-9]*\).*/\1/p')
[ -n "$max_vmas" ] && [ -n "$max_threads" ] && [ -n "$min_kib" ] && [ -n "$max_kib" ] ||
	die "s5-pid-inactive -L printed '$limits', not max_vmas=N max_threads=N min_vma_kib=N max_vma_kib=N"
for p in $(printf '%s' "$points" | tr ',' ' '); do
	n=${p%x*} t=${p#*x}
	if [ "$n" -lt 1 ] || [ "$n" -gt "$max_vmas" ] || [ "$t" -lt 1 ] || [ "$t" -gt "$max_threads" ]; then
		die "scale point '$p' is outside 1-$max_vmas VMAs x 1-$max_threads threads (s5-pid-inactive's limits)"
	fi
	kib=$((hot_mib * 1024 / n))
	if [ "$kib" -lt "$min_kib" ] || [ "$kib" -gt "$max_kib" ] || [ $((kib * n)) -ne $((hot_mib * 1024)) ]; then
		die "scale point '$p': $hot_mib MiB in $n VMAs is not a whole number of KiB in $min_kib-$max_kib each (SCALE_HOT_MIB)"
	fi
done

# Each point: set-up and demotion, its top-tier phase, the run; under TCG
# a large point takes well over its measured time, so each gets twice that
# and 3 minutes more.
LAB_GUEST_TIMEOUT=${LAB_GUEST_TIMEOUT:-$((300 + npoints * (2 * secs + 180)))}
export LAB_GUEST_TIMEOUT

run_build "$base" "$series"
run_dir=$(run_start "$results")
step "scale grid: $(printf '%s' "$points" | tr ',' ' '), $hot_mib MiB hot, ${secs} s each, on $base and $series, $repeat run(s) each"
# one_run DIR: both kernels over the grid, into DIR.
one_run() {
	for k in "$base" "$series"; do
		run_boot "$1" "$k" lab.scenarios= "lab.scale=$points" "lab.scale_secs=$secs" \
			"lab.scale_mib=$hot_mib" lab.cpu=1
		run_parse "$1" "$k"
	done
}
run_experiment one_run
"$here/scale-report.sh" "$run_dir" || die "scale-report.sh failed on $run_dir"
final=$(run_publish "$run_dir" "$results")
step "scale: $final/scale.md, table: scale.tsv, plot: scale.png (also $results/latest/)"
