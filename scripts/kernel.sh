#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel.sh NAME [FRAGMENT...]: make sure lab kernel NAME (scripts/kernels.tsv)
# is built and print its bzImage.  The base tree is downloaded and verified
# on first use, or taken from $KSRC (a kernel git tree); a series kernel is a
# worktree of the base with the series applied as commits.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:?usage: kernel.sh NAME [FRAGMENT...]}
shift
line=$(awk -F'\t' -v n="$name" '$1 == n' "$here/kernels.tsv")
[ -n "$line" ] || die "unknown kernel '$name' (known: $(awk -F'\t' '!/^#/{printf "%s ", $1}' "$here/kernels.tsv"))"
base=$(printf '%s' "$line" | cut -f2)
series=$(printf '%s' "$line" | cut -f3)

tree=$("$here/base-tree.sh" "$base")
if [ "$series" != - ]; then
	dir=$here/../series/${series%%:*}
	count=
	case $series in *:*) count=${series#*:} ;; esac
	"$here/series-tree.sh" "$dir" "$tree" HEAD "$LAB_CACHE/trees/$name" $count >&2
	tree=$LAB_CACHE/trees/$name
fi
"$here/build-kernel.sh" "$tree" "$LAB_CACHE/build/$name${LAB_BUILD_SUFFIX:-}" "$@"
