#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check.sh: the test suite behind `make check` (and `make check-full` with
# CHECK_FULL=1).  TAP: every test prints "ok N - what" or "not ok N - what"
# with the tail of its log, the plan "1..N" comes last (a run cut short
# has none), then "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
top=$(cd "$here/.." && pwd)

logs=$LAB_CACHE/check
rm -rf "$logs"
mkdir -p "$logs"
passed=0
failed=0
known=0
n=0

# t DESCRIPTION COMMAND...: run one test, its output into a log.
t() {
	desc=$1
	shift
	n=$((n + 1))
	log=$logs/$n.log
	start=$(date +%s)
	printf '# %s ...\n' "$desc"
	if [ -n "${todo:-}" ] && ! "$@" >"$log" 2>&1; then
		# A known problem, kept visible: TAP's TODO, not counted as failed.
		known=$((known + 1))
		printf 'not ok %d - %s # TODO %s\n' "$n" "$desc" "$todo"
		tail -n 3 "$log" | sed 's/^/#   /'
	elif [ -n "${todo:-}" ]; then
		passed=$((passed + 1))
		printf 'ok %d - %s # TODO %s (now passes)\n' "$n" "$desc" "$todo"
	elif "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
		printf 'ok %d - %s (%ss)\n' "$n" "$desc" "$(( $(date +%s) - start ))"
	else
		failed=$((failed + 1))
		printf 'not ok %d - %s (%ss)\n' "$n" "$desc" "$(( $(date +%s) - start ))"
		tail -n 15 "$log" | sed 's/^/#   /'
		printf '#   full log: %s\n' "$log"
	fi
}

# verdicts FILE: one test per row of a lab summary.tsv, read by column name.
verdicts() {
	[ -s "$1" ] || { t "lab results exist ($1)" false; return; }
	tab=$(printf '\t')
	tsv_awk '{ print col("kernel"), col("scenario"), col("name"), col("mode"), col("checks"),
		col("local_pct"), col("t90"), col("pte_updates_per_s"), col("hint_faults_per_s"),
		col("skipped_bytes"), col("failed"), col("verdict"), col("todo") }' "$1" >"$logs/verdicts.tsv" ||
		{ t "lab results readable ($1)" false; return; }
	while IFS=$tab read -r k s name mode checks local_pct t90 pte flt skipped fails verdict todo; do
		[ "$todo" = - ] && todo=
		t "lab: $k scenario $s ($name, mode $mode): $checks" \
			sh -c 'printf "local_pct=%s t90=%s pte/s=%s faults/s=%s skipped=%s\nfailed: %s\n" "$1" "$2" "$3" "$4" "$5" "$6"; [ "$7" = pass ]' \
			- "$local_pct" "$t90" "$pte" "$flt" "$skipped" "$fails" "$verdict"
	done <"$logs/verdicts.tsv"
	todo=
}

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

# What the work tree holds before the tests, to compare at the end.
worktree_before=$(git -C "$top" status --porcelain --ignored)

echo "TAP version 13"
t "guest programs build -Wall -Wextra -Werror and skipstat parses a sample trace" \
	make -C "$top/lab/guest" O="$(guest_bin)" all test
