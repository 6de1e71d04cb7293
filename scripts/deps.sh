#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deps.sh [--check] PACKAGE...: install the Debian packages the lab needs
# (as root, through apt-get); with --check only say which are missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

check=
[ "${1:-}" = --check ] && { check=1; shift; }
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
if [ -n "$check" ] && [ "$(id -u)" != 0 ]; then
	die "missing Debian packages:$missing; run 'make deps' as root"
fi
[ "$(id -u)" = 0 ] || die "missing Debian packages:$missing; run 'make deps' as root (or sudo)"
mkdir -p "$LAB_CACHE"
step "installing Debian packages:$missing"
apt-get update -q >/dev/null 2>&1 || die "apt-get update failed; check the apt configuration"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >"$LAB_CACHE/apt.log" 2>&1 ||
	{ tail -n 5 "$LAB_CACHE/apt.log" >&2; die "apt-get install failed; see $LAB_CACHE/apt.log"; }
