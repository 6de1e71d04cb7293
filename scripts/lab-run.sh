#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lab-run.sh RESULTS KERNEL...: build the guest and the named kernels, run the
# scenarios ($SCENARIOS, default all) on each in the two-tier guest, and
# write the report into RESULTS/<date>, pointed to by RESULTS/latest.
# Nothing is left half-written: a failed run leaves RESULTS/latest alone.
# Exit status: 0 all verdicts pass, 3 some verdict failed, else the run failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

results=${1:?usage: lab-run.sh RESULTS KERNEL...}
shift
[ $# -gt 0 ] || die "usage: lab-run.sh RESULTS KERNEL..."
scenarios=${SCENARIOS:-0 1 2 3 4 5 6 7 8}
for s in $(printf '%s' "$scenarios" | tr ',' ' '); do
	case $s in
	[0-8]) ;;
	*) die "unknown scenario '$s' (scenarios are 0-8, see lab/README.md)" ;;
	esac
done
scenarios=$(printf '%s' "$scenarios" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
# Check every kernel name before spending time on builds.
for k in "$@"; do
	awk -F'\t' -v n="$k" '$1 == n { f = 1 } END { exit !f }' "$here/kernels.tsv" ||
		die "unknown kernel '$k' (known: $(awk -F'\t' '!/^#/{printf "%s ", $1}' "$here/kernels.tsv"))"
done

guest=$LAB_CACHE/guest
step "building the guest programs"
make -s -C "$here/../lab/guest" O="$guest/bin" >&2 || die "building lab/guest failed"
"$here/mkinitramfs.sh" "$guest/initrd.gz" "$guest/bin" "$here/../lab/guest/init.sh"

mkdir -p "$results"
run=$(mktemp -d "$results/.run.XXXXXX")
trap 'rm -rf "$run"' EXIT INT TERM
for k in "$@"; do
	bz=$("$here/kernel.sh" "$k")
	case $k in *-base) kind=base ;; *) kind=series ;; esac
	"$here/run-guest.sh" "$bz" "$guest/initrd.gz" "$run/$k.console" \
		"lab.scenarios=$scenarios" ${LAB_SECS:+lab.secs=$LAB_SECS}
	awk -f "$here/parse-console.awk" -v kernel="$k" -v kind="$kind" -v dir="$run" "$run/$k.console" ||
		die "$k: the guest's results are unusable (see $run/$k.console)"
	printf '%s\n' "$k" >>"$run/kernels"
done

status=0
"$here/report.sh" "$run" || status=3
final=$results/$(date +%Y%m%d-%H%M%S)
mv "$run" "$final"
trap - EXIT INT TERM
ln -sfn "$(basename "$final")" "$results/latest"
step "report: $results/latest/report.md, table: $results/latest/summary.tsv, plot: $results/latest/top-tier.png"
exit $status
