#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# base-tree.sh BASE: print the git tree of kernel base BASE, creating it from
# the verified Debian source on first use.  With $KSRC set, that tree is the
# base instead (it must be a kernel git tree).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

base=${1:?usage: base-tree.sh BASE}
if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] && [ -f "$KSRC/mm/mprotect.c" ] ||
		die "KSRC=$KSRC is not a kernel source tree (no Makefile or mm/mprotect.c)"
	git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
		die "KSRC=$KSRC is not a git tree with a commit; the series is applied with git am"
	(cd "$KSRC" && pwd)
	exit 0
fi
"$here/mktree.sh" "$base" "$LAB_CACHE/trees/$base" >&2
printf '%s\n' "$LAB_CACHE/trees/$base"
