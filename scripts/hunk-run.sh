#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hunk-run.sh RESULTS [SERIES [PATCH.HUNK...]]: prove that the hunks of
# SERIES (default mainline) that lab/hunks.tsv names scenarios for (or
# only the PATCH.HUNKs given) are needed.  For each, a kernel of patches
# 1-5 of series/SERIES (the fixes) with that hunk alone reverted runs
# those scenarios in the lab, judged by lab/expect.tsv as a kernel with
# those five patches; the hunk is proven when one of their checks fails,
# and every case of the kselftest numa_tiering_promotion (patch 8) that
# the row names in its kselftest column fails on that kernel too (booted
# with the series' kselftests, lab.run=kselftest, those cases alone).
# (A prefix of the series up to the hunk's patch would not do: without
# the later patches a scenario can stay stuck whatever the hunk does.)
# The base and the kernel of patches 1-5 (scripts/kernels.tsv) run them
# all once (when a row names scenarios): the checks that compare with the base need it, and the table
# shows all three.  The kernels are made one after the other in one
# worktree and one build directory ($LAB_CACHE/{trees,build}/VERSION-hunk),
# so that each rebuilds only what its hunk changes.  A kernel that does
# not build is a row that is not proven.
# Writes RESULTS/<date>/ as lab-run.sh does, plus hunks.tsv (patch, hunk,
# kernel, scenarios, failed: the scenarios with a failed check, kselftest,
# ksft_failed: the named cases that failed, proven: yes or no) and
# hunk-results.tsv, a row per hunk and scenario ("-" for a hunk with only
# kselftest cases): the share on the top tier and on the local nodes at
# the end on the base, the series and the series without the hunk, the
# checks that kernel failed and its kselftest cases' results
# (lab/hunks-SERIES.results is one of these; scripts/hunk-table.sh
# renders them).  Exit status: 0 every hunk proven, 3 one is not, else 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/run-lib.sh"

