# shellcheck shell=sh
# shellcheck disable=SC2154 # $scripts, $top: set by the runner, which sources this
# SPDX-License-Identifier: GPL-2.0
# tap.sh: the TAP harness of make test and make check, sourced after
# scripts/lib.sh.  tap_begin starts the output; t runs one test, its
# output into a log, and prints "ok N - what" or "not ok N - what" with
# the tail of the log; tap_end prints the plan "1..N" (a run cut short
# has none), then "N passed, N failed", and fails if a test failed.
#
# The tests that need no kernel and no guest are the fast tier
# (fast_tier, make test): one file tests/CATEGORY.sh for each category
# of fast_categories.  CATEGORY (make test CATEGORY="report tree", in
# the manner of run_vmtests.sh -t) runs only those.

fast_categories="static report tree input"
tests=$(cd "$(dirname "$scripts")/tests" && pwd)

# tap_begin LOGDIR: a new log directory, the work tree as it is now.
tap_begin() {
	logs=$1
	rm -rf "$logs"
	mkdir -p "$logs"
	tap_passed=0
	tap_failed=0
	tap_known=0
	tap_n=0
	worktree_before=$(git -C "$top" status --porcelain --ignored)
	echo "TAP version 13"
}

# t DESCRIPTION COMMAND...: run one test.  With $todo set, a known
# problem, kept visible: TAP's TODO, not counted as failed.  COMMAND may
# be a shell function, run in this shell: the harness' own variables are
# named tap_*, so that a test's loop variable cannot renumber the tests.
t() {
	tap_desc=$1
	shift
	tap_n=$((tap_n + 1))
	tap_log=$logs/$tap_n.log
	tap_start=$(date +%s)
	printf '# %s ...\n' "$tap_desc"
	if [ -n "${todo:-}" ] && ! "$@" >"$tap_log" 2>&1; then
		tap_known=$((tap_known + 1))
		printf 'not ok %d - %s # TODO %s\n' "$tap_n" "$tap_desc" "$todo"
		tail -n 3 "$tap_log" | sed 's/^/#   /'
	elif [ -n "${todo:-}" ]; then
		tap_passed=$((tap_passed + 1))
		printf 'ok %d - %s # TODO %s (now passes)\n' "$tap_n" "$tap_desc" "$todo"
	elif "$@" >"$tap_log" 2>&1; then
		tap_passed=$((tap_passed + 1))
		printf 'ok %d - %s (%ss)\n' "$tap_n" "$tap_desc" "$(($(date +%s) - tap_start))"
	else
		tap_failed=$((tap_failed + 1))
		printf 'not ok %d - %s (%ss)\n' "$tap_n" "$tap_desc" "$(($(date +%s) - tap_start))"
		tail -n 15 "$tap_log" | sed 's/^/#   /'
		printf '#   full log: %s\n' "$tap_log"
	fi
}

# refused TEXT COMMAND...: COMMAND fails with one error line containing TEXT.
refused() {
	want=$1
	shift
	out=$("$@" 2>&1 >/dev/null) && { echo "accepted: $*"; return 1; }
	printf '%s\n' "$out"
	[ "$(printf '%s\n' "$out" | grep -c 'error:')" -eq 1 ] &&
		printf '%s\n' "$out" | grep 'error:' | grep -q -- "$want"
}

# fast_categories_check CATEGORY...: each is a category of the fast tier.
fast_categories_check() {
	for c in "$@"; do
		case " $fast_categories " in
		*" $c "*) ;;
		*) die "unknown test category '$c'; the categories are: $fast_categories" ;;
		esac
	done
}

# fast_tier [CATEGORY...]: the tests of those categories (none: all).
fast_tier() {
	# shellcheck disable=SC2086 # the list of categories
	[ $# -gt 0 ] || set -- $fast_categories
	for c in "$@"; do
		# shellcheck disable=SC1090 # tests/static.sh and the others
		. "$tests/$c.sh"
	done
}

# tap_end: caches and tools' leftovers go to $LAB_CACHE, never into the
# work tree; then the plan and the counts.
tap_end() {
	t "the tests leave the work tree as they found it" \
		sh -c 'now=$(git -C "$1" status --porcelain --ignored); [ "$now" = "$2" ] ||
			{ printf "before:\n%s\nafter:\n%s\n" "$2" "$now"; false; }' - "$top" "$worktree_before"
	[ "$tap_known" -eq 0 ] || printf '# %d known problems (TODO above), not counted as failed\n' "$tap_known"
	printf '1..%d\n' "$tap_n"
	printf '%d passed, %d failed\n' "$tap_passed" "$tap_failed"
	[ "$tap_failed" -eq 0 ]
}
