#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkdisk.sh OUT DIR: the guest's disk, an ext4 image OUT holding the files
# of DIR (from make -C lab/guest: scenario 13's binary and library), made
# without root with mke2fs -d.  The guest mounts it on /disk; run-guest.sh
# attaches it with snapshot=on, so what a guest writes there is gone after
# it and every boot starts from the same disk.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: mkdisk.sh OUT DIR"
out=${1:?$usage}
dir=${2:?$usage}
[ $# -eq 2 ] || die "$usage"
# mke2fs is in /sbin, which is not in every user's PATH.
PATH=$PATH:/sbin:/usr/sbin
need mke2fs e2fsprogs
[ -d "$dir" ] || die "$dir: no disk files; build them with 'make -C lab/guest'"
# Room for the files the scenarios write there (64 MiB each) besides DIR.
rm -f "$out.tmp"
truncate -s 512M "$out.tmp"
mke2fs -q -F -t ext4 -L lab -d "$dir" "$out.tmp" ||
	die "mke2fs could not make an ext4 image of $dir"
mv "$out.tmp" "$out"
