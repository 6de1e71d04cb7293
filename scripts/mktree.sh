#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mktree.sh NAME DIR: unpack the verified source of base NAME into DIR and
# make it a git tree with a single base commit (tag base/NAME).
#
# The base commit is reproducible: a fixed identity, the date of the
# tarball's top directory and a fixed message, so its id is the same on
# every machine.  That id is pinned in bases.tsv (column commit) and
# checked here; it is what the series' base-commit: lines name.  A tree
# made before the commit was reproducible gets the pinned commit of the
# same files, in place, so worktrees holding work keep their objects.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:?usage: mktree.sh NAME DIR}
dir=${2:?usage: mktree.sh NAME DIR}
pkg=$(base_col "$name" package)
ver=$(base_col "$name" version)
pinned=$(base_col "$name" commit)
tag=refs/tags/base/$name
if [ -d "$dir/.git" ] && [ "$(git -C "$dir" rev-parse -q --verify "$tag^{commit}")" = "$pinned" ]; then
	exit 0
fi
need git git
tarball=$("$here/fetch-base.sh" "$name")

# base_commit: commit the index of $git_dir's work tree as the base commit,
# point master and the tag at it, print its id.
base_commit() {
	# The top directory is the tarball's first entry: its mtime is when
	# Debian built the package.
	date=$(TZ=UTC tar -tvJ --full-time -f "$tarball" | head -n 1 | awk '{ print $4 "T" $5 "Z" }')
	tree=$(git -C "$1" write-tree)
	commit=$(GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost GIT_AUTHOR_DATE=$date \
		GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost GIT_COMMITTER_DATE=$date \
		git -C "$1" commit-tree "$tree" \
		-m "Linux $name (Debian $pkg $ver)" \
		-m "Unpacked from Debian's $pkg $ver; the stanza Debian's patch set appends to the top-level .gitignore (ignore everything at the top level) is dropped.")
	git -C "$1" update-ref refs/heads/master "$commit"
	git -C "$1" tag -f "base/$name" "$commit" >/dev/null
	printf '%s\n' "$commit"
}
verify() {
	[ "$1" = "$pinned" ] ||
		die "the base commit of $name is $1, bases.tsv pins $pinned; if the import changed on purpose, pin the new id"
}

if [ -d "$dir/.git" ] && git -C "$dir" rev-parse -q --verify "$tag" >/dev/null; then
	step "$dir: replacing its base commit with the reproducible one"
	git -C "$dir" config gc.autoDetach false
	git -C "$dir" read-tree "$tag"
	verify "$(base_commit "$dir")"
	exit 0
fi
[ ! -e "$dir" ] || die "$dir exists but is not a git tree of base $name; remove it"

tmp=$dir.tmp.$$
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp"
step "unpacking $pkg $ver into $dir"
tar -xJf "$tarball" -C "$tmp" --strip-components=1
[ -f "$tmp/Makefile" ] && [ -d "$tmp/mm" ] || die "$tarball does not hold a kernel tree"
# Debian's patch set ends the top-level .gitignore with a stanza that ignores
# everything at the top level; drop it so git sees the tree.
sed -i '/^# Debian packaging: ignore everything at the top level/,$d' "$tmp/.gitignore"
sed -i '$ {/^#$/d}' "$tmp/.gitignore"
sed -i '$ {/^$/d}' "$tmp/.gitignore"
step "creating the base commit (about two minutes)"
git -C "$tmp" init -q -b master
# Garbage collection runs in the foreground, never as a detached process
# that outlives the command that started it.
git -C "$tmp" config gc.autoDetach false
git -C "$tmp" add -A
verify "$(base_commit "$tmp")"
git -C "$tmp" repack -a -d -q
git -C "$tmp" prune-packed
mv "$tmp" "$dir"
trap - EXIT INT TERM
