# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for the lab scripts (POSIX sh).

: "${LAB_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/numab-lab}"
export LAB_CACHE

prog=${0##*/}

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

step() {
	printf '==> %s\n' "$*" >&2
}

# need CMD PACKAGE: fail with a hint when a tool is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found; run 'make deps' (as root) or install Debian package '$2'"
}

# sha256_of FILE
sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

# apt_uris: every archive URI of this machine's apt configuration.
apt_uris() {
	{
		sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)[[:space:]].*/\2/p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | tr ' ' '\n' | sed 's#/*$##'
}

# apt_mirror_security: the debian-security archive URI, or $LAB_SECURITY_MIRROR.
apt_mirror_security() {
	if [ -n "${LAB_SECURITY_MIRROR:-}" ]; then
		printf '%s\n' "$LAB_SECURITY_MIRROR"
		return
	fi
	apt_uris | grep -E '^[a-z+]+://.*/debian-security$' | head -n 1
}

# apt_mirror: the Debian archive URI of this machine's apt configuration,
# or $LAB_MIRROR when set.  Never hard-coded.
apt_mirror() {
	if [ -n "${LAB_MIRROR:-}" ]; then
		printf '%s\n' "$LAB_MIRROR"
		return
	fi
	apt_uris | grep -E '^[a-z+]+://.*/debian$' | head -n 1
}

# series_patches SERIESDIR [COUNT]: the patch files SERIESDIR/series lists
# (its first COUNT), one a line.
series_patches() {
	grep -v '^#' "$1/series" | sed '/^$/d' | head -n "${2:-9999}"
}

# series_sum SERIESDIR [COUNT]: fingerprint of those patches, stored in a
# tree made from them so that a changed series is noticed.
series_sum() {
	(cd "$1" && cat $(series_patches . "${2:-}")) | sha256sum | cut -d' ' -f1
}
