#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh OUT BINDIR INIT: pack busybox-static, the lab's guest
# programs (BINDIR/*, installed as /lab/bin/*) and INIT (as /init) into the
# gzip'ed newc cpio OUT.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

out=${1:?usage: mkinitramfs.sh OUT BINDIR INIT}
bindir=${2:?usage: mkinitramfs.sh OUT BINDIR INIT}
init=${3:?usage: mkinitramfs.sh OUT BINDIR INIT}
busybox=${BUSYBOX:-/bin/busybox}
need cpio cpio
[ -x "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not a static busybox; install Debian package busybox-static (make deps)"
[ -d "$bindir" ] || die "$bindir: no guest programs; build them with 'make -C lab/guest'"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT INT TERM
mkdir -p "$root/bin" "$root/sbin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/lab/bin"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
find "$bindir" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/lab/bin/" \;
cp "$init" "$root/init"
chmod 0755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
