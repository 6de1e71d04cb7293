#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mbox.sh SERIESDIR OUT: one mbox of the patches of SERIESDIR, in series
# order, that plain git am and b4 am apply.  The cover letter stays out:
# git am stops at a message without a diff.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

sdir=${1:?usage: mbox.sh SERIESDIR OUT}
out=${2:?usage: mbox.sh SERIESDIR OUT}
[ -f "$sdir/series" ] || die "$sdir/series: no series file"
mkdir -p "$(dirname "$out")"
# Headers are unfolded (a long From: is folded by format-patch), which b4's
# mail parser does not take back.
{
	while read -r p; do cat "$sdir/$p"; done <"$sdir/series"
} | awk '
	/^From [0-9a-f]+ / { hdr = 1 }
	hdr && /^$/ { hdr = 0 }
	hdr && /^[ \t]/ && n { held = held " " substr($0, match($0, /[^ \t]/)); next }
	hdr { if (n) print held; held = $0; n = 1; next }
	{ if (n) print held; n = 0; print }
	END { if (n) print held }' >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
