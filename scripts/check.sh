#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check.sh: the test suite behind `make check` (and `make check-full` with
# CHECK_FULL=1).  Every test prints "ok N - what" or "not ok N - what" with
# the tail of its log; the last line is "N passed, N failed".
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

# verdicts FILE: one test per row of a lab summary.tsv.
verdicts() {
	[ -s "$1" ] || { t "lab results exist ($1)" false; return; }
	tab=$(printf '\t')
	while IFS=$tab read -r k _kind s name mode top_pct t90 pte flt _prom skipped checks fails verdict todo; do
		[ "$k" = kernel ] && continue
		[ "$todo" = - ] && todo=
		t "lab: $k scenario $s ($name, mode $mode): $checks" \
			sh -c 'printf "top_pct=%s t90=%s pte/s=%s faults/s=%s skipped=%s\nfailed: %s\n" "$1" "$2" "$3" "$4" "$5" "$6"; [ "$7" = pass ]' \
			- "$top_pct" "$t90" "$pte" "$flt" "$skipped" "$fails" "$verdict"
	done <"$1"
	todo=
}

echo "TAP version 13"
t "guest programs build -Wall -Wextra -Werror and skipstat parses a sample trace" \
	make -C "$top/lab/guest" O="$LAB_CACHE/guest/bin" all test

. "$here/bad-input-tests.sh"

for sdir in "$top"/series/mainline "$top"/series/queue-6.12; do
	[ -f "$sdir/series" ] || continue
	. "$here/series-tests.sh"
done

kernels=$(cd "$top" && make -s -f Makefile print-demo-kernels)
# lab-run.sh exits 3 when the run completed but some verdict failed: those
# are counted row by row below.
lab_run() {
	"$here/lab-run.sh" "$@"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ]
}
# lab_run_scenarios "S..." RESULTS KERNEL...: a run of some scenarios only.
lab_run_scenarios() (
	SCENARIOS=$1
	export SCENARIOS
	shift
	lab_run "$@"
)
# negative_control RESULTS BASE: the base's own measurements, judged by the
# rules for the series, must fail exactly where the base is known broken
# (8.5 may fail too: how much the base brings back in mode 3 is timing).
negative_control() {
	t "negative control: $2 judged as a patched kernel fails scenarios $fixed" \
		sh -c 'got=$("$1" "$2" "$3") || exit 1; echo "failing: $got"; [ "${got% 8.5}" = "$4" ]' \
		- "$here/base-as-series.sh" "$1" "$2" "$fixed"
}
fixed="1 3 4 5 8.1 8.3 8.4"

t "lab run completes: $kernels" lab_run "$LAB_CACHE/check-results" $kernels
verdicts "$LAB_CACHE/check-results/latest/summary.tsv"
negative_control "$LAB_CACHE/check-results/latest" 7.3.4-base

# The mm kselftests, built once from the series tree (it has the new
# promotion test), run on the base and on the series kernel.
if [ -f "$top/series/mainline/series" ]; then
	t "mm kselftests: nothing that passes on 7.3.4-base fails on 7.3.4-series" \
		"$here/kselftest-run.sh" "$LAB_CACHE/check-results/latest" "$LAB_CACHE/trees/7.3.4-series" 7.3.4-base 7.3.4-series
	ksft_result() {
		awk -v k="$1" -v t="$2" -v want="$3" '
			/^@@ kselftest / && index($0, " name=" t " ") { r = $0; sub(/.* result=/, "", r); sub(/ .*/, "", r) }
			END { print k ": " t " " r; exit r != want }' "$LAB_CACHE/check-results/latest/kselftest-$1.console"
	}
	t "kselftest numa_tiering_promotion fails on 7.3.4-base (the bug)" ksft_result 7.3.4-base numa_tiering_promotion fail
	t "kselftest numa_tiering_promotion passes on 7.3.4-series" ksft_result 7.3.4-series numa_tiering_promotion pass
fi

# check-full: the bisection points of the mainline series in the lab. 1-5
# is the backport set and must do all the series does.  1-3 must not break
# what the base promoted, must already fix 1, 3 and 4 and leave placement
# (6, 7) alone.  The PID filter is patches 4-5, so 1-3 skips scenario 5,
# and in 8.5 (PID-inactive VMAs in mode 3) it is judged as the base is:
# the PID filter still holds them.  How much either kernel brings back
# there is timing (2-73 % on the base), so no share is compared.
if [ -n "${CHECK_FULL:-}" ] && [ -f "$top/series/mainline/series" ]; then
	t "lab run completes: 7.3.4-p5 (bisection point)" \
		lab_run_scenarios "0 1 2 3 4 5 6 7 8" "$LAB_CACHE/check-results-p5" 7.3.4-base 7.3.4-p5
	verdicts "$LAB_CACHE/check-results-p5/latest/summary.tsv"
	{
		grep -v '^8\\\.5	series	' "$top/lab/expect.tsv"
		grep '^8\\\.5	base	' "$top/lab/expect.tsv" | sed 's/	base	/	series	/'
	} >"$LAB_CACHE/expect-p3.tsv"
	lab_run_p3() (
		LAB_EXPECT=$LAB_CACHE/expect-p3.tsv
		export LAB_EXPECT
		lab_run_scenarios "0 1 2 3 4 6 7 8" "$LAB_CACHE/check-results-p3" 7.3.4-base 7.3.4-p3
	)
	t "lab run completes: 7.3.4-p3 (bisection point)" lab_run_p3
	verdicts "$LAB_CACHE/check-results-p3/latest/summary.tsv"
fi

# check-full: the stable queue in the lab, 6.12.118 base vs queue.
if [ -n "${CHECK_FULL:-}" ] && [ -f "$top/series/queue-6.12/series" ]; then
	t "lab run completes: 6.12.118-base 6.12.118-queue" \
		lab_run "$LAB_CACHE/check-results-6.12" 6.12.118-base 6.12.118-queue
	verdicts "$LAB_CACHE/check-results-6.12/latest/summary.tsv"
	negative_control "$LAB_CACHE/check-results-6.12/latest" 6.12.118-base
fi

# check-full: debug kernels (DEBUG_VM, lockdep, KASAN) under stress in
# modes 2 and 3, and the same check shown to catch a deliberate WARN.
if [ -n "${CHECK_FULL:-}" ]; then
	t "debug kernel 7.3.4-series: scenarios 1-5 and stress in modes 2 and 3, no kernel report" \
		"$here/debug-run.sh" 7.3.4-series "$LAB_CACHE/check-results-debug"
	t "debug kernel check fails on an injected WARN (LKDTM)" \
		sh -c 'out=$("$1" 7.3.4-series "$2" lab.inject=warn lab.stress_secs=10 lab.secs=5 2>&1)
			rc=$?; printf "%s\n" "$out"
			[ $rc -ne 0 ] && printf "%s\n" "$out" | grep -q "WARNING:.*lkdtm"' \
		- "$here/debug-run.sh" "$LAB_CACHE/check-results-debug-inject"
fi

[ "$known" -eq 0 ] || printf '# %d known problems (TODO above), not counted as failed\n' "$known"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
