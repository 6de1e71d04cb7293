#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fast.sh [-t CATEGORY]...: the tests that need no kernel and no guest
# (make test, and the first tier of make check), TAP; with -t only the
# categories named (static, report, tree, input: tests/CATEGORY.sh).
set -u
scripts=$(cd "$(dirname "$0")/../scripts" && pwd)
top=$(dirname "$scripts")
# shellcheck disable=SC2034 # read by scripts/lib.sh
here=$scripts
. "$scripts/lib.sh"
script_help "$@"
. "$top/tests/tap.sh"

only=
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || die "-t needs a category: $fast_categories"; only="$only $2"; shift 2 ;;
	*) die "unknown argument '$1'; usage: tests/fast.sh [-t CATEGORY]..." ;;
	esac
done
# shellcheck disable=SC2086 # a list of categories
fast_categories_check $only

tap_begin "$LAB_CACHE/test"
# shellcheck disable=SC2086
fast_tier $only
tap_end
