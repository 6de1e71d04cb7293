#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# series-tree.sh SERIESDIR BASETREE BASEREF DEST [COUNT]: make DEST a git
# worktree of BASETREE at BASEREF with the patches listed in SERIESDIR/series
# (its first COUNT, when given) applied as commits by git am.  An existing DEST is reused when its applied patches
# match SERIESDIR.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

sdir=${1:?usage: series-tree.sh SERIESDIR BASETREE BASEREF DEST}
base=${2:?usage: series-tree.sh SERIESDIR BASETREE BASEREF DEST}
ref=${3:?usage: series-tree.sh SERIESDIR BASETREE BASEREF DEST}
dest=${4:?usage: series-tree.sh SERIESDIR BASETREE BASEREF DEST}
count=${5:-}
[ -f "$sdir/series" ] || die "$sdir/series: no series file"
git -C "$base" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
	die "$base has no commit '$ref'; is it a kernel git tree?"

# Fingerprint of the series, stored in the tree, so a changed series rebuilds it.
patches=$(series_patches "$sdir" "$count")
[ -n "$patches" ] || die "$sdir/series lists no patches"
sum=$(series_sum "$sdir" "$count")
if [ -f "$dest/.git" ] && [ "$(cat "$(git -C "$dest" rev-parse --absolute-git-dir)/lab-series" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi
branch=lab/$(basename "$dest")
if [ -e "$dest" ]; then
	git -C "$base" worktree remove --force "$dest" 2>/dev/null || rm -rf "$dest"
	git -C "$base" worktree prune
fi
step "creating $dest: $(basename "$sdir")${count:+ (first $count)} on $ref"
git -C "$base" worktree add -q -f -B "$branch" "$dest" "$ref"
# git am needs a committer; take this repository's identity.
committer_name=$(git -C "$here" config user.name || echo lab)
committer_email=$(git -C "$here" config user.email || echo lab@localhost)
n=0
for p in $patches; do
	n=$((n + 1))
	git -C "$dest" -c user.name="$committer_name" -c user.email="$committer_email" am -q --keep-cr "$(cd "$sdir" && pwd)/$p" ||
		die "$p does not apply on $ref; see 'git -C $dest am --show-current-patch'"
done
gitdir=$(git -C "$dest" rev-parse --absolute-git-dir)
git -C "$base" rev-parse "$ref^{commit}" >"$gitdir/lab-base"
printf '%s\n' "$sum" >"$gitdir/lab-series"
step "applied $n patches"
