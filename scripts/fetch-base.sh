#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-base.sh NAME: download Debian's linux-source package pinned for base
# NAME in scripts/bases.tsv, verify both sha256 sums and print the path of
# the cached, verified source tarball.  Mirrors come from this machine's apt
# configuration (or $LAB_MIRROR / $LAB_SECURITY_MIRROR).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:?usage: fetch-base.sh NAME}
pkg=$(base_col "$name" package)
ver=$(base_col "$name" version)
suite=$(base_col "$name" suite)
deb_sum=$(base_col "$name" deb_sha256)
tar_sum=$(base_col "$name" tar_sha256)

dl=$LAB_CACHE/dl
tarball=$dl/$pkg-$ver.tar.xz
if [ -f "$tarball" ]; then
	printf '%s\n' "$tarball"
	exit 0
fi
need apt-get apt
need dpkg-deb dpkg
mkdir -p "$dl"

# The archive root of the suite: debian-security for *-security suites.
case $suite in
*-security)
	uri=$(apt_mirror_security) ;;
*)
	uri=$(apt_mirror) ;;
esac
[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d}; set LAB_MIRROR (and LAB_SECURITY_MIRROR) to an archive URI"

tmp=$(mktemp -d "$dl/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/lists/partial" "$tmp/archives/partial"
printf 'deb %s %s main\n' "$uri" "$suite" >"$tmp/sources.list"
aptopts="-o Dir::Etc::SourceList=$tmp/sources.list -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$tmp/lists -o Dir::Cache::Archives=$tmp/archives -o APT::Get::List-Cleanup=0 -q"

step "reading the package index of $suite from $uri"
# shellcheck disable=SC2086
apt-get $aptopts update >"$tmp/update.log" 2>&1 ||
	{ tail -n 5 "$tmp/update.log" >&2; die "apt-get update of $suite failed (is $uri reachable?)"; }
step "downloading $pkg $ver"
# shellcheck disable=SC2086
(cd "$tmp" && apt-get $aptopts download "$pkg=$ver") >"$tmp/download.log" 2>&1 ||
	{ tail -n 3 "$tmp/download.log" >&2
	  die "$pkg $ver is not offered by $suite any more; pin a version it offers in scripts/bases.tsv"; }
deb=$(ls "$tmp"/*.deb)
got=$(sha256_of "$deb")
[ "$got" = "$deb_sum" ] ||
	die "sha256 mismatch for $(basename "$deb"): expected $deb_sum, got $got"

step "extracting the source tarball"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" >"$tmp/src.tar.xz" ||
	die "$(basename "$deb") holds no ./usr/src/$pkg.tar.xz"
got=$(sha256_of "$tmp/src.tar.xz")
[ "$got" = "$tar_sum" ] ||
	die "sha256 mismatch for $pkg.tar.xz inside the package: expected $tar_sum, got $got"
mv "$tmp/src.tar.xz" "$tarball"
printf '%s\n' "$tarball"