results=${1:?usage: hunk-run.sh RESULTS [SERIES [PATCH.HUNK...]]}
shift
sname=${1:-mainline}
[ $# -eq 0 ] || shift
only=" $* "
hunks=$here/../lab/hunks.tsv
sdir=$here/../series/$sname
[ -f "$sdir/series" ] || die "no series/$sname"
# The kernel of patches 1-5: SERIES:5, or SERIES itself when it has five.
series=$(kernels_awk 'col("kind") == "series" && col("series") == s ":5" { print col("name"); exit }' -v s="$sname")
[ -n "$series" ] || series=$(series_kernel "$sname")
[ "$(kernel_patches "$series")" = 5 ] ||
	die "scripts/kernels.tsv has no kernel of patches 1-5 of $sname (a row $sname:5)"
base=$(base_kernel "$series")
version=$(kernel_col "$series" base)

# The rows to prove, and the scenarios they name, checked before any build.
rows=$(tsv_awk 'col("series") == s && (col("scenarios") != "-" || col("kselftest") != "-") &&
		(only == "  " || index(only, " " col("patch") "." col("hunk") " ")) {
		print col("patch"), col("hunk"), col("scenarios"), col("kselftest")
	}' -v s="$sname" -v only="$only" "$hunks")
[ -n "$rows" ] || die "$hunks names no scenario or kselftest case for any hunk of $sname${*:+ among $*}"
# (tsv_awk prints tabs between the columns, blanks within a list.)
all=$(printf '%s\n' "$rows" | awk -F '\t' '$3 != "-" {
	n = split($3, s, " ")
	for (i = 1; i <= n; i++)
		if (!seen[s[i]]++)
			printf "%s ", s[i]
}')
# Rows with kselftest cases alone need no lab run of the base and series.
selection=
[ -z "$all" ] || selection=$(run_selection lab "$all")

# The kselftest guest, from the tree of the whole series (patch 8), when a
# row names kselftest cases; then the lab guest, which run_boot uses.
# shellcheck disable=SC2154 # run_guest sets run_guest_dir, run_initrd
if printf '%s\n' "$rows" | awk -F '\t' '$4 != "-" { found = 1 } END { exit !found }'; then
	ftree=$("$here/kernel.sh" --tree "$(series_kernel "$sname")")
	run_guest kselftest "$ftree"
	ksft_initrd=$run_guest_dir/ksft-initrd.gz
	mv "$run_initrd" "$ksft_initrd"
fi
run_guest lab
run_build "$base" "$series"
stree=$("$here/kernel.sh" --tree "$series")
stree_git=$(git -C "$stree" rev-parse --absolute-git-dir)
base_commit=$(cat "$stree_git/lab-base") || die "$stree: no record of its base commit; remake it (make tree)"
fixes=$(git -C "$stree" rev-list --reverse HEAD --not "$base_commit" | sed -n 5p)
[ -n "$fixes" ] || die "$stree: fewer than 5 commits on its base"
mtree=$LAB_CACHE/trees/$version-hunk
mbuild=$LAB_CACHE/build/$version-hunk
if [ ! -e "$mtree" ]; then
	git -C "$stree" worktree add -q -f --detach "$mtree" "$base_commit" ||
		die "cannot make the worktree $mtree"
fi

run_dir=$(run_start "$results")
for k in "$base" "$series"; do
	if [ -z "$selection" ]; then
		# Not booted, but their sources are the run's (run_versions).
		run_row "$run_dir/kernels.tsv" "kernel kind base_kernel patches" \
			"$k" "$(kernel_col "$k" kind)" "$base" "$(kernel_patches "$k")"
		continue
	fi
	run_boot "$run_dir" "$k" "lab.scenarios=$selection" || die "the guest of $k failed"
	run_parse "$run_dir" "$k"
done
tmp=$run_dir/.hunk
mkdir -p "$tmp"
printf '%s\n' "$rows" >"$tmp/todo"
printf 'patch\thunk\tkernel\tscenarios\tkselftest\tksft_failed\n' >"$tmp/rows"
tab=$(printf '\t')
# shellcheck disable=SC2154 # run_guest sets run_disk, run_initrd, run_args
while IFS=$tab read -r p h sel ksft; do
	name=$version-hunk-$p.$h
	patch=$(series_patches "$sdir" | sed -n "${p}p")
	[ -n "$patch" ] || die "series/$sname has no patch $p"
	awk -v n="$h" -f "$here/hunk.awk" "$sdir/$patch" >"$tmp/hunk.patch" ||
		die "patch $p ($patch) has no hunk $h"
	step "$name: patches 1-5 without hunk $h of patch $p"
	git -C "$mtree" checkout -q -f --detach "$fixes"
	git -C "$mtree" apply -R "$tmp/hunk.patch" 2>/dev/null ||
		git -C "$mtree" apply -R -C1 "$tmp/hunk.patch" ||
		die "hunk $h of patch $p does not revert from patches 1-5; say why in $hunks instead"
	if ! bz=$("$here/build-kernel.sh" "$mtree" "$mbuild"); then
		printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$h" "$name" "$sel" "$ksft" >>"$tmp/nobuild"
		continue
	fi
	if [ "$sel" != - ]; then
		"$here/run-guest.sh" -d "$run_disk" "$bz" "$run_initrd" "$run_dir/$name.console" \
			"$run_args" "lab.scenarios=$(run_selection lab "$sel")" ||
			die "the guest of $name failed (console: $run_dir/$name.console)"
		run_row "$run_dir/kernels.tsv" "kernel kind base_kernel patches" "$name" series "$base" 5
		run_parse "$run_dir" "$name" series
	fi
	kfailed=-
	if [ "$ksft" != - ]; then
		kcon=$run_dir/$name.kselftest.console
		# shellcheck disable=SC2086 # a list of cases
		"$here/run-guest.sh" -d "$run_disk" "$bz" "$ksft_initrd" "$kcon" lab.run=kselftest \
			ksft_only=numa_tiering_promotion "ksft_args=$(printf -- '-t,%s,' $ksft | sed 's/,$//')" ||
			die "the kselftest guest of $name failed (console: $kcon)"
		kfailed=$(awk -v fixture=numa_tiering -f "$here/ksft-cases.awk" "$kcon" |
			awk -F '\t' '$2 == "fail" { printf "%s%s", sep, $1; sep = " " }')
		[ -n "$kfailed" ] || kfailed=-
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$h" "$name" "$sel" "$ksft" "$kfailed" >>"$tmp/rows"
done <"$tmp/todo"
git -C "$mtree" checkout -q -f --detach "$base_commit"

status=0
if [ -n "$selection" ]; then
	"$here/report.sh" "$run_dir" >/dev/null || [ $? -eq 3 ] || exit 1
else
	printf 'kernel\tscenario\ttop_pct\tlocal_pct\tfailed\tverdict\n' >"$run_dir/summary.tsv"
fi
# A hunk is proven when its kernel fails a check in one of its scenarios
# (if it has any) and every kselftest case it names.
{
	printf 'patch\thunk\tkernel\tscenarios\tfailed\tkselftest\tksft_failed\tproven\n'
	tsv_awk 'FILENAME ~ /summary.tsv$/ { if (col("verdict") == "fail") failed[col("kernel"), col("scenario")] = 1; next }
		{
			f = ""
			n = split(col("scenarios"), s, " ")
			for (i = 1; i <= n; i++)
				if ((col("kernel") SUBSEP s[i]) in failed)
					f = f (f == "" ? "" : " ") s[i]
			proven = col("scenarios") == "-" || f != ""
			n = split(col("kselftest"), c, " ")
			for (i = 1; i <= n; i++)
				if (c[i] != "-" && index(" " col("ksft_failed") " ", " " c[i] " ") == 0)
					proven = 0
			print col("patch"), col("hunk"), col("kernel"), col("scenarios"), (f == "" ? "-" : f),
				col("kselftest"), col("ksft_failed"), (proven ? "yes" : "no")
		}' "$run_dir/summary.tsv" "$tmp/rows"
	[ ! -s "$tmp/nobuild" ] ||
		awk -F '\t' -v OFS='\t' '{ print $1, $2, $3, $4, "does-not-build", $5, "-", "no" }' "$tmp/nobuild"
} >"$run_dir/hunks.tsv"
# The same, a row per hunk and scenario, with what the three kernels showed.
tsv_awk '
	FILENAME ~ /summary.tsv$/ {
		k = col("kernel"); s = col("scenario")
		top[k, s] = col("top_pct"); local[k, s] = col("local_pct")
		failed[k, s] = col("failed")
		next
	}
	BEGIN {
		print "series", "patch", "hunk", "scenario", "base_top", "base_local", "series_top", "series_local",
			"hunk_top", "hunk_local", "hunk_failed", "kselftest", "ksft_failed", "proven"
	}
	{
		n = split(col("scenarios"), sc, " ")
		for (i = 1; i <= n; i++) {
			s = sc[i]; h = col("kernel")
			print sname, col("patch"), col("hunk"), s, top[base, s], local[base, s], top[series, s], local[series, s],
				top[h, s], local[h, s], failed[h, s], col("kselftest"), col("ksft_failed"), col("proven")
		}
	}' -v base="$base" -v series="$series" -v sname="$sname" "$run_dir/summary.tsv" "$run_dir/hunks.tsv" \
	>"$run_dir/hunk-results.tsv"
rm -rf "$tmp"
tsv_awk 'col("proven") != "yes" { bad = 1 } END { exit bad }' "$run_dir/hunks.tsv" || status=3
run_publish "$run_dir" "$results" >/dev/null
step "hunks: $results/latest/hunks.tsv"
exit $status
