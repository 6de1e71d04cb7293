#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel.sh NAME [FRAGMENT...]: make sure lab kernel NAME (scripts/kernels.tsv)
# is built and print its bzImage.  The base tree is downloaded and verified
# on first use, or taken from $KSRC (a kernel git tree); a kernel with a
# series is a worktree of the base with the series applied as commits.  The
# config fragments of its kernels.tsv row (under kconfig/) go before the
# FRAGMENT arguments, which also name the build: build/NAME-debug for
# kconfig/debug.config, so a kernel and its variants never share a build.
# kernel.sh --tree NAME: only make sure NAME's source tree exists; print it.
# kernel.sh --build NAME [FRAGMENT...]: only print the build directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

usage="usage: kernel.sh [--tree | --build] NAME [FRAGMENT...]"
tree_only=
build_only=
case ${1:-} in
--tree) tree_only=1; shift ;;
--build) build_only=1; shift ;;
esac
name=${1:?$usage}
shift
kernel_check "$name"
base=$(kernel_col "$name" base)
series=$(kernel_col "$name" series)
frags=
for f in $(kernel_col "$name" fragments | sed 's/^-$//'); do
	[ -f "$here/../kconfig/$f" ] || die "kernel '$name': no config fragment kconfig/$f"
	frags="$frags $here/../kconfig/$f"
done
build=$LAB_CACHE/build/$name
for f in "$@"; do
	[ -f "$f" ] || die "no config fragment $f"
	f=${f##*/}
	build=$build-${f%.config}
done
if [ -n "$build_only" ]; then
	printf '%s\n' "$build"
	exit 0
fi

tree=$("$here/base-tree.sh" "$base")
# One kernel is made by one kernel.sh at a time: a lab run builds its
# next kernels in the background (run_build) and boots them when they are
# done, which is when it gets this lock.  (Taken once the base exists: a
# refused base leaves nothing in the cache.)
mkdir -p "$LAB_CACHE/build"
exec 9>"$LAB_CACHE/build/$name.lock"
flock 9
if [ "$series" != - ]; then
	count=
	case $series in *:*) count=${series#*:} ;; esac
	"$here/series-tree.sh" "$(series_dir "${series%%:*}")" "$tree" HEAD "$(kernel_tree "$name")" $count >&2
	tree=$(kernel_tree "$name")
fi
if [ -n "$tree_only" ]; then
	printf '%s\n' "$tree"
	exit 0
fi
# build-kernel.sh joins the fragment paths with spaces too.
# shellcheck disable=SC2086
set -- $frags "$@"
"$here/build-kernel.sh" "$tree" "$build" "$@"
