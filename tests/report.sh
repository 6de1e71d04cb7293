# shellcheck shell=sh
# shellcheck disable=SC2154 # $scripts, $tests: set by the runner, which sources this
# SPDX-License-Identifier: GPL-2.0
# report.sh: the fast tier's report tests.  Each directory of
# tests/report/ is a made-up run: in/ the tables a lab run writes, cmd
# the report commands (sh -e in a copy of in/, $S the scripts
# directory), expected/ what they must write (diff -u), about the
# test's name.  BLESS=1 writes what they wrote into expected/ instead,
# after a report changed on purpose (review the diff before committing).

# golden CASEDIR: the report of one made-up run against its expected output.
golden() {
	w=$(mktemp -d) || return 1
	cp -a "$1/in/." "$w" && (cd "$w" && S=$scripts sh -e "$1/cmd") || { rm -rf "$w"; return 1; }
	rc=0
	for f in $(cd "$1/expected" && find . -type f | sort); do
		if [ -n "${BLESS:-}" ]; then
			cp "$w/$f" "$1/expected/$f" || rc=1
		else
			diff -u "$1/expected/$f" "$w/$f" || rc=1
		fi
	done
	rm -rf "$w"
	return $rc
}
for c in "$tests"/report/*/; do
	c=${c%/}
	t "$(cat "$c/about")" golden "$c"
done

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
			run_publish "$run_dir" "$3" >/dev/null' "$1" "$scripts" "$d/log" "$d/res"
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
