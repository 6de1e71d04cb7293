#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mbox.sh SERIESDIR OUT: one mbox of the cover letter and patches of
# SERIESDIR, in series order, that git am and b4 am apply.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

sdir=${1:?usage: mbox.sh SERIESDIR OUT}
out=${2:?usage: mbox.sh SERIESDIR OUT}
[ -f "$sdir/series" ] || die "$sdir/series: no series file"
mkdir -p "$(dirname "$out")"
{
	[ ! -f "$sdir/0000-cover-letter.patch" ] || cat "$sdir/0000-cover-letter.patch"
	while read -r p; do cat "$sdir/$p"; done <"$sdir/series"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
