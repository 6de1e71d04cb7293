#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh [--tools] OUT BINDIR [KSFT_BINDIR]: pack the lab guest into the
# gzip'ed newc cpio OUT: busybox-static (/bin), lab/guest/init.sh as /init
# with the files it sources (lab/guest/run-*.sh) and the scenario table
# with its reader (lab/scenarios.tsv, scripts/tsv.awk, lab/guest/selection.awk
# and scenarios.awk)
# in /lab, the guest programs (BINDIR/*, from make -C lab/guest) in /lab/bin,
# and, when given, the mm kselftests and their plan (KSFT_BINDIR/*, from
# lab/kselftest/build.sh) in /lab/ksft.  lab.run= on the kernel command
# line picks what /init runs.  --tools: also the Debian tools the table's
# rows name (lib.sh: scenario_tools), from this machine, in /lab/tools,
# with the shared libraries they load at the paths they load them from.
# mkinitramfs.sh --module OUT INITRD KO: OUT is INITRD followed by a
# gzip'ed newc cpio that holds the kernel module KO as /lab/notifier/KO's
# name (the guest's LAB_NOTIFIER_KO, lab/guest/lab.h): the kernel unpacks
# concatenated archives one after the other, so a module built for one
# kernel joins the initramfs all kernels share without packing it again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "${1:-}" = --module ]; then
	usage="usage: mkinitramfs.sh --module OUT INITRD KO"
	[ $# -eq 4 ] || die "$usage"
	out=$2 initrd=$3 ko=$4
	need cpio cpio
	[ -s "$initrd" ] || die "$initrd: no initramfs"
	[ -s "$ko" ] || die "$ko: no kernel module"
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT INT TERM
	chmod 0755 "$root"
	mkdir -p "$root/lab/notifier"
	cp "$ko" "$root/lab/notifier/"
	# The directories first: the kernel makes no parent of a file.
	{ cat "$initrd" && (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1; } >"$out.tmp"
	mv "$out.tmp" "$out"
	exit 0
fi

usage="usage: mkinitramfs.sh [--tools] OUT BINDIR [KSFT_BINDIR]"
tools=
[ "${1:-}" != --tools ] || { tools=1; shift; }
out=${1:?$usage}
bindir=${2:?$usage}
ksftdir=${3:-}
[ $# -le 3 ] || die "$usage"
lab=$here/../lab
busybox=${BUSYBOX:-/bin/busybox}
need cpio cpio
[ -x "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not a static busybox; install Debian package busybox-static (make deps)"
[ -d "$bindir" ] || die "$bindir: no guest programs; build them with 'make -C lab/guest'"
[ -z "$ksftdir" ] || [ -f "$ksftdir/ksft-plan" ] ||
	die "$ksftdir: no ksft-plan; build the kselftests with lab/kselftest/build.sh"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT INT TERM
# mktemp's 0700 would be the guest's /: the tools' unprivileged user
# could reach nothing.
chmod 0755 "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/lab/bin"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
cp "$lab/guest/init.sh" "$root/init"
chmod 0755 "$root/init"
cp "$lab/guest"/run-*.sh "$lab/guest/selection.awk" "$lab/guest/scenarios.awk" "$lab/scenarios.tsv" "$here/tsv.awk" "$root/lab/"
find "$bindir" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/lab/bin/" \;
if [ -n "$ksftdir" ]; then
	mkdir -p "$root/lab/ksft"
	find "$ksftdir" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/lab/ksft/" \;
fi
if [ -n "$tools" ]; then
	mkdir -p "$root/lab/tools"
	for prog in $(scenario_tools | cut -d ' ' -f 2 | sort -u); do
		path=$(command -v "$prog") ||
			die "$prog (lab/scenarios.tsv) is not installed; install Debian package $prog (make deps)"
		cp "$path" "$root/lab/tools/"
		# ldd: "name => /path (addr)", and the loader as "/path (addr)".
		for lib in $(ldd "$path" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$root${lib%/*}"
			cp -L "$lib" "$root$lib"
		done
	done
fi
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
