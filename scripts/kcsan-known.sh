#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kcsan-known.sh KERNEL RESULTS: show each data race lab/debug/kcsan-base.tsv
# lists on kernel KERNEL (the base): its debug row alone, with its guest
# arguments, on the KCSAN build of KERNEL (scripts/debug-run.sh --config
# kcsan, into RESULTS/ROW/).  Exit status 0 when every race was reported
# there, 1 otherwise, naming the ones that were not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: kcsan-known.sh KERNEL RESULTS"
kernel=${1:?$usage}
results=${2:?$usage}
kernel_check "$kernel"
table=$here/../lab/debug/kcsan-base.tsv
rows=$(tsv_awk '{ print col("row") "\t" col("args") "\t" col("race") }' "$table")
[ -n "$rows" ] || die "$table lists no race"
missing=
tab=$(printf '\t')
while IFS=$tab read -r row args race; do
	step "$race: row $row on $kernel ($args)"
	mkdir -p "$results/$row"
	# shellcheck disable=SC2086 # ARGS: one guest argument a word
	"$here/debug-run.sh" --config kcsan "$kernel" "$results/$row" "lab.scenarios=$row" $args ||
		die "the KCSAN run of row $row on $kernel failed"
	if race_pairs "$results/$row/$kernel.races" | grep -qxF "$race"; then
		step "$race: shown on $kernel ($results/$row/$kernel.races)"
	else
		missing="$missing$race (row $row); "
	fi
done <<EOT
$rows
EOT
[ -z "$missing" ] || die "not shown on $kernel: ${missing%; } (lab/debug/kcsan-base.tsv)"
