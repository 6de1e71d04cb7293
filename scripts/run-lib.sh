# shellcheck shell=sh
# shellcheck disable=SC2154 # $here: set by the script that sources this
# SPDX-License-Identifier: GPL-2.0
# run-lib.sh: the run loop of every lab run (lab-run.sh, debug-run.sh,
# kselftest-run.sh, damon-demo.sh, scale.sh), sourced after lib.sh.
#
#   run_selection RUN SELECTIONS  check scenario selections, print them for
#                                 lab.scenarios= (empty: $LAB_SUITE's)
#   run_guest RUN [ARG]           build the guest of run RUN (initramfs and
#                                 disk): lab, debug
#                                 (ARG: its config fragment) or kselftest
#                                 (mm kselftests from kernel tree ARG)
#   run_build KERNEL...           build the first kernel, the others in the
#                                 background
#   run_dir=$(run_start RESULTS)  a fresh run directory, removed when the
#                                 script exits unless published (with
#                                 REPEAT: kept, and taken up again)
#   run_runs FUNC                 the REPEAT runs: FUNC $run_dir/run-R
#   run_boot DIR KERNEL [ARG...]  boot KERNEL with guest arguments ARG:
#                                 DIR/KERNEL.console, DIR/kernels.tsv,
#                                 DIR/uname.tsv; the guest's exit status
#   run_parse DIR KERNEL [KIND]   DIR/KERNEL.console into DIR's tables
#   run_publish DIR RESULTS       DIR/versions.txt (unless written), DIR becomes
#                                 RESULTS/<date> (printed), RESULTS/latest
#   run_versions DIR              what DIR's kernels and guest are made of

# Tabs in the tables the run writes.
run_tab=$(printf '\t')
# The command of this run, for its reports (run_versions): the script, its
# arguments and the variables that select what it runs.
run_command="${0##*/}${*:+ $*}"
for _v in SCENARIOS DAMON_SCENARIOS LAB_SECS REPEAT SCALE_GRID SCALE_SECS KSRC LAB_NOTIFIER; do
	eval "_val=\${$_v:-}"
	[ -z "$_val" ] || run_command="$_v=\"$_val\" $run_command"
done

# A run directory not yet published when the script exits is removed: a
# failed run leaves nothing half-written.
run_dir=
run_exit() {
	# A repeated run's directory (its key: run_start) is kept to be taken up.
	[ -z "$run_dir" ] || [ -f "$run_dir/key" ] || rm -rf "$run_dir"
	# run_build's background builds, in a session of their own.
	[ -z "${run_build_pid:-}" ] || kill_session "$run_build_pid"
	[ -z "${run_guest_dir:-}" ] || rm -rf "$run_guest_dir"
}
trap run_exit EXIT
trap 'exit 130' INT TERM

# run_selection RUN SELECTIONS: SELECTIONS (space or comma separated) of
# run RUN's scenarios (lab/scenarios.tsv), checked, comma separated;
# empty for the scenarios of RUN that suite $LAB_SUITE runs (make demo:
# demo, make check: check; default full, every one).  Call it in $(...):
# it dies there.
run_selection() {
	set -f
	# shellcheck disable=SC2046 # one word per selection
	set -- "$1" $(printf '%s' "$2" | tr ',' ' ')
	scenario_ids "$@" >/dev/null
	_run=$1
	shift
	if [ $# -eq 0 ]; then
		_suite=${LAB_SUITE:-full}
		_sel=$(suite_selection "$_run" "$_suite") || exit 1
		[ -n "$_sel" ] || die "suite $_suite runs no scenario of the $_run run (lab/scenarios.tsv)"
		# shellcheck disable=SC2086 # one word per selection
		set -- $_sel
	fi
	printf '%s' "$*" | tr ' ' ','
}

# run_repeat: $REPEAT, the runs of each kernel (default 1), checked; the
# caller exits when it prints nothing.
run_repeat() {
	case ${REPEAT:-1} in
	'' | *[!0-9]* | 0) die "REPEAT=$REPEAT: give the number of runs of each kernel, 1 or more" ;;
	esac
	printf '%s\n' "${REPEAT:-1}"
}

