#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel.sh NAME [FRAGMENT...]: make sure lab kernel NAME (scripts/kernels.tsv)
# is built and print its bzImage.  The base tree is downloaded and verified
# on first use, or taken from $KSRC (a kernel git tree); a series kernel is a
# worktree of the base with the series applied as commits.  The config
# fragments of its kernels.tsv line (4th column, under kconfig/) go before
# the FRAGMENT arguments.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:?usage: kernel.sh NAME [FRAGMENT...]}
shift
line=$(awk -F'\t' -v n="$name" '$1 == n' "$here/kernels.tsv")
[ -n "$line" ] || die "unknown kernel '$name' (known: $(awk -F'\t' '!/^#/{printf "%s ", $1}' "$here/kernels.tsv"))"
base=$(printf '%s' "$line" | cut -f2)
series=$(printf '%s' "$line" | cut -f3)
# The optional 4th column: config fragments under kconfig/, "-" for none.
frags=
for f in $(printf '%s\n' "$line" | awk -F'\t' '$4 != "-" { print $4 }'); do
	[ -f "$here/../kconfig/$f" ] || die "kernel '$name': no config fragment kconfig/$f"
	frags="$frags $here/../kconfig/$f"
done

tree=$("$here/base-tree.sh" "$base")
if [ "$series" != - ]; then
	dir=$here/../series/${series%%:*}
	count=
	case $series in *:*) count=${series#*:} ;; esac
	"$here/series-tree.sh" "$dir" "$tree" HEAD "$LAB_CACHE/trees/$name" $count >&2
	tree=$LAB_CACHE/trees/$name
fi
# build-kernel.sh joins the fragment paths with spaces too.
# shellcheck disable=SC2086
set -- $frags "$@"
"$here/build-kernel.sh" "$tree" "$LAB_CACHE/build/$name${LAB_BUILD_SUFFIX:-}" "$@"
