#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export-series.sh TREE SERIESDIR: export the commits of TREE on top of its
# base into SERIESDIR with git format-patch, and rewrite SERIESDIR/series.
# The cover letter body comes from SERIESDIR.cover (subject on line 1), its
# line @LAB_RESULTS@ replaced by SERIESDIR.results (scripts/cover-results.sh);
# without SERIESDIR.cover no cover letter is written (a stable queue has none).
# SERIESDIR.conf may set "subject-prefix: PATCH v5".
#
# The export is a function of the tree alone, so exporting an unchanged
# tree reproduces the committed files byte for byte: no commit ids ("From 000…"),
# Message-IDs made of the series' name, version, base and patch number,
# the cover letter dated as its newest patch and sent from its first
# patch's author, and none of the user's or the system's git
# configuration (format.*, diff.*, core.abbrev) taking part.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

tree=${1:?usage: export-series.sh TREE SERIESDIR}
sdir=${2:?usage: export-series.sh TREE SERIESDIR}
[ -f "$sdir/series" ] || die "$sdir: no such series (no series file)"
[ -d "$tree" ] || die "$tree: no such tree; run 'make tree' first"
# The base commit series-tree.sh recorded when it made the tree.
upstream=$(cat "$(git -C "$tree" rev-parse --absolute-git-dir)/lab-base" 2>/dev/null) ||
	die "$tree: not made by 'make tree' (no recorded base commit)"
cover=$sdir.cover
prefix=$(sed -n 's/^subject-prefix: //p' "$sdir.conf" 2>/dev/null || true)

cover_opt=
[ ! -f "$cover" ] || cover_opt=--cover-letter

# git without the user's and the system's configuration.
git_clean() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$tree" "$@"
}
[ -n "$(git_clean rev-list "$upstream..HEAD")" ] || die "$tree: no commits on its base"
author_name=$(git_clean log --reverse --format=%an "$upstream..HEAD" | head -n 1)
author_email=$(git_clean log --reverse --format=%ae "$upstream..HEAD" | head -n 1)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
git_clean -c core.abbrev=12 -c user.name="$author_name" -c user.email="$author_email" \
	format-patch -q --no-thread --zero-commit --no-signature --base="$upstream" -o "$tmp" \
	${prefix:+--subject-prefix="$prefix"} ${cover_opt:+"$cover_opt"} "$upstream..HEAD"

# Thread it: every patch replies to the cover letter (to patch 1 without
# one), as format-patch --thread=shallow does, with stable Message-IDs.
version=$(printf '%s\n' "$prefix" | sed -n 's/.* \(v[0-9][0-9]*\)$/\1/p')
msgid_base=$(basename "$sdir")${version:+-$version}-$(printf '%.12s' "$upstream")
domain=${author_email#*@}
# patch_number FILE: the number format-patch gave FILE (0 for a cover letter).
patch_number() {
	basename "$1" | sed 's/^0*\([0-9]\)/\1/; s/-.*//'
}
set -- "$tmp"/*.patch
parent="<$msgid_base-$(patch_number "$1")@$domain>"
newest=$(git_clean log --format='%at %aD' "$upstream..HEAD" | sort -n | tail -n 1 | cut -d' ' -f2-)
for f in "$tmp"/*.patch; do
	awk -v id="<$msgid_base-$(patch_number "$f")@$domain>" -v parent="$parent" \
		-v reply="$([ "$f" = "$1" ] || echo 1)" -v date="$newest" '
		NR == 1 {
			print
			print "Message-ID: " id
			if (reply)
				print "In-Reply-To: " parent "\nReferences: " parent
			next
		}
		/^Date: / && !dated++ && FILENAME ~ /0000-cover-letter/ { print "Date: " date; next }
		{ print }' "$f" >"$f.new"
	mv "$f.new" "$f"
done
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
