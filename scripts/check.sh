#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check.sh: the test suite behind `make check` (and `make check-full` with
# CHECK_FULL=1), TAP (tests/tap.sh): first the fast tier of make test
# (tests/fast.sh), then the posting checks of each series on its kernel
# base, the lab run and its negative controls, and the kselftests.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"
top=$(cd "$here/.." && pwd)

# shellcheck disable=SC2034 # read by tests/tap.sh
scripts=$here
. "$top/tests/tap.sh"

# shellcheck disable=SC2154 # $logs: tests/tap.sh
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

tap_begin "$LAB_CACHE/check"
# The tests that need no kernel and no guest (make test) come first.
fast_tier

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
	. "$here/series-tests.sh"
	if [ "$sdir" = "$top/series/mainline" ]; then
		setsid "$here/kernel.sh" "$mainline_base" >"$logs/prebuild.log" 2>&1 &
		prebuild_pid=$!
	fi
done

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

# check-full: the documentation the series touches builds with no
# warning the base's build does not have.
if [ -n "${CHECK_FULL:-}" ]; then
	t "htmldocs: the series' .rst builds with no new warning ($mainline against $mainline_base)" \
		"$here/htmldocs-check.sh" "$mainline" "$LAB_CACHE/check-results-htmldocs"
fi

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

tap_end
