# shellcheck shell=sh
# shellcheck disable=SC2154 # $scripts, $top, $logs: set by the runner, which sources this
# SPDX-License-Identifier: GPL-2.0
# static.sh: the fast tier's static checks.  The guest programs build
# warning-free and their parsers read their sample input; every shell
# script passes shellcheck; make help documents what the scripts read;
# the generated tables of the READMEs are in sync; the series' patch
# numbers and lab/hunks.tsv agree with the patches.

# shell_scripts: every shell script of the repository, one a line.
shell_scripts() {
	git -C "$top" ls-files | while read -r f; do
		case $f in
		*.sh | .ci/run) echo "$f" ;;
		*) head -n 1 "$top/$f" 2>/dev/null | grep -q '^#!/bin/sh' && echo "$f" ;;
		esac
	done
}

# series_numbers SERIESDIR: the "[PATCH i/N]" subjects count the patches
# the series file lists, the cover letter is 0/N, and the README names
# the same count for the mainline series.
series_numbers() {
	count=$(series_patches "$1" | wc -l)
	echo "$1/series lists $count patches"
	i=0
	for p in $(series_patches "$1"); do
		i=$((i + 1))
		grep -q "^Subject: \[PATCH[^]]* $i/$count\]" "$1/$p" || { echo "$p: not [PATCH $i/$count]"; return 1; }
	done
	for c in "$1"/0000-*.patch; do
		[ -f "$c" ] || continue
		grep -q "^Subject: \[PATCH[^]]* 0/$count\]" "$c" || { echo "$c: not [PATCH 0/$count]"; return 1; }
	done
	[ "$(basename "$1")" != mainline ] ||
		grep -q "patches 1-$((count - 1)) and a kselftest" "$top/README.md" ||
		{ echo "README.md does not say \"patches 1-$((count - 1)) and a kselftest\""; return 1; }
}

t "guest programs build -Wall -Wextra -Werror and skipstat parses a sample trace" \
	make -C "$top/lab/guest" O="$(guest_bin)" all test
# make demo SCENARIOS=7: the make variables of the make that runs a lab
# script reach its guest build through MAKEFLAGS, and must not override
# the guest Makefile's own (its SCENARIOS).
guest_build_under_make() {
	MAKEFLAGS=' -- SCENARIOS=7' sh -c 'here=$1 && . "$here/lib.sh" && . "$here/run-lib.sh" && run_guest lab' - "$scripts"
}
t "the guest programs build under make demo SCENARIOS=..." guest_build_under_make
# Two lab scripts' guests (work trees at two commits): each has its own
# initramfs and disk, and they go when it exits.
guest_files_private() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	files=$(for i in 1 2; do
		sh -c 'here=$1 && . "$here/lib.sh" && . "$here/run-lib.sh" && run_guest lab >/dev/null 2>&1 &&
			[ -s "$run_initrd" ] && [ -s "$run_disk" ] && echo "$run_initrd $run_disk"' - "$scripts"
	done)
	echo "$files"
	# shellcheck disable=SC2086 # four paths
	set -- $files
	[ $# -eq 4 ] && [ "$1" != "$3" ] && [ "$2" != "$4" ] &&
		[ ! -e "$1" ] && [ ! -e "$2" ] && [ ! -e "$3" ] && [ ! -e "$4" ]
}
t "each lab script boots an initramfs and a disk of its own, gone when it exits" guest_files_private
shellcheck_all() {
	(cd "$top" && shell_scripts | xargs shellcheck -S warning)
}
t "shellcheck -S warning: every shell script" shellcheck_all
# make help names every target and every variable a script reads but
# the ones the scripts set for each other (Makefile: INTERNAL_VARS); the
# README shows make help (doc-sync.sh, next test).
documented() {
	help=$(make -s -C "$top" help) || return 1
	rc=0
	for tg in $(sed -n 's/^\.PHONY: *//p' "$top/Makefile"); do
		printf '%s\n' "$help" | grep -q "^  make $tg\( \|\$\)" || { echo "make help does not list target $tg"; rc=1; }
	done
	internal=$(sed -n 's/^INTERNAL_VARS *:= *//p' "$top/Makefile")
	for v in $( (cd "$top" && sed -n 's/^\([A-Z_][A-Z0-9_]*\) *?=.*/\1/p' Makefile &&
		git ls-files 'scripts/*.sh' 'tests/*.sh' 'host/*.sh' | xargs grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=?+]' | sed 's/^\$.//; s/:.*//') | sort -u); do
		case " $internal " in *" $v "*) continue ;; esac
		printf '%s\n' "$help" | grep -qw "$v" || { echo "make help does not name variable $v"; rc=1; }
	done
	return $rc
}
t "make help names every target and every variable the scripts read" documented
t "the documents' generated tables equal what they are made from" \
	"$scripts/doc-sync.sh" --check