# run_guest RUN [ARG]: build the guest programs (in guest_bin), the
# initramfs ($run_initrd) of run RUN and the guest's disk ($run_disk),
# those two in a directory of this process' own ($run_guest_dir, gone
# when it exits): a run in another work tree, at another commit, makes
# its own and cannot swap them under this one's next boot;
# $run_args selects the run on the kernel command line, $run_frags the
# kernel config fragment run_build and run_boot add (the debug run's: ARG,
# default kconfig/debug.config).  The kselftest run's mm kselftests are
# built from kernel tree ARG.
run_guest() {
	_bin=$(guest_bin)
	mkdir -p "$LAB_CACHE/guest"
	[ -n "${run_guest_dir:-}" ] || run_guest_dir=$(mktemp -d "$LAB_CACHE/guest/boot.XXXXXX") ||
		die "cannot make a directory in $LAB_CACHE/guest"
	run_initrd=$run_guest_dir/initrd.gz
	run_disk=$run_guest_dir/disk.img
	run_args=lab.run=$1
	run_frags=
	_ksft=
	_tools=
	step "building the guest programs"
	# Not the make variables of a make that runs this script (make demo
	# SCENARIOS=...): they would override the guest Makefile's own.
	env -u MAKEFLAGS make -s -C "$here/../lab/guest" O="$_bin" >&2 || die "building lab/guest failed"
	# Programs of other sources not used for two weeks go, and the boot
	# files of runs killed before they could remove them.
	touch "$_bin"
	find "$LAB_CACHE/guest" -maxdepth 1 -name 'bin-*' ! -path "$_bin" -mtime +14 -exec rm -rf {} +
	find "$LAB_CACHE/guest" -maxdepth 1 -name 'boot.*' -mtime +2 -exec rm -rf {} +
	case $1 in
	lab) ;;
	debug)
		run_frags=${2:-$here/../kconfig/debug.config}
		# The Debian tools of the debug rows.
		_tools=--tools
		;;
	kselftest)
		_ksft=$LAB_CACHE/kselftest
		step "building the mm kselftests from ${2:?run_guest kselftest SRC}"
		"$here/../lab/kselftest/build.sh" "$2" "$_ksft" || die "building the mm kselftests failed"
		;;
	*) die "run_guest: unknown run '$1' (lab, debug or kselftest)" ;;
	esac
	"$here/mkinitramfs.sh" ${_tools:+"$_tools"} "$run_initrd" "$_bin" ${_ksft:+"$_ksft/bin"}
	"$here/mkdisk.sh" "$run_disk" "$_bin/disk"
}

# run_notifier: the kernels of this run are their notifier variants
# (kconfig/notifier.config, which run_build and run_boot add), and
# run_notifier_initrd gives each its module.
run_notifier() {
	run_frags=$here/../kconfig/notifier.config
	run_lab_initrd=$run_initrd
}

# run_notifier_initrd KERNEL: $run_initrd is the run's initramfs with
# lab/notifier's module built for KERNEL (notifier-module.sh), made once
# a kernel.
run_notifier_initrd() {
	run_initrd=$run_guest_dir/initrd-$1.gz
	[ ! -s "$run_initrd" ] || return 0
	_ko=$("$here/notifier-module.sh" "$1") || exit 1
	"$here/mkinitramfs.sh" --module "$run_initrd" "$run_lab_initrd" "$_ko"
}

# Lines "KERNEL<tab>BZIMAGE" of the kernels run_build built for this run.
run_built=

# run_kernel KERNEL: build KERNEL for this run, print its bzImage; a
# kernel run_build built is not built again.  kernel.sh says what failed.
run_kernel() {
	_bz=$(printf '%s\n' "$run_built" | awk -F '\t' -v k="$1" '$1 "" == k "" { print $2; exit }')
	[ -n "$_bz" ] || _bz=$("$here/kernel.sh" "$1" ${run_frags:+"$run_frags"}) || return 1
	printf '%s\n' "$_bz"
}

