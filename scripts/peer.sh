#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# peer.sh [--doc-only] RESULTS DOCDIR: the DAMON peer (damon-demo.sh into
# RESULTS/damon), the scale grid (scale.sh into RESULTS/scale) and the
# walk cost (walk-cost.sh into RESULTS/walk-cost), then DOCDIR/results.md
# with the first two tables, the kernel versions and the commands,
# DOCDIR/walk-cost.md, and the plots DOCDIR/damon-top-tier.png,
# DOCDIR/scale.png, DOCDIR/scale-top-tier.png: what the README's results
# show.  $REPEAT goes to all three.  With --doc-only, DOCDIR is made from
# RESULTS/damon/latest, RESULTS/scale/latest and, if there is one,
# RESULTS/walk-cost/latest as they are.
# shellcheck disable=SC2016 # Markdown backquotes in printf formats
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

doc_only=
[ "${1:-}" = --doc-only ] && { doc_only=1; shift; }
results=${1:?usage: peer.sh [--doc-only] RESULTS DOCDIR}
docdir=${2:?usage: peer.sh [--doc-only] RESULTS DOCDIR}
status=0
if [ -z "$doc_only" ]; then
	start=$(date +%s)
	"$here/damon-demo.sh" "$results/damon" || {
		rc=$?
		[ $rc -eq 3 ] || exit $rc
		status=3
	}
	"$here/scale.sh" "$results/scale"
	"$here/walk-cost.sh" "$results/walk-cost" || {
		rc=$?
		[ $rc -eq 3 ] || exit $rc
		status=3
	}
	step "DAMON peer, scale grid and walk cost in $(( ($(date +%s) - start) / 60 )) min"
fi
damon=$results/damon/latest
scale=$results/scale/latest
[ -s "$damon/damon-summary.tsv" ] || die "$damon/damon-summary.tsv: no DAMON peer results"
[ -s "$scale/scale.tsv" ] || die "$scale/scale.tsv: no scale results"

mkdir -p "$docdir"
for f in "$damon/top-tier.png:damon-top-tier.png" "$scale/scale.png:scale.png" \
	"$scale/scale-top-tier.png:scale-top-tier.png"; do
	[ -f "${f%%:*}" ] && cp "${f%%:*}" "$docdir/${f#*:}"
done
# body REPORT: a report's text below its title and the versions block
# under it (results.md gives the versions once).
body() {
	awk 'NR == 1 { next } top && (/^    / || /^$/) { next } { top = 0; print }' top=1 "$1"
}
{
	printf '# DAMON peer and scenario 5 at scale\n\n'
	printf 'Written by `make peer` (scripts/peer.sh) from\n'
	printf '`%s` and `%s`.\n\n' "$results/damon/$(basename "$(readlink -f "$damon")")" \
		"$results/scale/$(basename "$(readlink -f "$scale")")"
	printf 'Kernels (as the guests reported them, `uname -r`):'
	tsv_awk '!seen[col("kernel")]++ { printf "%s %s (%s)", (n++ ? "," : ""), col("kernel"), col("uname") }
		END { print "." }' "$damon/uname.tsv" "$scale/uname.tsv"
	printf '\n'
	sed 's/^/    /' "$damon/versions.txt"
	cat <<'EOT'

Commands: `make peer` (both), or `make demo-damon` and `make scale`
separately; `make peer-doc` rewrites this directory from the latest runs.

EOT
	# damon.md's text names the scenarios.
	printf '## DAMON next to NUMA balancing\n\n'
	body "$damon/damon.md" | sed 's/(top-tier[.]png)/(damon-top-tier.png)/'
	printf '\n## Scenario 5: seconds to 90 %% against PID-inactive VMAs and threads\n\n'
	body "$scale/scale.md"
} >"$docdir/results.md"
walk=$results/walk-cost/latest/walk-cost.md
if [ -s "$walk" ]; then
	cp "$walk" "$docdir/walk-cost.md"
	step "README material: $docdir/results.md, its plots and walk-cost.md"
else
	step "README material: $docdir/results.md and its plots (no walk cost run in $results/walk-cost)"
fi
exit $status
