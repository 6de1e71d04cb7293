#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# series-tree.sh SERIESDIR BASETREE BASEREF DEST [COUNT]: make DEST a git
# worktree of BASETREE at BASEREF with the patches listed in SERIESDIR/series
# (its first COUNT, when given) applied as commits by git am.
#
# DEST records the base commit and the patches it was made from.  When
# they still match, DEST is used as it is, with whatever was committed in
# it since.  When they do not (the series or the base changed), DEST is
# made again, but only if that loses nothing: it is refused while DEST has
# uncommitted changes, or commits other than the ones it was made with
# that change more than the patches do.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: series-tree.sh SERIESDIR BASETREE BASEREF DEST [COUNT]"
sdir=${1:?$usage}
base=${2:?$usage}
ref=${3:?$usage}
dest=${4:?$usage}
count=${5:-}
[ -f "$sdir/series" ] || die "$sdir/series: no series file"
base_commit=$(git -C "$base" rev-parse -q --verify "$ref^{commit}") ||
	die "$base has no commit '$ref'; is it a kernel git tree?"
patches=$(series_patches "$sdir" "$count")
[ -n "$patches" ] || die "$sdir/series lists no patches"
sum=$(series_sum "$sdir" "$count")

# same_changes BASE: the commits of DEST on BASE change what the patches
# change, one for one (git patch-id), so nothing is lost in making it again.
same_changes() {
	[ -n "$1" ] &&
		[ "$(git -C "$dest" log --reverse -p --format='commit %H' "$1..HEAD" | git patch-id --stable | cut -d' ' -f1)" = \
			"$(for p in $patches; do git patch-id --stable <"$sdir/$p" | cut -d' ' -f1; done)" ]
}

if [ -e "$dest" ]; then
	gitdir=$(git -C "$dest" rev-parse --absolute-git-dir 2>/dev/null) ||
		die "$dest is not a git tree (any more); remove it to make it again"
	made_base=$(cat "$gitdir/lab-base" 2>/dev/null || true)
	if [ "$made_base" = "$base_commit" ] && [ "$(cat "$gitdir/lab-series" 2>/dev/null)" = "$sum" ]; then
		exit 0
	fi
	what="$(basename "$sdir") or its base changed since $dest was made"
	[ -z "$(git -C "$dest" status --porcelain)" ] ||
		die "$what, and it has uncommitted changes; commit them and 'make export', or discard them (git -C $dest stash), then run again"
	made_head=$(cat "$gitdir/lab-head" 2>/dev/null || true)
	[ "$(git -C "$dest" rev-parse HEAD)" = "$made_head" ] || same_changes "$made_base" ||
		die "$what, and it has commits it was not made with; 'make export' keeps them in $sdir, 'git -C $dest reset --hard ${made_head:-BASE}' drops them; then run again"
	common=$(git -C "$dest" rev-parse --path-format=absolute --git-common-dir)
	git --git-dir="$common" worktree remove --force "$dest" 2>/dev/null || rm -rf "$dest"
	git --git-dir="$common" worktree prune
fi

branch=lab/$(basename "$dest")
step "creating $dest: $(basename "$sdir")${count:+ (first $count)} on $ref"
git -C "$base" worktree add -q -f -B "$branch" "$dest" "$base_commit"
# git am needs a committer: a fixed one, dated as the author, so that the
# commits are the same wherever the tree is made.
n=0
for p in $patches; do
	n=$((n + 1))
	git -C "$dest" -c user.name=lab -c user.email=lab@localhost am -q --keep-cr --committer-date-is-author-date \
		"$(cd "$sdir" && pwd)/$p" ||
		die "$p does not apply on $ref; see 'git -C $dest am --show-current-patch'"
done
gitdir=$(git -C "$dest" rev-parse --absolute-git-dir)
printf '%s\n' "$base_commit" >"$gitdir/lab-base"
printf '%s\n' "$sum" >"$gitdir/lab-series"
git -C "$dest" rev-parse HEAD >"$gitdir/lab-head"
step "applied $n patches"