# run_build KERNEL...: build the first kernel; the others build one after
# the other in the background at the lowest priority, on the CPU time the
# first one's guest leaves (under emulation its workload rarely keeps
# every CPU busy).  kernel.sh builds a kernel once at a time, so run_boot
# of a kernel waits for its build; a build that fails in the background
# is tried again there and stops the run with its error.
run_build() {
	_bz=$(run_kernel "$1") || exit 1
	run_built="$1$run_tab$_bz
"
	shift
	[ $# -gt 0 ] || return 0
	setsid nice -n 19 sh -c 'k=$1 f=$2; shift 2; for n; do "$k" "$n" ${f:+"$f"} >/dev/null || exit; done' \
		- "$here/kernel.sh" "${run_frags:-}" "$@" &
	run_build_pid=$!
}
run_build_pid=

# What the guests of a run run, and how their consoles are read: a
# repeated run that goes on after an interruption must have the same.
run_inputs="lab/guest lab/notifier lab/scenarios.tsv series kconfig scripts/kernels.tsv
	scripts/bases.tsv scripts/build-kernel.sh scripts/mkinitramfs.sh
	scripts/mkdisk.sh scripts/run-guest.sh scripts/parse-console.awk
	scripts/at-line.awk scripts/notifier-module.sh"

# run_key: the command of this run and a checksum of its inputs (the
# files of $run_inputs, their names and contents).
run_key() {
	printf '%s\n' "$run_command"
	# shellcheck disable=SC2086 # one word per path
	files_sum $run_inputs
}

# run_start RESULTS: print a new run directory under RESULTS; assigned to
# run_dir, it is removed when the script exits before run_publish.  With
# $REPEAT above 1 it is kept instead, with its key (run_key): the same
# command with the same inputs takes it up again, and run_runs goes on
# from the first run that did not finish.
run_start() {
	mkdir -p "$1" || exit 1
	[ "${REPEAT:-1}" -gt 1 ] || { mktemp -d "$1/.run.XXXXXX"; return; }
	_key=$(run_key) || die "cannot checksum the run's inputs ($run_inputs)"
	for _d in "$1"/.run.*; do
		[ -f "$_d/key" ] || continue
		if [ "$(cat "$_d/key")" = "$_key" ]; then
			step "taking up the interrupted run $_d ($(ls -d "$_d"/run-*/.done 2>/dev/null | wc -l) of ${REPEAT} runs finished)"
			printf '%s\n' "$_d"
			return
		fi
		step "leaving $_d: an interrupted run of another command or other inputs (its key: $_d/key)"
	done
	_d=$(mktemp -d "$1/.run.XXXXXX") && printf '%s\n' "$_key" >"$_d/key" && printf '%s\n' "$_d"
}

# run_runs FUNC: the $REPEAT runs of a repeated run, each FUNC DIR into
# DIR=$run_dir/run-R, marked finished (DIR/.done, the date) after it; one
# finished before, in a run taken up again (run_start), is kept, one that
# did not finish is made again.  The runs start once run_build's
# background builds are done.  A run during which other processes used
# more than $run_host_max % of the host (a boot's host.tsv) is not
# comparable: it is made again, up to 3 times.  The run directory's
# kernels.tsv: run 1's.
run_host_max=10
run_runs() {
	_n=$(run_repeat) || exit 1
	# Measured runs do not share the host with run_build's builds.
	if [ -n "$run_build_pid" ]; then
		step "waiting for the kernel builds before the runs"
		wait "$run_build_pid" || true
		run_build_pid=
	fi
	_r=0 _tries=0
	while [ $_r -lt "$_n" ]; do
		_r=$((_r + 1))
		_d=$run_dir/run-$_r
		if [ -f "$_d/.done" ]; then
			step "run $_r of $_n: finished $(cat "$_d/.done"), kept"
			continue
		fi
		rm -rf "$_d"
		step "run $_r of $_n"
		"$1" "$_d"
		_busy=$(run_host_busiest "$_d")
		if [ "${_busy:-0}" -gt "$run_host_max" ]; then
			_tries=$((_tries + 1))
			[ $_tries -le 3 ] ||
				die "other processes kept using more than $run_host_max % of the host's CPUs; run $_r was made 4 times ($_d)"
			step "run $_r of $_n: other processes used $_busy % of the host's CPUs meanwhile; made again"
			_r=$((_r - 1))
			continue
		fi
		_tries=0
		date -u '+%Y-%m-%d %H:%M UTC' >"$_d/.done"
	done
	cp "$run_dir/run-1/kernels.tsv" "$run_dir/kernels.tsv"
}

# run_experiment ONE_RUN [VERDICTS]: the runs of an experiment into
# $run_dir (run_start): ONE_RUN DIR once, or $REPEAT times, into
# $run_dir/run-R (run_runs).  VERDICTS DIR, when given, judges a run
# (report.sh's exit status: 3, a verdict failed, still counts as a run),
# and with $REPEAT the medians and ranges of the runs judge the whole
# (repeat-report.sh).  Then DIR/versions.txt.  $run_status: 0, or 3
# when a verdict failed; any other failure exits.  (Not a return status:
# a caller's "|| status=$?" would turn set -e off in ONE_RUN.)
run_experiment() {
	run_exp_one=$1 run_exp_verdicts=${2:-}
	run_status=0
	if [ "$(run_repeat)" -eq 1 ]; then
		"$run_exp_one" "$run_dir"
		run_versions "$run_dir" >"$run_dir/versions.txt"
		[ -z "$run_exp_verdicts" ] || "$run_exp_verdicts" "$run_dir" || run_status=$?
	else
		run_runs run_experiment_one
		run_versions "$run_dir" >"$run_dir/versions.txt"
		[ -z "$run_exp_verdicts" ] || "$here/repeat-report.sh" "$run_dir" || run_status=$?
	fi
	[ $run_status -eq 0 ] || [ $run_status -eq 3 ] || exit $run_status
}
# run_experiment_one DIR: one of run_experiment's repeated runs, judged.
run_experiment_one() {
	"$run_exp_one" "$1"
	[ -z "$run_exp_verdicts" ] || "$run_exp_verdicts" "$1" >/dev/null || [ $? -eq 3 ] || exit 1
}

# run_boot DIR KERNEL [ARG...]: build KERNEL, boot it in the guest of
# run_guest with guest arguments ARG, its console in DIR/KERNEL.console;
# record it in DIR/kernels.tsv and DIR/uname.tsv.  Returns run-guest.sh's
# status (non-zero: the guest did not reach "@@ done"; it said why).
run_boot() {
	_dir=$1 _k=$2
	shift 2
	[ -n "${run_initrd:-}" ] || die "run_boot: no guest; call run_guest first"
	_bz=$(run_kernel "$_k") || exit 1
	mkdir -p "$_dir"
	_rc=0
	times >"$_dir/.times"
	_before="$(date +%s) $(run_host_cpu) $(run_own_cpu "$_dir/.times")"
	"$here/run-guest.sh" -d "$run_disk" "$_bz" "$run_initrd" "$_dir/$_k.console" "$run_args" "$@" || _rc=$?
	times >"$_dir/.times"
	run_host_share "$_dir" "$_k" "$_before $(date +%s) $(run_host_cpu) $(run_own_cpu "$_dir/.times")"
	rm -f "$_dir/.times"
	run_row "$_dir/kernels.tsv" "kernel kind base_kernel patches" \
		"$_k" "$(kernel_col "$_k" kind)" "$(base_kernel "$_k")" "$(kernel_patches "$_k")"
	# The kernel version the guest reported, for the reports' headers.
	_u=$(sed -n 's/^.*@@ boot kernel=\([^ ]*\).*/\1/p' "$_dir/$_k.console" | head -n 1)
	[ -z "$_u" ] || run_row "$_dir/uname.tsv" "kernel uname" "$_k" "$_u"
	return $_rc
}

# run_host_cpu: the CPU time the host spent busy, all CPUs, in seconds
# (/proc/stat: user, nice, system, irq, softirq, steal; USER_HZ 100).
run_host_cpu() {
	awk '$1 == "cpu" { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / 100; exit }' /proc/stat
}

# run_own_cpu FILE: the CPU time of this shell's finished children (the
# guests among them), in seconds; FILE holds `times`, which must run in
# this shell, not in a subshell of $(...), to count them.
run_own_cpu() {
	awk 'NR == 2 {
		for (i = 1; i <= 2; i++) {
			split($i, a, "m")
			s += a[1] * 60 + a[2]
		}
		printf "%.2f\n", s
	}' "$1"
}

