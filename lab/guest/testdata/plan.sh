#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# plan.sh INIT TABLE CMDLINES: what the lab guest's /init (INIT, sourced,
# so its main does not run) would execute for each kernel command line of
# the file CMDLINES, with the scenario table TABLE: "== CMDLINE", then one
# "RUN PROGRAM ARGS" line per program started.  The programs are stand-ins
# that print their arguments; nothing is mounted, traced or measured.
# Checks that the table and init turn into the programs' command lines
# the scenarios are defined by (make -C lab/guest test).
set -eu
init=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
table=$2
cmdlines=$3
top=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/bin" "$work/lab"
cp "$table" "$work/lab/scenarios.tsv"
cp "$top/scripts/tsv.awk" "$top/lab/guest/selection.awk" "$top/lab/guest/scenarios.awk" "$top/lab/guest/run-tools.sh" "$work/lab/"
printf '#!/bin/sh\necho "RUN ${0##*/} $*"\n' >"$work/bin/stand-in"
chmod +x "$work/bin/stand-in"
for p in $(awk -f "$top/scripts/tsv.awk" -f "$top/lab/guest/selection.awk" -f "$top/lab/guest/scenarios.awk" "$table" | cut -f 2) damon-run; do
	ln -sf stand-in "$work/bin/$p"
done
while IFS= read -r cmdline; do
	echo "== $cmdline"
	(
		# init is written for busybox sh without -e and -u.
		set +eu
		# shellcheck disable=SC2329 # called by init's functions
		cat() { if [ "$1" = /proc/cmdline ]; then echo "$cmdline"; else command cat "$@"; fi; }
		# shellcheck disable=SC2329
		date() { echo TIME; }
		# shellcheck source=lab/guest/init.sh
		. "$init"
		PATH=$work/bin:$PATH
		# shellcheck disable=SC2034 # read by init's functions
		LAB=$work/lab
		# shellcheck disable=SC2329
		setup_tracing() { :; }
		parse_cmdline
		case $RUN in
		lab) run_lab ;;
		debug) run_debug ;;
		esac
	) | grep -v '^#'
done <"$cmdlines"
