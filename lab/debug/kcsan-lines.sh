#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kcsan-lines.sh CONSOLE BUILD SRC [FIELD...]: the KCSAN data-race reports
# of a guest console, each with the source line of every access it shows.
#
# A report's accesses are the first stack frame after each "read to" or
# "write to" line (function+offset[/size]); scripts/faddr2line of kernel
# tree SRC resolves them against BUILD/vmlinux (kconfig/kcsan.config
# gives it line-level debug info).  Prints, per report:
#
#   race N: <headline>
#     <access line>  <file:line>  <source text>
#
# and "N KCSAN reports" at the end (0 when there is none).  Exit status 3
# when the source line of some access names one of the FIELDs (a word of
# it), with "names FIELD" after that access; 0 otherwise.
set -eu
usage="usage: kcsan-lines.sh CONSOLE BUILD SRC [FIELD...]"
console=${1:?$usage}
build=${2:?$usage}
src=${3:?$usage}
shift 3
[ -f "$build/vmlinux" ] || { echo "kcsan-lines.sh: no $build/vmlinux" >&2; exit 1; }

# "N<tab>headline", then "N<tab>access<tab>frame" per access.
awk '
	{ sub(/\r$/, ""); sub(/^.*\[ *[0-9]+\.[0-9]+\] /, "") }
	/BUG: KCSAN: / { n++; printf "%d\t%s\n", n, $0; want = 0; next }
	n && /^(read|write)( \(marked\))? to / { access = $0; want = 1; next }
	n && want && /^ *[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+(\/0x[0-9a-f]+)?/ {
		frame = $1
		printf "%d\t%s\t%s\n", n, access, frame
		want = 0
	}' "$console" >"${TMPDIR:-/tmp}/kcsan-lines.$$"
trap 'rm -f "${TMPDIR:-/tmp}/kcsan-lines.$$"' EXIT

n=0
named=
while IFS='	' read -r nr what frame; do
	if [ -z "$frame" ]; then
		n=$nr
		printf 'race %s: %s\n' "$nr" "$what"
		continue
	fi
	# faddr2line prints "func+off/size:" then "func at file:line".
	at=$("$src/scripts/faddr2line" "$build/vmlinux" "$frame" 2>/dev/null |
		sed -n 's/^.* at \([^ ]*:[0-9][0-9]*\).*/\1/p' | head -n 1)
	text=
	if [ -n "$at" ]; then
		file=${at%:*}
		line=${at##*:}
		case $file in /*) ;; *) file=$src/$file ;; esac
		[ ! -f "$file" ] || text=$(sed -n "${line}p" "$file" | sed 's/^[[:space:]]*//')
		at=${at#"$src"/}
	fi
	printf '  %s  %s  %s\n' "$what" "${at:-?}" "$text"
	for f in "$@"; do
		if printf '%s\n' "$text" | grep -q "\(^\|[^A-Za-z0-9_]\)$f\([^A-Za-z0-9_]\|\$\)"; then
			printf '    names %s\n' "$f"
			named=yes
		fi
	done
done <"${TMPDIR:-/tmp}/kcsan-lines.$$"
echo "$n KCSAN reports"
[ -z "$named" ] || exit 3