# run_host_share DIR KERNEL "T0 HOST0 OWN0 T1 HOST1 OWN1": the share of
# the host's CPUs that other processes used while KERNEL's guest ran
# (a concurrent guest or build slows the guest and inflates its CPU
# times: such a boot is not comparable), into DIR/host.tsv, with a
# warning above $run_host_max %.
run_host_share() {
	_pct=$(printf '%s\n' "$3" | awk -v cpus="$(nproc)" '{
		secs = $4 - $1
		other = ($5 - $2) - ($6 - $3)
		pct = 0
		if (secs > 0 && other > 0)
			pct = 100 * other / (secs * cpus)
		printf "%.0f\n", pct
	}')
	run_row "$1/host.tsv" "kernel other_cpu_pct" "$2" "$_pct"
	[ "$_pct" -le "$run_host_max" ] ||
		step "warning: other processes used $_pct % of the host's CPUs while $2 ran: its times and CPU costs are not comparable ($1/host.tsv)"
}

# run_host_busiest DIR: the largest share of the host's CPUs other
# processes used during a boot (run_host_share) of those under DIR;
# nothing when none recorded it.
run_host_busiest() {
	find -H "$1" -name host.tsv -exec cat {} + 2>/dev/null |
		awk '$1 != "kernel" { n++; if ($2 + 0 > m) m = $2 + 0 } END { if (n) print m }'
}