# lab/hunks.tsv: for each series it names (hunk_series), one row for each
# hunk of its patches 1-5, in order; the scenarios it names are scenario
# ids of the lab run, its kselftest cases cases of promotion-cases.tsv.
hunk_series() {
	tsv_awk '{ print col("series") }' "$top/lab/hunks.tsv" | uniq
}
hunk_table() {
	for series in $(hunk_series); do
		sdir=$top/series/$series
		[ -f "$sdir/series" ] || { echo "lab/hunks.tsv: no series/$series"; return 1; }
		want=$(for p in 1 2 3 4 5; do
			f=$(series_patches "$sdir" | sed -n "${p}p")
			awk -v p="$p" '/^@@ / { printf "%s %d\n", p, ++h } /^-- $/ { exit }' "$sdir/$f"
		done)
		got=$(tsv_awk 'col("series") == s { printf "%s %s\n", col("patch"), col("hunk") }' -v s="$series" \
			"$top/lab/hunks.tsv") || return 1
		[ "$want" = "$got" ] ||
			{ printf 'hunks of series/%s:\n%s\nits rows of lab/hunks.tsv:\n%s\n' "$series" "$want" "$got"; return 1; }
	done
	ids=" $(scenario_ids lab | tr '\n' ' ')"
	for s in $(tsv_awk 'col("scenarios") != "-" { print col("scenarios") }' "$top/lab/hunks.tsv"); do
		case $ids in *" $s "*) ;; *) echo "lab/hunks.tsv: $s is no scenario id of the lab run"; return 1 ;; esac
	done
	cases=" $(tsv_awk '{ print col("case") }' "$top/lab/kselftest/promotion-cases.tsv" | tr '\n' ' ')"
	for c in $(tsv_awk 'col("kselftest") != "-" { print col("kselftest") }' "$top/lab/hunks.tsv"); do
		case $cases in *" $c "*) ;; *) echo "lab/hunks.tsv: $c is no case of lab/kselftest/promotion-cases.tsv"; return 1 ;; esac
	done
}
t "lab/hunks.tsv: a row for every hunk of patches 1-5 of each series, naming scenario ids and kselftest cases" hunk_table
for sdir in "$top"/series/mainline "$top"/series/queue-6.12; do
	[ -f "$sdir/series" ] || continue
	t "$(basename "$sdir"): patch numbers in the subjects match the series file" series_numbers "$sdir"
done
# The entry points, the scripts the Makefile calls: -h prints the usage
# from the header comment and exits 0, touching nothing.
entry_help() {
	rc=0
	for f in $(grep -o '\(scripts\|tests\|host\)/[a-z0-9-]*\.sh' "$top/Makefile" | sort -u); do
		[ -x "$top/$f" ] || continue
		want=$(sed -n '3s/^# \{0,1\}//p' "$top/$f")
		got=$("$top/$f" -h | head -n 1) || { echo "$f -h fails"; rc=1; continue; }
		[ "$got" = "$want" ] || { echo "$f -h: '$got', not its header's '$want'"; rc=1; }
	done
	return $rc
}
t "every entry point of the Makefile answers -h with the usage of its header" entry_help