# make demo SCENARIOS=7: the make variables of the make that runs a lab
# script reach its guest build through MAKEFLAGS, and must not override
# the guest Makefile's own (its SCENARIOS).
guest_build_under_make() {
	MAKEFLAGS=' -- SCENARIOS=7' sh -c 'here=$1 && . "$here/lib.sh" && . "$here/run-lib.sh" && run_guest lab' - "$here"
}
t "the guest programs build under make demo SCENARIOS=..." guest_build_under_make
# Two lab scripts' guests (work trees at two commits): each has its own
# initramfs and disk, and they go when it exits.
guest_files_private() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	files=$(for i in 1 2; do
		sh -c 'here=$1 && . "$here/lib.sh" && . "$here/run-lib.sh" && run_guest lab >/dev/null 2>&1 &&
			[ -s "$run_initrd" ] && [ -s "$run_disk" ] && echo "$run_initrd $run_disk"' - "$here"
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
		git ls-files 'scripts/*.sh' | xargs grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=?+]' | sed 's/^\$.//; s/:.*//') | sort -u); do
		case " $internal " in *" $v "*) continue ;; esac
		printf '%s\n' "$help" | grep -qw "$v" || { echo "make help does not name variable $v"; rc=1; }
	done
	return $rc
}
t "make help names every target and every variable the scripts read" documented
# damon-report.sh on a made-up run where NUMA balancing took less system
# time than the floor run: its table says so instead of a negative cost.
damon_below_floor() {
	d=$(mktemp -d)
	mkdir "$d/floor"
	{
		printf 'kernel\tkind\tscenario\tname\tmode\ttop_pct\tt90\tpgpromote_success\tverdict\n'
		printf 'b\tbase\t3\tro-file\t2\t0.0\t-1\t0\tpass\n'
		printf 'p\tpeer\t3\tro-file\t0\t100.0\t1.0\t0\tpass\n'
	} >"$d/summary.tsv"
	{
		printf 'kernel\tscenario\tmech\tsecs\tuser_ms\tsys_ms\tkdamond_ms\tpromoted_bytes\n'
		printf 'b\t3\tnumab\t30\t100\t290\tNA\tNA\n'
		printf 'p\t3\tdamon\t30\t100\t300\t490\t67108864\n'
	} >"$d/cpu.tsv"
	printf 'scenario\tmech\tsys_ms\n3\tnone\t300\n' >"$d/floor/cpu.tsv"
	"$here/damon-report.sh" "$d" >/dev/null && cat "$d/damon.md"
	grep -q 'below the floor' "$d/damon.md" && ! grep -q '| -[0-9]' "$d/damon.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "DAMON table: a cost below the floor run is not shown as a negative number" damon_below_floor
# made_up_damon DIR: three made-up runs of damon-demo.sh in DIR.
made_up_damon() {
	d=$1
	for r in 1 2 3; do
		mkdir -p "$d/run-$r/floor"
		{
			printf 'kernel\tkind\tscenario\tname\tmode\ttop_pct\tt90\tpgpromote_success\tverdict\n'
			printf 'p\tpeer\t1\tfork-cow\t0\t99.0\t%s.0\t0\tpass\n' $((r + 2))
			printf 's\tseries\t1\tfork-cow\t2\t100.0\t1.0\t16384\tpass\n'
		} >"$d/run-$r/summary.tsv"
		{
			printf 'kernel\tscenario\tmech\tsecs\tuser_ms\tsys_ms\tkdamond_ms\tpromoted_bytes\n'
			printf 'p\t1\tdamon\t30\t100\t300\t%s\t67108864\n' $((1000 + 100 * r))
			printf 's\t1\tnumab\t30\t100\t%s\t0\t0\n' $((500 + 40 * r))
		} >"$d/run-$r/cpu.tsv"
		printf 'scenario\tmech\tsys_ms\n1\tnone\t300\n' >"$d/run-$r/floor/cpu.tsv"
		{
			printf 'kernel\tkind\tscenario\tpart\ttop_pct\tlocal_pct\tt90\thot_bytes\n'
			printf 'p\tpeer\t1\tdb\t90.0\t90.0\t%s.0\t4096\n' $((r * 10))
			printf 's\tseries\t1\tdb\t100.0\t100.0\t2.0\t4096\n'
		} >"$d/run-$r/part-ends.tsv"
	done
}

# damon-report.sh on three made-up runs: the cost per MiB promoted, the
# medians and their ranges, also of a scenario's parts.
damon_repeat_made_up() {
	d=$(mktemp -d)
	made_up_damon "$d"
	"$here/damon-report.sh" "$d" >/dev/null && cat "$d/damon.md" &&
		grep -q '^| 1/db | - | - | 90.0 | 20 \[10-30\] | 100.0 | 2 |$' "$d/damon.md" &&
		grep -q '^| 1 | fork-cow | 30 | - | - | - | 99.0 | 4 \[3-5\] | 1200 \[1100-1300\] (4.0%) | 100.0 | 1 | 280 \[240-320\] (0.9%) |$' "$d/damon.md" &&
		grep -q '^| 1 | fork-cow | - | - | 64 | 18.8 \[17.2-20.3\] | 64 | 4.4 \[3.8-5.0\] |$' "$d/damon.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "DAMON table: cost per MiB promoted, medians and ranges over three made-up runs" damon_repeat_made_up

# damon-report.sh on three made-up runs of scenario 3: DAMON promoted
# only in run 1 (no cost per MiB in the median run, not run 1's), the
# series took less system time than the floor run in run 1 (its range
# ends at "floor", no negative number).
damon_repeat_floor_na() {
	d=$(mktemp -d)
	for r in 1 2 3; do
		mkdir -p "$d/run-$r/floor"
		{
			printf 'kernel\tkind\tscenario\tname\tmode\ttop_pct\tt90\tpgpromote_success\tverdict\n'
			printf 'p\tpeer\t3\tro-file\t0\t%s\t-1\t0\tpass\n' "$([ $r = 1 ] && echo 25.0 || echo 0.0)"
			printf 's\tseries\t3\tro-file\t2\t100.0\t1.0\t16384\tpass\n'
		} >"$d/run-$r/summary.tsv"
		{
			printf 'kernel\tscenario\tmech\tsecs\tuser_ms\tsys_ms\tkdamond_ms\tpromoted_bytes\n'
			printf 'p\t3\tdamon\t30\t100\t300\t500\t%s\n' "$([ $r = 1 ] && echo 16777216 || echo 0)"
			printf 's\t3\tnumab\t30\t100\t%s\t0\t0\n' $((150 + 100 * r))
		} >"$d/run-$r/cpu.tsv"
		printf 'scenario\tmech\tsys_ms\n3\tnone\t300\n' >"$d/run-$r/floor/cpu.tsv"
	done
	"$here/damon-report.sh" "$d" >/dev/null && cat "$d/damon.md" &&
		grep -q '^| 3 | ro-file | - | - | 0 | - | 64 | 0.8 \[floor-2.3\] |$' "$d/damon.md" &&
		grep -q '^| 3 | ro-file | 30 | - | - | - | 0.0 \[0.0-25.0\] | never | 500 (1.7%) | 100.0 | 1 | 50 \[floor-150\] (0.2%) |$' "$d/damon.md" &&
		! grep -q '[[ ]-[0-9]' "$d/damon.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "DAMON table over runs: no cost per MiB where the median run promoted nothing, a cost range below the floor ends at \"floor\"" damon_repeat_floor_na

# run_runs over made-up runs of REPEAT=3: a run that stops in run 2 is
# taken up by the same command from run 2, and published with when its
# runs finished; another command's interrupted run is left as it is; a
# run that shared the host (host.tsv) is made again.
repeat_resume_made_up() {
	d=$(mktemp -d)
	made_up() { # NAME FAIL_AT: the made-up run NAME into $d/res, stopping in run FAIL_AT
		REPEAT=3 FAIL_AT=$2 sh -c '
			here=$1 log=$2
			. "$here/lib.sh"
			. "$here/run-lib.sh"
			one() {
				echo "$0 ${1##*/}" >>"$log"
				[ "${1##*-}" != "$FAIL_AT" ] || exit 1
				mkdir -p "$1" && printf "kernel\nk\n" >"$1/kernels.tsv"
				# The first try of run 3 of "b" shares the host.
				busy=0
				[ "$0 ${1##*/}" != "b run-3" ] || [ -f "$log.busy" ] || { busy=50; : >"$log.busy"; }
				printf "kernel\tother_cpu_pct\nk\t%s\n" "$busy" >"$1/host.tsv"
			}
			run_dir=$(run_start "$3")
			run_runs one
			run_publish "$run_dir" "$3" >/dev/null' "$1" "$here" "$d/log" "$d/res"
	}
	made_up a 2
	a_left=$(ls -d "$d"/res/.run.*/run-1/.done 2>/dev/null | wc -l)
	made_up a 0
	made_up a 3
	made_up b 0
	cat "$d/log"
	ls -a "$d/res" "$d/res/latest"
	[ "$a_left" -eq 1 ] &&
		[ "$(tr '\n' ' ' <"$d/log")" = "a run-1 a run-2 a run-2 a run-3 a run-1 a run-2 a run-3 b run-1 b run-2 b run-3 b run-3 " ] &&
		[ "$(ls -d "$d"/res/latest/run-*/.done | wc -l)" -eq 3 ] &&
		grep '^runs finished: ' "$d/res/latest/versions.txt" &&
		[ "$(ls -d "$d"/res/.run.*/run-*/.done | wc -l)" -eq 2 ] &&
		[ "$(ls -d "$d"/res/2*/ | wc -l)" -ge 1 ]
	rc=$?
	rm -rf "$d"
	return $rc
}
t "REPEAT: an interrupted run is taken up where it stopped, by the same command only; one that shared the host is made again" repeat_resume_made_up

# repeat-report.sh on three made-up runs of one kernel: the medians, the
# ranges (a t90 never reached sorts last) and the verdicts over the runs,
# with the failed checks of each failing run.
repeat_made_up() {
	d=$(mktemp -d)
	# run t90s, top-tier (= local) shares and verdicts, scenario by scenario.
	for r in 1 2 3; do
		mkdir "$d/run-$r"
		printf 'kernel\tkind\tbase_kernel\tpatches\nk\tseries\tb\t8\n' >"$d/run-$r/kernels.tsv"
		printf 'kernel\tkind\tscenario\tname\tmode\tsecs\ttop_pct\tlocal_pct\tt90\tpte_updates\thint_faults\n' >"$d/run-$r/ends.tsv"
		printf 'kernel\tkind\tscenario\tname\tmode\ttop_pct\tt90\tfailed\tverdict\n' >"$d/run-$r/summary.tsv"
	done
	row() { # RUN SCENARIO TOP_PCT T90 PTE VERDICT
		printf 'k\tseries\t%s\tx\t2\t20.0\t%s\t%s\t%s\t%s\t0\n' "$2" "$3" "$3" "$4" "$5" >>"$d/run-$1/ends.tsv"
		printf 'k\tseries\t%s\tx\t2\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" \
			"$([ "$6" = pass ] && echo - || echo 'top_pct ge 90')" "$6" >>"$d/run-$1/summary.tsv"
	}
	row 1 0 100.0 2.0 10 pass; row 2 0 96.0 -1 30 pass; row 3 0 98.0 4.0 20 pass
	row 1 1 50.0 -1 0 fail; row 2 1 95.0 3.0 0 pass; row 3 1 91.0 5.0 0 pass
	row 1 2 10.0 -1 0 fail; row 2 2 95.0 3.0 0 pass; row 3 2 11.0 -1 0 fail
	"$here/repeat-report.sh" "$d" 2>&1
	rc=$?
	cat "$d/report.md" "$d/ranges.tsv"
	[ $rc -eq 3 ] &&
		tsv_awk 'col("scenario") == 0 && col("top_pct") == "98.0" && col("t90") == "4.0" && col("pte_updates") == 20 { f++ }
			END { exit f != 1 }' "$d/ends.tsv" &&
		tsv_awk '{ v[col("scenario")] = col("verdict") " " col("passes") "/" col("runs") }
			END { exit !(v[0] == "pass 3/3" && v[1] == "median 2/3" && v[2] == "fail 1/3") }' "$d/summary.tsv" &&
		tsv_awk 'col("scenario") == 2 { f = col("failed") }
			END { exit f != "run 1: top_pct ge 90; run 3: top_pct ge 90" }' "$d/summary.tsv" &&
		tsv_awk 'col("scenario") == 0 && col("column") == "t90" { f = col("min") " " col("max") } END { exit f != "2.0 -1" }' \
			"$d/ranges.tsv" &&
		grep -q '| k | 0 | x | 2 | 20.0 \[20.0-20.0\] | 98.0 \[96.0-100.0\] | 98.0 \[96.0-100.0\] | 4 \[2-never\] | 20 \[10-30\] |' "$d/report.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "REPEAT: medians, ranges and verdicts over three made-up runs" repeat_made_up
# walk-cost-report.sh on three made-up runs of scenario 14.0 and its
# control 14.1: the cold VMAs' cost is the difference of each run, its
# median and range, and series / base the ratio of the medians.
walk_cost_made_up() {
	d=$(mktemp -d)
	printf 'kernel\tkind\tbase_kernel\tpatches\nb\tbase\tb\t0\ns\tseries\tb\t8\n' >"$d/kernels.tsv"
	for r in 1 2 3; do
		mkdir "$d/run-$r"
		{
			printf 'kernel\tkind\tscenario\tmech\tsecs\tuser_ms\tsys_ms\n'
			printf 'b\tbase\t14.0\tnumab\t30.0\t1\t%s\n' $((300 + 10 * r))
			printf 'b\tbase\t14.1\tnumab\t30.0\t1\t150\n'
			printf 's\tseries\t14.0\tnumab\t30.0\t1\t900\n'
			printf 's\tseries\t14.1\tnumab\t30.0\t1\t150\n'
		} >"$d/run-$r/cpu.tsv"
		{
			printf 'kernel\tkind\tscenario\tname\tmode\tsecs\tt90\tscan_passes\n'
			printf 'b\tbase\t14.0\tx\t2\t30.0\t-1\t20\n'
			printf 'b\tbase\t14.1\tx\t2\t30.0\t2.0\t30\n'
			printf 's\tseries\t14.0\tx\t2\t30.0\t%s.0\t20\n' $((r + 1))
			printf 's\tseries\t14.1\tx\t2\t30.0\t2.0\t30\n'
		} >"$d/run-$r/ends.tsv"
	done
	"$here/walk-cost-report.sh" "$d" 14 && cat "$d/walk-cost.md" "$d/walk-cost.tsv" &&
		tsv_awk 'col("kernel") == "b" && col("column") == "walk_cpu_ms_per_s" { f = col("median") " " col("min") " " col("max") }
			END { exit f != "5.7 5.3 6.0" }' "$d/walk-cost.tsv" &&
		grep -q '^| the cold VMAs: the difference | 5.7 \[5.3 - 6.0\] | 25.0 | 4.39 |$' "$d/walk-cost.md" &&
		grep -q '^| hot VMA: seconds to 90 % | never | 3 \[2 - 4\] | - |$' "$d/walk-cost.md" &&
		grep -q '^## Scenario 14[.]0: numa_balancing=2, .*, 30 s runs$' "$d/walk-cost.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "walk cost: per-run differences against the control, medians, ranges, ratios, the run length" walk_cost_made_up
# scale-report.sh on three made-up runs of two points at one hot set: the
# VMAs' size, the median time to 90 % with its range (a run that never
# got there sorts last) in whole seconds.  made_up_scale DIR: the runs.
made_up_scale() {
	d=$1
	for r in 1 2 3; do
		mkdir "$d/run-$r"
		printf 'kernel\tkind\tbase_kernel\tpatches\nb\tbase\tb\t0\ns\tseries\tb\t8\n' >"$d/run-$r/kernels.tsv"
		{
			printf 'kernel\tkind\tscenario\tname\tmode\tsecs\ttop_pct\tt90\tpte_updates\thint_faults\tscan_passes\tpgpromote_success\thot_bytes\n'
			for p in 64 512; do
				printf 'b\tbase\t5-%sx8\tpid-inactive\t2\t60.0\t5.0\t-1\t60\t60\t2\t0\t268435456\n' $p
				printf 's\tseries\t5-%sx8\tpid-inactive\t2\t60.0\t100.0\t%s.5\t60\t60\t%s\t65536\t268435456\n' $p $((r * p / 64)) $((10 * r))
			done
		} >"$d/run-$r/ends.tsv"
	done
}
scale_made_up() {
	d=$(mktemp -d)
	made_up_scale "$d"
	"$here/scale-report.sh" "$d" >/dev/null && cat "$d/scale.md" &&
		grep -q '^| 64 | 4096 | 8 | 512 | > 60 | 5.0 | 3 \[2-4\] | 100.0 |$' "$d/scale.md" &&
		grep -q '^| 512 | 512 | 8 | 4096 | > 60 | 5.0 | 17 \[9-25\] | 100.0 |$' "$d/scale.md" &&
		grep -q '(256 MiB of hot memory in' "$d/scale.md" &&
		grep -q '^| 512 | 8 | series | 17 \[9-25\] | 5.7 | 20.0 | 1.0 | 1.0 | 4.3 | NA |$' "$d/scale.md" &&
		grep -q '^| 64 | 8 | base | > 60 | > 20.0 | 2.0 | 1.0 | 1.0 | 0.0 | NA |$' "$d/scale.md"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "scale: VMAs of a constant hot set, medians and ranges over three made-up runs" scale_made_up

# peer.sh --doc-only on made-up DAMON and scale runs: each report becomes
# DOCDIR/NAME.md with its tables under the headings the README's table
# directives name and its plots renamed after it; a comparison with no
# run keeps its page.
peer_doc_made_up() {
	peer_dir=$(mktemp -d)
	for run in damon scale; do
		mkdir -p "$peer_dir/$run/1"
		"made_up_$run" "$peer_dir/$run/1"
		printf 'kernel\tuname\nk\t7.3.4+\n' >"$peer_dir/$run/1/uname.tsv"
		printf 'made-up %s runs\n' "$run" >"$peer_dir/$run/1/versions.txt"
		"$here/$run-report.sh" "$peer_dir/$run/1" >/dev/null || { rm -rf "$peer_dir"; return 1; }
		ln -s 1 "$peer_dir/$run/latest"
	done
	# Plots of a real run the made-up ones have no samples for.
	echo 'made-up plot' >"$peer_dir/damon/1/top-tier.png"
	[ -s "$peer_dir/scale/1/scale-top-tier.png" ] || echo 'made-up plot' >"$peer_dir/scale/1/scale-top-tier.png"
	mkdir "$peer_dir/doc"
	echo 'an earlier walk cost' >"$peer_dir/doc/walk-cost.md"
	doc=$peer_dir/doc
	"$here/peer.sh" --doc-only "$peer_dir" "$doc" && ls "$doc" &&
		awk -f "$here/md-table.awk" -v heading="DAMON peer" "$doc/damon.md" | grep -q '^| 1 | fork-cow |' &&
		awk -f "$here/md-table.awk" -v heading="The cost per MiB promoted" "$doc/damon.md" | grep -q '^| 1 | fork-cow | - | - | 64 |' &&
		awk -f "$here/md-table.awk" -v heading="Part by part" "$doc/damon.md" | grep -q '^| 1/db |' &&
		awk -f "$here/md-table.awk" -v heading="Scenario 5 at scale" "$doc/scale.md" | grep -q '^| 64 | 4096 | 8 |' &&
		awk -f "$here/md-table.awk" -v heading="What the times are made of" "$doc/scale.md" | grep -q '^| 64 | 8 | series |' &&
		grep -q '](damon-top-tier[.]png)' "$doc/damon.md" && [ -s "$doc/damon-top-tier.png" ] &&
		grep -q '](scale[.]png)' "$doc/scale.md" && [ -s "$doc/scale.png" ] &&
		grep -q 'made-up damon runs' "$doc/damon.md" &&
		[ "$(cat "$doc/walk-cost.md")" = 'an earlier walk cost' ] && [ ! -e "$doc/damon-tlb.md" ]
	rc=$?
	rm -rf "$peer_dir"
	return $rc
}
t "peer-doc: a page per comparison from made-up DAMON and scale runs, each table under its heading" peer_doc_made_up
t "README and lab/README: generated tables equal what they are made from" \
	"$here/doc-sync.sh" --check "$top/README.md" "$top/lab/README.md"
# lab/hunks.tsv: for each series it names (hunk_series), one row for each
# hunk of its patches 1-5, in order, and the scenarios it names are
# scenario ids of the lab run.
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
}
t "lab/hunks.tsv: a row for every hunk of patches 1-5 of each series, naming scenario ids" hunk_table

. "$here/bad-input-tests.sh"

# The kernels under test: each series' kernel and the base it is built on.
mainline=$(series_kernel mainline)
mainline_base=$(base_kernel "$mainline")

# The lab's base kernel builds in the background from the end of the
# mainline checks on, beside the stable queue's checks (downloads and git,
# mostly waiting); the lab run builds the series kernel while the base
# boots (run_build).  In a session of its own, so that the whole build
# stops with the suite.
prebuild_pid=
trap '[ -z "$prebuild_pid" ] || kill_session "$prebuild_pid"' EXIT
trap 'exit 130' INT TERM
for sdir in "$top"/series/mainline "$top"/series/queue-6.12; do
	[ -f "$sdir/series" ] || continue
	t "$(basename "$sdir"): patch numbers in the subjects match the series file" series_numbers "$sdir"
	. "$here/series-tests.sh"
	if [ "$sdir" = "$top/series/mainline" ]; then
		setsid "$here/kernel.sh" "$mainline_base" >"$logs/prebuild.log" 2>&1 &
		prebuild_pid=$!
	fi
done
. "$here/tree-tests.sh"

# lab-run.sh exits 3 when the run completed but some verdict failed: those
# are counted row by row below.  Its scenarios: suite check, or full
# (every one; the suites column of lab/scenarios.tsv).
suite=check
[ -z "${CHECK_FULL:-}" ] || suite=full
lab_run() {
	LAB_SUITE=$suite "$here/lab-run.sh" "$@"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ]
}
# ran_ids RESULTS: the scenarios of the run in RESULTS, space separated,
# in the order of its summary (table order).
ran_ids() {
	tsv_awk '!seen[col("scenario")]++ { printf "%s ", col("scenario") }' "$1/summary.tsv"
}
# negative_control RESULTS BASE: the base's own measurements, judged by
# the rules for the series, must fail in every scenario lab/expect.tsv
# holds stuck on the base (a top_pct le rule for the base alone), and may
# fail only in those and in the ones the series is held to a rule of its
# own that is not a comparison with the base (how much the series brings
# back where the base is not held to a share is timing; what it no
# longer skips, the base does).
negative_control() {
	fixes=$(tsv_awk 'BEGIN { nid = split(ran, ids, " ") }
		{
			k = "," col("kind") ","
			for (i = 1; i <= nid; i++) {
				if (ids[i] !~ ("^(" col("scenario") ")$"))
					continue
				if (k ~ /,base,/ && col("metric") == "top_pct" && col("op") == "le")
					stuck[ids[i]] = 1
				if (k ~ /,series[:,]/ && col("op") !~ /base/)
					series_only[ids[i]] = 1
			}
		}
		END {
			for (i = 1; i <= nid; i++)
				if (ids[i] in stuck)
					fixed = fixed (fixed == "" ? "" : " ") ids[i]
				else if (ids[i] in series_only)
					may = may (may == "" ? "" : " ") ids[i]
			print fixed "|" may
		}' -v ran="$(ran_ids "$1")" "$top/lab/expect.tsv")
	may=${fixes#*|}
	t "negative control: $2 judged as a patched kernel fails scenarios ${fixes%|*}${may:+ (and may fail $may)}" \
		sh -c 'got=$("$1" "$2" "$3") || exit 1; echo "failing: $got"
			for s in $4; do case " $got " in *" $s "*) ;; *) echo "$s does not fail"; exit 1 ;; esac; done
			for s in $got; do case " $4 $5 " in *" $s "*) ;; *) echo "$s fails"; exit 1 ;; esac; done' \
		- "$here/base-as-series.sh" "$1" "$2" "${fixes%|*}" "$may"
}

prebuilt() {
	[ -n "$prebuild_pid" ] || { echo "no background build was started"; return 1; }
	wait "$prebuild_pid"
	rc=$?
	prebuild_pid=
	cat "$logs/prebuild.log"
	return $rc
}
t "lab kernel $mainline_base builds (in the background since the mainline checks)" prebuilt
t "lab run completes: $mainline_base $mainline" lab_run "$LAB_CACHE/check-results" "$mainline_base" "$mainline"
verdicts "$LAB_CACHE/check-results/latest/summary.tsv"
negative_control "$LAB_CACHE/check-results/latest" "$mainline_base"
# moved_as_shared RESULTS: the rules that say memory was never moved (a
# local_pct le rule: the east-west scenarios N.1, N.2, ...) can fail.  The
# measurements of their group's control N.0 (private memory, which moves),
# judged as if they were the scenario's, must fail on every kernel.
moved_as_shared() {
	ids=$(tsv_awk 'BEGIN { nid = split(ran, ids, " ") }
		col("metric") == "local_pct" && col("op") == "le" {
			for (i = 1; i <= nid; i++)
				if (ids[i] ~ ("^(" col("scenario") ")$") && ids[i] ~ /\.[1-9]/)
					never[ids[i]] = 1
		}
		END { for (i = 1; i <= nid; i++) if (ids[i] in never) printf "%s ", ids[i] }' \
		-v ran="$(ran_ids "$1")" "$top/lab/expect.tsv")
	[ -n "$ids" ] || { echo "no never-moved rule in lab/expect.tsv"; return 1; }
	d=$(mktemp -d)
	for f in ends skips samples; do
		# The listed scenarios' own rows replaced by their control's,
		# relabelled.
		tsv_awk '!hdr++ { print tsv_header() }
			{
				n = split(list, l, " ")
				for (i = 1; i <= n; i++)
					if (col("scenario") "" == l[i])
						next
				print
				for (i = 1; i <= n; i++) {
					ctl = l[i]
					sub(/\.[0-9]+$/, ".0", ctl)
					if (col("scenario") "" == ctl) {
						set_col("scenario", l[i])
						print
						set_col("scenario", ctl)
					}
				}
			}' -v list="$ids" "$1/$f.tsv" >"$d/$f.tsv"
	done
	awk -f "$here/tsv.awk" -f "$here/verdict.awk" "$1/kernels.tsv" "$top/lab/scenarios.tsv" "$top/lab/expect.tsv" \
		"$d/ends.tsv" "$d/skips.tsv" "$d/samples.tsv" >"$d/summary.tsv" || { rm -rf "$d"; return 1; }
	# Every kernel of the run, every such scenario: fails.
	tsv_awk 'FILENAME ~ /kernels.tsv$/ { k[col("kernel")] = 1; next }
		{
			n = split(list, l, " ")
			for (i = 1; i <= n; i++) {
				if (col("scenario") "" != l[i])
					continue
				print col("kernel"), l[i], "as judged from the rows of its control:", col("verdict"), col("failed")
				seen[col("kernel"), l[i]] = 1
				if (col("verdict") != "fail")
					bad = 1
			}
		}
		END {
			for (kk in k)
				for (i = 1; i <= n; i++)
					if (!((kk SUBSEP l[i]) in seen)) {
						print kk, l[i], "not judged"
						bad = 1
					}
			exit bad
		}' -v list="$ids" "$1/kernels.tsv" "$d/summary.tsv"
	rc=$?
	rm -rf "$d"
	return $rc
}
t "east-west rules can fail: the moved memory of each control, judged as the never-moved scenario, fails" \
	moved_as_shared "$LAB_CACHE/check-results/latest"
# The report says how it was made and what its columns are, and gives
# t90 at the resolution of the samples (whole seconds).
report_describes() {
	r=$1/report.md
	for want in '^- repository commit [0-9a-f]' '^- command: lab-run\.sh .*, [0-9-]* [0-9:]* UTC$' '^- runs: ' \
		'^Columns' '^- \*t90 s\*: the first sample'; do
		grep -q "$want" "$r" || { echo "$r: no line matching $want"; return 1; }
	done
	awk -F' *[|] *' '/^[|] kernel/ { for (i = 1; i <= NF; i++) if ($i == "t90 s") c = i; next }
		c && /^[|] [^-]/ && $c !~ /^([0-9]+|never)$/ { print "t90 not in whole seconds: " $0; bad = 1 }
		END { exit bad || !c }' "$r"
}
t "lab report: how it was made, its columns, t90 in whole seconds" report_describes "$LAB_CACHE/check-results/latest"
# The cover letter's table (cover-results.sh) of the same run: its commit,
# each run's length and t90 in whole seconds.
cover_table() {
	out=$("$here/cover-results.sh" "$1/summary.tsv" "$2" "$3") || return 1
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q 'make check (repository commit [0-9a-f]' &&
		printf '%s\n' "$out" | awk '/^  scn / { hdr = 1; next }
			hdr && NF { n++; if ($6 !~ /^([0-9]+|-)$/ || $7 !~ /^[0-9]+$/ || $11 !~ /^([0-9]+|-)$/ || $12 !~ /^[0-9]+$/) bad = 1 }
			END { exit bad || !n }'
}
t "cover letter table: the run's commit, run lengths, t90 in whole seconds" \
	cover_table "$LAB_CACHE/check-results/latest" "$mainline_base" "$mainline"

# The mm kselftests, built once from the series tree (it has the new
# promotion test), run on the base and on the series kernel: make check
# the series' own test, make check-full all of lab/kselftest/tests.list.
if [ -n "${CHECK_FULL:-}" ]; then
	t "mm kselftests: nothing that passes on $mainline_base fails on $mainline" \
		"$here/kselftest-run.sh" "$LAB_CACHE/check-results/latest" "$mainline"
else
	t "kselftest numa_tiering_promotion runs on $mainline_base and $mainline" \
		"$here/kselftest-run.sh" "$LAB_CACHE/check-results/latest" "$mainline" numa_tiering_promotion
fi
# ksft_cases KERNEL COLUMN: every case of numa_tiering_promotion in
# KERNEL's kselftest console ended as lab/kselftest/promotion-cases.tsv
# says in COLUMN, and the run has every case of the table and no other.
ksft_cases() {
	awk -v fixture=numa_tiering -f "$here/ksft-cases.awk" \
		"$LAB_CACHE/check-results/latest/kselftest/$1.console" >"$logs/ksft-cases-$1.tsv"
	tsv_awk 'FILENAME == ARGV[1] { want[col("case")] = col(c); order[++n] = col("case"); next }
		{ got[col("case")] = col("result") }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				r = k in got ? got[k] : "not run"
				print k ": " r (r == want[k] ? "" : ", not " want[k])
				bad += r != want[k]
			}
			for (k in got)
				if (!(k in want)) {
					print k ": " got[k] ", a case lab/kselftest/promotion-cases.tsv does not have"
					bad++
				}
			exit bad > 0
		}' -v c="$2" "$top/lab/kselftest/promotion-cases.tsv" "$logs/ksft-cases-$1.tsv"
}
t "kselftest numa_tiering_promotion on $mainline_base: the cases of the bugs fail, the controls pass" \
	ksft_cases "$mainline_base" base
t "kselftest numa_tiering_promotion on $mainline: every case passes" ksft_cases "$mainline" series
if [ -n "${CHECK_FULL:-}" ]; then
	t "kselftest numa_tiering_promotion: 20 runs pass on $mainline, 20 of its controls on $mainline_base" \
		"$here/kselftest-repeat.sh" "$LAB_CACHE/check-results/latest" "$mainline" 20
fi

# check-full: the bisection points of the mainline series in the lab
# (kernels.tsv: mainline:N).  lab/expect.tsv says what each must show by
# its patch count.
if [ -n "${CHECK_FULL:-}" ]; then
	for k in $(kernels_awk 'col("kind") == "series" && col("series") ~ /^mainline:/ { print col("name") }'); do
		t "lab run completes: $k (bisection point)" lab_run "$LAB_CACHE/check-results-$k" "$mainline_base" "$k"
		verdicts "$LAB_CACHE/check-results-$k/latest/summary.tsv"
	done
fi

# check-full: every hunk lab/hunks.tsv names scenarios for, reverted from
# patches 1-5 of its series, fails one of their checks.
if [ -n "${CHECK_FULL:-}" ]; then
	for sname in $(hunk_series); do
		hres=$LAB_CACHE/check-results-hunks-$sname
		t "lab run completes: $sname, its base and it without each hunk of lab/hunks.tsv" \
			sh -c '"$1" "$2" "$3"; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 3 ]' - "$here/hunk-run.sh" "$hres" "$sname"
		[ -s "$hres/latest/hunks.tsv" ] || continue
		tsv_awk '{ print col("patch"), col("hunk"), col("kernel"), col("failed"), col("proven"), col("scenarios") }' \
			"$hres/latest/hunks.tsv" >"$logs/hunks.txt"
		while read -r p h k failed proven sel; do
			t "$sname: hunk $h of patch $p is needed: $k fails a check of scenario(s) $sel" \
				sh -c 'echo "failed: $1"; [ "$2" = yes ]' - "$failed" "$proven"
		done <"$logs/hunks.txt"
	done
fi

# check-full: the stable queue in the lab, base vs queue.
if [ -n "${CHECK_FULL:-}" ] && [ -f "$top/series/queue-6.12/series" ]; then
	stable=$(series_kernel queue-6.12)
	stable_base=$(base_kernel "$stable")
	t "lab run completes: $stable_base $stable" lab_run "$LAB_CACHE/check-results-$stable" "$stable_base" "$stable"
	verdicts "$LAB_CACHE/check-results-$stable/latest/summary.tsv"
	negative_control "$LAB_CACHE/check-results-$stable/latest" "$stable_base"
fi

# kcsan_made_up BUILD SRC FIELD: kcsan-lines.sh on made-up KCSAN reports,
# each a race at one instruction of task_numa_work() in the KCSAN kernel
# BUILD (found with objdump -dl): at the first one on a source line that
# names FIELD it must fail (status 3), at the function's first one it
# must not.
kcsan_made_up() {
	build=$1 src=$2 field=$3
	start=$(nm "$build/vmlinux" | awk '$3 == "task_numa_work" { print $1; exit }')
	[ -n "$start" ] || { echo "no task_numa_work in $build/vmlinux"; return 1; }
	# objdump -l marks each run of instructions with its "FILE:LINE".
	addr=$(objdump -dl --disassemble=task_numa_work "$build/vmlinux" | awk -v f="$field" '
		/^\/.*:[0-9]+/ {
			split($1, a, ":")
			text = ""
			for (i = 1; i <= a[2] && (getline l < a[1]) > 0; i++)
				text = l
			close(a[1])
			named = (text ~ ("(^|[^A-Za-z0-9_])" f "([^A-Za-z0-9_]|$)"))
			next
		}
		named && /^ *[0-9a-f]+:/ { sub(/:.*/, ""); sub(/^ */, ""); print; exit }')
	[ -n "$addr" ] || { echo "no instruction of task_numa_work on a line naming $field"; return 1; }
	d=$(mktemp -d)
	rc_named=0 rc_else=0
	# Kernel text addresses overflow sh's signed arithmetic; within one
	# function the low 32 bits give the offset.
	for c in named:$((0x${addr#"${addr%????????}"} - 0x${start#"${start%????????}"})) elsewhere:0; do
		{
			printf '[   10.000000] BUG: KCSAN: data-race in task_numa_work / task_numa_work\n'
			printf '[   10.000000] read to 0xffff888000000000 of 4 bytes by task 1 on cpu 0:\n'
			printf '[   10.000000]  task_numa_work+0x%x\n' "${c#*:}"
		} >"$d/${c%%:*}.console"
	done
	"$here/../lab/debug/kcsan-lines.sh" "$d/named.console" "$build" "$src" "$field" || rc_named=$?
	"$here/../lab/debug/kcsan-lines.sh" "$d/elsewhere.console" "$build" "$src" "$field" || rc_else=$?
	rm -rf "$d"
	echo "at a line naming $field: status $rc_named (want 3); at the function's start: $rc_else (want 0)"
	[ $rc_named -eq 3 ] && [ $rc_else -eq 0 ]
}

# The races the base shows too (lab/debug/kcsan-base.tsv): each names a
# debug row, and race_pairs and known_race tell a listed race, in either
# order of its functions, from one that is not listed.
kcsan_known_made_up() {
	d=$(mktemp -d)
	{
		printf 'race 1: BUG: KCSAN: data-race in numa_migrate_check / migrate_pages_batch\n'
		printf 'race 2: BUG: KCSAN: data-race in task_numa_work / change_pte_range\n'
		printf '2 KCSAN reports\n'
	} >"$d/races"
	race_pairs "$d/races" >"$d/pairs"
	cat "$d/pairs"
	rc=0
	[ "$(sed -n 1p "$d/pairs")" = "change_pte_range / task_numa_work" ] &&
		[ "$(known_race "$(sed -n 2p "$d/pairs")")" = d6 ] &&
		[ -z "$(known_race "$(sed -n 1p "$d/pairs")")" ] || rc=1
	ids=$(scenario_ids debug)
	for row in $(tsv_awk '{ print col("row") }' "$top/lab/debug/kcsan-base.tsv"); do
		printf '%s\n' "$ids" | grep -qxF "$row" || { echo "lab/debug/kcsan-base.tsv: no debug row $row"; rc=1; }
	done
	rm -rf "$d"
	return $rc
}
t "KCSAN: the races the base shows too are told by their functions, each with a debug row" kcsan_known_made_up

# check-full: debug kernels (DEBUG_VM, lockdep, KASAN) under the stress
# and Debian's stress-ng and trinity in modes 2 and 3 (a kernel report
# there is looked for on the base too), and the same check shown to catch
# a deliberate WARN.
if [ -n "${CHECK_FULL:-}" ]; then
	t "debug kernel $mainline: scenarios, stress, stress-ng and trinity in modes 2 and 3, no kernel report" \
		"$here/debug-run.sh" --base "$mainline_base" "$mainline" "$LAB_CACHE/check-results-debug"
	t "debug kernel check fails on an injected WARN (LKDTM)" \
		sh -c 'out=$("$1" "$2" "$3" lab.inject=warn lab.stress_secs=10 lab.secs=5 2>&1)
			rc=$?; printf "%s\n" "$out"
			[ $rc -eq 4 ] && printf "%s\n" "$out" | grep -q "WARNING:.*lkdtm"' \
		- "$here/debug-run.sh" "$mainline" "$LAB_CACHE/check-results-debug-inject"
	# The data-race kernel under the same stress: scanners of one mm can
	# overlap, and no KCSAN report may name a field the series adds to
	# struct vma_numab_state (read from its patches).
	numab_fields=$(awk '/^diff --git/ { f = ($0 ~ /mm_types[.]h/) }
		f && /^[+]\t[a-z][a-z ]* [a-z_]+;$/ { sub(/;$/, ""); print $NF }' \
		"$top"/series/mainline/*.patch | sort -u | tr '\n' ' ')
	t "KCSAN kernel $mainline_base: each race lab/debug/kcsan-base.tsv lists is shown by its row" \
		"$here/kcsan-known.sh" "$mainline_base" "$LAB_CACHE/check-results-kcsan-known"
	t "KCSAN kernel $mainline: stress, stress-ng and trinity in modes 2 and 3, no data race on ${numab_fields% }" \
		"$here/debug-run.sh" --config kcsan --fields "$numab_fields" --base "$mainline_base" \
		"$mainline" "$LAB_CACHE/check-results-kcsan"
	t "KCSAN judgement fails on a made-up report of a race on ${numab_fields%% *}, not on one elsewhere" \
		kcsan_made_up "$("$here/kernel.sh" --build "$mainline" "$top/kconfig/kcsan.config")" \
		"$("$here/kernel.sh" --tree "$mainline")" ${numab_fields%% *}
fi

# Caches and tools' leftovers go to $LAB_CACHE, never into the work tree.
t "the tests leave the work tree as they found it" \
	sh -c 'now=$(git -C "$1" status --porcelain --ignored); [ "$now" = "$2" ] ||
		{ printf "before:\n%s\nafter:\n%s\n" "$2" "$now"; false; }' - "$top" "$worktree_before"

[ "$known" -eq 0 ] || printf '# %d known problems (TODO above), not counted as failed\n' "$known"
printf '1..%d\n' "$n"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
