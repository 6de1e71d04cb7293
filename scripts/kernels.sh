#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernels.sh COMMAND SERIES: what the Makefile needs to know of a series,
# from scripts/kernels.tsv (lib.sh), so that it keeps no copy:
#   kernel SERIES   the kernel with all of series/SERIES applied
#   demo SERIES     the kernels of a demo of it: that kernel's base kernel,
#                   then the kernel itself once series/SERIES exists
#   tree SERIES     the git tree of that kernel (make tree makes it)
#   mbox SERIES     where make mbox writes the series' mbox
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

usage="usage: kernels.sh kernel|demo|tree|mbox SERIES"
cmd=${1:?$usage}
series=${2:?$usage}
case $cmd in
kernel | demo | tree) k=$(series_kernel "$series") ;;
mbox) ;;
*) die "$usage" ;;
esac
case $cmd in
kernel) printf '%s\n' "$k" ;;
demo)
	base_kernel "$k"
	[ ! -f "$here/../series/$series/series" ] || printf '%s\n' "$k"
	;;
tree) kernel_tree "$k" ;;
mbox) series_mbox "$series" ;;
esac
