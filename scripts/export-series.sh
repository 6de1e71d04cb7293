#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export-series.sh TREE SERIESDIR: export the commits of TREE on top of its
# base into SERIESDIR with git format-patch, and rewrite SERIESDIR/series.
# The cover letter body comes from SERIESDIR.cover (subject on line 1), its
# line @LAB_RESULTS@ replaced by SERIESDIR.results (scripts/cover-results.sh);
# without SERIESDIR.cover no cover letter is written (a stable queue has none).
# SERIESDIR.conf may set "subject-prefix: PATCH v5".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

tree=${1:?usage: export-series.sh TREE SERIESDIR}
sdir=${2:?usage: export-series.sh TREE SERIESDIR}
[ -d "$tree" ] || die "$tree: no such tree; run 'make tree' first"
# The base commit series-tree.sh recorded when it made the tree.
upstream=$(cat "$(git -C "$tree" rev-parse --absolute-git-dir)/lab-base" 2>/dev/null) ||
	die "$tree: not made by 'make tree' (no recorded base commit)"
cover=$sdir.cover
prefix=$(sed -n 's/^subject-prefix: //p' "$sdir.conf" 2>/dev/null || true)

cover_opt=
[ ! -f "$cover" ] || cover_opt=--cover-letter

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
git -C "$tree" format-patch -q --thread=shallow --no-signature --base="$upstream" -o "$tmp" \
	${prefix:+--subject-prefix="$prefix"} ${cover_opt:+"$cover_opt"} "$upstream..HEAD"
if [ -f "$cover" ]; then
	c=$tmp/0000-cover-letter.patch
	subject=$(head -n 1 "$cover")
	results=$sdir.results
	[ -f "$results" ] || results=/dev/null
	awk -v subj="$subject" -v body="$cover" -v results="$results" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/\*\*\* BLURB HERE \*\*\*/ {
			getline line < body    # skip subject
			getline line < body    # and the blank line after it
			while ((getline line < body) > 0) {
				if (line == "@LAB_RESULTS@")
					while ((getline r < results) > 0)
						print r
				else
					print line
			}
			next
		}
		{ print }' "$c" >"$c.new"
	mv "$c.new" "$c"
fi
list=$(cd "$tmp" && for p in *.patch; do case $p in 0000-*) ;; *) echo "$p" ;; esac; done)
printf '%s\n' "$list" >"$tmp/series"
mkdir -p "$sdir"
rm -f "$sdir"/*.patch
cp "$tmp"/* "$sdir"/
# The tree is what the series now is: record it, so no rebuild follows.
series_sum "$sdir" >"$(git -C "$tree" rev-parse --absolute-git-dir)/lab-series"
step "exported $(wc -l <"$tmp/series") patches to $sdir"