# run_row FILE "COLUMN..." KERNEL VALUE...: FILE, a table with these
# columns, holds the row KERNEL VALUE... in place of an earlier row of
# KERNEL: a kernel booted again in the same directory has one row.
run_row() {
	_f=$1 _k=$3
	[ -s "$_f" ] || printf '%s\n' "$2" | tr ' ' '\t' >"$_f"
	shift 2
	awk -F '\t' -v k="$_k" 'NR == 1 || $1 "" != k ""' "$_f" >"$_f.tmp"
	(IFS=$run_tab && printf '%s\n' "$*") >>"$_f.tmp"
	mv "$_f.tmp" "$_f"
}

# run_parse DIR KERNEL [KIND]: DIR/KERNEL.console into DIR's tables
# (parse-console.awk), as rows of kind KIND, by default KERNEL's kind in
# scripts/kernels.tsv.
run_parse() {
	awk -f "$here/at-line.awk" -f "$here/parse-console.awk" -v kernel="$2" -v kind="${3:-$(kernel_col "$2" kind)}" -v dir="$1" "$1/$2.console" ||
		die "$2: the guest's results are unusable (see $1/$2.console)"
}

# run_publish DIR RESULTS: write DIR/versions.txt, move DIR to
# RESULTS/<date>, point RESULTS/latest at it and print it.
run_publish() {
	[ -s "$1/versions.txt" ] || run_versions "$1" >"$1/versions.txt"
	_stamp=$(date +%Y%m%d-%H%M%S)
	_final=$2/$_stamp _i=1
	# Two runs published within a second: the second one beside the first.
	while [ -e "$_final" ]; do
		_i=$((_i + 1))
		_final=$2/$_stamp.$_i
	done
	mv "$1" "$_final"
	ln -sfn "$(basename "$_final")" "$2/latest"
	printf '%s\n' "$_final"
}

# run_versions DIR: the sources of DIR's kernels (DIR/kernels.tsv), this
# repository's commit, the command, date and number of runs, and the
# machine, for the reports.
run_versions() {
	# Kernels of scripts/kernels.tsv only: hunk-run.sh's mutants are
	# variants of the kernels run beside them.
	_ks=$(tsv_awk '{ print col("kernel") }' "$1/kernels.tsv" | grep -xF "$(kernel_names)")
	for _b in $(for _k in $_ks; do kernel_col "$_k" base; done | awk '!seen[$0]++'); do
		printf 'Linux %s (Debian %s %s)\n' "$_b" "$(base_col "$_b" package)" "$(base_col "$_b" version)"
	done
	for _s in $(for _k in $_ks; do kernel_col "$_k" series; done | sed 's/:.*//' | awk '$0 != "-" && !seen[$0]++'); do
		printf 'series/%s: %s patches\n' "$_s" "$(series_patches "$(series_dir "$_s")" | wc -l)"
	done
	printf 'repository commit %s%s\n' "$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		"$(git -C "$here/.." diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes')"
	printf 'command: %s, %s\n' "$run_command" "$(date -u '+%Y-%m-%d %H:%M UTC')"
	# A run taken up again: when its runs finished.
	if [ -f "$1/key" ]; then
		_first=$(sort "$1"/run-*/.done | head -n 1)
		_last=$(sort "$1"/run-*/.done | tail -n 1)
		printf 'runs finished: %s%s\n' "$_first" "$([ "$_first" = "$_last" ] || echo " to $_last")"
	fi
	printf 'runs: %s per kernel and scenario\n' "${REPEAT:-1}"
	printf 'QEMU: %s, TCG, 2 vCPUs; host: %s CPUs\n' \
		"$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p')" "$(nproc)"
	# What else the host ran meanwhile (run_host_share), over every boot.
	_host=$(run_host_busiest "$1")
	[ -z "$_host" ] || printf 'other processes on the host: at most %s %% of its CPUs during a boot (host.tsv)\n' "$_host"
}
