#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# peer.sh [--doc-only] RESULTS DOCDIR: the comparisons doc/results.md shows
# beyond the lab run (the table below, one a line), each run into
# RESULTS/NAME, then its report copied to DOCDIR/NAME.md with the plots it
# shows (DOCDIR/NAME-PLOT, or PLOT when that already starts with NAME).
# $REPEAT goes to every run.  With --doc-only nothing is run: DOCDIR is
# made from each RESULTS/NAME/latest there is, and a comparison without
# one keeps its DOCDIR/NAME.md as it was.  Each report says the commit,
# command, date and number of runs it was made from.
# Exit status: 0; 3 when a run's verdicts failed (the others still run);
# else 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

# NAME, the scenarios it runs ("-": the script's default), the script,
# its report in RESULTS/NAME/latest.  damon-tlb: scenario 3 under DAMON
# after 0-2, as in damon, and 18 (3's reader with a TLB flush a pass)
# straight after it in the same guest: whether the flush is what 3
# lacks (lab/README.md, scenario 18).
comparisons='damon - damon-demo.sh damon.md
damon-tlb 0,1,2,3,18 damon-demo.sh damon.md
scale - scale.sh scale.md
walk-cost - walk-cost.sh walk-cost.md'

# comparison NAME FIELD: FIELD (2: scenarios, 3: script, 4: report) of NAME.
comparison() {
	printf '%s\n' "$comparisons" | awk -v n="$1" -v f="$2" '$1 == n { print $f }'
}
names=$(printf '%s\n' "$comparisons" | awk '{ print $1 }')

doc_only=
[ "${1:-}" = --doc-only ] && { doc_only=1; shift; }
results=${1:?usage: peer.sh [--doc-only] RESULTS DOCDIR}
docdir=${2:?usage: peer.sh [--doc-only] RESULTS DOCDIR}
status=0
if [ -z "$doc_only" ]; then
	start=$(date +%s)
	for name in $names; do
		scenarios=$(comparison "$name" 2) script=$here/$(comparison "$name" 3)
		rc=0
		if [ "$scenarios" = - ]; then
			"$script" "$results/$name" || rc=$?
		else
			DAMON_SCENARIOS=$scenarios "$script" "$results/$name" || rc=$?
		fi
		case $rc in 0) ;; 3) status=3 ;; *) exit $rc ;; esac
	done
	step "the peer comparisons in $(( ($(date +%s) - start) / 60 )) min"
fi

# publish NAME REPORT: RESULTS/NAME/latest/REPORT as DOCDIR/NAME.md, its
# image links and the plots they name renamed after NAME.
publish() {
	_src=$results/$1/latest
	if [ ! -s "$_src/$2" ]; then
		step "$docdir/$1.md: kept as it was (no run in $results/$1)"
		return
	fi
	for _png in $(sed -n 's/.*](\([^)/]*[.]png\)).*/\1/p' "$_src/$2"); do
		[ -f "$_src/$_png" ] || die "$_src/$2 shows $_png, which the run did not write"
		case $_png in "$1"*) cp "$_src/$_png" "$docdir/$_png" ;; *) cp "$_src/$_png" "$docdir/$1-$_png" ;; esac
	done
	sed "s/](\($1[^)/]*[.]png\))/](\1)/; t; s/](\([^)/]*[.]png\))/]($1-\1)/" "$_src/$2" >"$docdir/$1.md"
	step "$docdir/$1.md: from $results/$1/$(basename "$(readlink -f "$_src")")"
}
mkdir -p "$docdir"
for name in $names; do
	publish "$name" "$(comparison "$name" 4)"
done
exit $status
