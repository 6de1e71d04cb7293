#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mktree.sh NAME DIR: unpack the verified source of base NAME into DIR and
# make it a git tree with a single base commit (tag base/NAME).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:?usage: mktree.sh NAME DIR}
dir=${2:?usage: mktree.sh NAME DIR}
if [ -d "$dir/.git" ] && git -C "$dir" rev-parse -q --verify "refs/tags/base/$name" >/dev/null; then
	exit 0
fi
[ ! -e "$dir" ] || die "$dir exists but is not a git tree of base $name; remove it"
need git git
tarball=$("$here/fetch-base.sh" "$name")
line=$(awk -F'\t' -v n="$name" '$1 == n' "$here/bases.tsv")
pkg=$(printf '%s' "$line" | cut -f2)
ver=$(printf '%s' "$line" | cut -f3)

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
step "creating the base commit (about a minute)"
git -C "$tmp" init -q -b master
git -C "$tmp" add -A
git -C "$tmp" -c user.name="${GIT_AUTHOR_NAME:-lab}" -c user.email="${GIT_AUTHOR_EMAIL:-lab@localhost}" \
	commit -q -m "Linux $name (Debian $pkg $ver)" \
	-m "Unpacked from Debian's $pkg $ver; the stanza Debian's patch set appends to the top-level .gitignore (ignore everything at the top level) is dropped."
git -C "$tmp" tag "base/$name"
mv "$tmp" "$dir"
trap - EXIT INT TERM
