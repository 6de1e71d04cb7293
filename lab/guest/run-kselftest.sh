# SPDX-License-Identifier: GPL-2.0
# busybox ash, like dash, has `local`, which POSIX sh lacks:
# shellcheck shell=dash
#
# run-kselftest.sh: the kselftest run of the lab guest (lab.run=kselftest),
# sourced by /init (lab/guest/init.sh) after its mounts, tier check and
# command line; run_kselftest is its entry point.  The tests come from
# lab/kselftest/build.sh OUT/bin, packed into /lab/ksft by
# scripts/mkinitramfs.sh OUT BINDIR KSFT_BINDIR.
#
# Runs the tests of /lab/ksft/ksft-plan in order from their directory (as
# run_vmtests.sh does: ksm_functional_tests re-executes
# ./ksm_functional_tests), a copy of /lab/ksft on the guest's ext4 disk when
# it has one, so that a test's files in its working directory are page
# cache of a disk filesystem (numa_tiering_promotion's file_exec_shared),
# each under `timeout`, and prints one machine-readable line a test:
#   @@ kselftest name=NAME result=pass|fail|skip rc=RC secs=N [why=WHY]
# rc is the exit code (4 = KSFT_SKIP, 124/137/143 after a timeout); why is
# "timeout", "build" (did not build statically; rc=-1) or absent.  Before
# each test "@@ kselftest-begin name=NAME" lets a reader attribute the TAP
# lines that follow.  init's "@@ done" then carries secs=, the tests' total.
#
# When the kernel has hugetlbfs, KSFT_HUGEPAGES (default 16; a kernel
# argument KSFT_HUGEPAGES=N reaches init as an environment variable) 2 MiB
# pages are reserved for the tests that use them (protection_keys needs
# some).  Every sysctl and THP setting a test may change is put back after
# it, and any process a test left behind is killed, so a test that times
# out cannot disturb the next.  Per-test setup (setup_test below):
# mremap_test maps 2 GiB regions that the default heuristic overcommit
# may refuse in the lab guest (3 GiB, no swap), so it runs with
# vm.overcommit_memory=1 (it only touches the first 4 MiB).
# Kernel arguments: ksft_only=NAME[,NAME...] runs only those tests;
# ksft_args=WORD[,WORD...] gives each the words instead of its ARGS (a
# harness test's "-t,CASE" selects cases); ksft_repeat=N runs the plan N
# times, each time from "@@ kselftest-run run=I of=N".

KSFT_DIR=$LAB/ksft

# Settings restored after every test.
ksft_settings="/proc/sys/kernel/numa_balancing
	/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	/proc/sys/vm/nr_hugepages
	/proc/sys/vm/overcommit_memory
	/sys/kernel/mm/transparent_hugepage/enabled
	/sys/kernel/mm/transparent_hugepage/defrag
	/sys/kernel/mm/transparent_hugepage/shmem_enabled
	/sys/kernel/mm/transparent_hugepage/use_zero_page
	/sys/kernel/mm/transparent_hugepage/khugepaged/defrag
	/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none
	/sys/kernel/mm/transparent_hugepage/khugepaged/pages_to_scan
	/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
	/sys/kernel/mm/transparent_hugepage/khugepaged/alloc_sleep_millisecs
	/sys/kernel/mm/ksm/run
	/sys/kernel/mm/ksm/merge_across_nodes
	/sys/kernel/mm/ksm/use_zero_pages
	/sys/kernel/debug/sched/numa_balancing/scan_delay_ms
	/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms
	/sys/kernel/debug/sched/numa_balancing/scan_period_max_ms
	/sys/kernel/debug/sched/numa_balancing/scan_size_mb"
# FILE=VALUE words of the settings as before the first test.
saved=
# The files setup_test changed for the current test.
setup=

# setting_value FILE: the value of a setting; "[always] madvise never" ->
# always.
setting_value() {
	local v
	v=$(cat "$1" 2>/dev/null) || return 1
	case $v in *\[*\]*) v=${v#*[}; v=${v%%]*} ;; esac
	echo "$v"
}

save_settings() {
	local f v
	for f in $ksft_settings; do
		{ [ -f "$f" ] && [ -w "$f" ]; } || continue
		v=$(setting_value "$f") || continue
		saved="$saved $f=$v"
	done
}

# Put back what test $1 changed, and say so (prose, not an @@ line).
restore_settings() {
	local kv f v
	for kv in $saved; do
		f=${kv%%=*}
		v=$(setting_value "$f")
		[ "$v" = "${kv#*=}" ] && continue
		case " $setup " in
		*" $f "*) ;;
		*) echo "# ksft-init: $1 left $f=$v (was ${kv#*=}), restoring" ;;
		esac
		echo "${kv#*=}" >"$f" 2>/dev/null
	done
}

# Kill every process but init and kernel threads (children of kthreadd).
kill_leftovers() {
	local p pid st
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" -le 2 ] && continue
		st=$(cat "$p/stat" 2>/dev/null) || continue
		st=${st##*) }
		# shellcheck disable=SC2086 # the fields of /proc/PID/stat
		set -- $st
		[ "$2" = 2 ] && continue
		kill -9 "$pid" 2>/dev/null
	done
}

# setup_test NAME: per-test setup; sets $setup to the files it changed.
setup_test() {
	setup=
	case $1 in
	mremap_test)
		setup=/proc/sys/vm/overcommit_memory
		echo 1 >/proc/sys/vm/overcommit_memory
		;;
	esac
}

# ksft_test NAME TIMEOUT ARGS: one test, between its two "@@" lines.
ksft_test() {
	local name=$1 tmo=$2 args=$3 start rc secs result why=''
	echo "@@ kselftest-begin name=$name timeout=$tmo args=$(echo "$args" | tr ' ' ',')"
	setup_test "$name"
	start=$(date +%s)
	# shellcheck disable=SC2086 # ARGS: the test's option words
	timeout -s TERM -k 5 "$tmo" "$KSFT_DIR/$name" $args </dev/null 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	KSFT_SECS=$((KSFT_SECS + secs))
	case $rc in
	0) result=pass ;;
	4) result=skip ;;
	*) result=fail ;;
	esac
	case $rc in 124 | 137 | 143) [ "$secs" -ge "$tmo" ] && why=" why=timeout" ;; esac
	kill_leftovers
	restore_settings "$name"
	echo
	echo "@@ kselftest name=$name result=$result rc=$rc secs=$secs$why"
}

run_kselftest() {
	local only='' i
	[ -z "$KSFT_ONLY" ] || only=",$KSFT_ONLY,"
	KSFT_SECS=0
	# Some tests write into the current directory: both are writable.
	if [ -d /disk ] && cp -a "$KSFT_DIR" /disk/ksft; then
		KSFT_DIR=/disk/ksft
	fi
	if ! cd "$KSFT_DIR"; then
		echo "@@ error scenario=kselftest msg=no-ksft-dir"
		return
	fi
	PATH=$PATH:$KSFT_DIR
	save_settings
	if [ -f /proc/sys/vm/nr_hugepages ]; then
		echo "${KSFT_HUGEPAGES:-16}" >/proc/sys/vm/nr_hugepages
		saved=$(echo "$saved" | sed "s#/proc/sys/vm/nr_hugepages=[0-9]*#/proc/sys/vm/nr_hugepages=$(cat /proc/sys/vm/nr_hugepages)#")
	fi

	"$KSFT_DIR/ksft-plan" >/tmp/ksft-plan
	i=1
	while [ "$i" -le "$KSFT_REPEAT" ]; do
		[ "$KSFT_REPEAT" -eq 1 ] || echo "@@ kselftest-run run=$i of=$KSFT_REPEAT"
		run_plan "$only"
		i=$((i + 1))
	done
}

# run_plan ONLY: the tests of /tmp/ksft-plan, those of ",ONLY," if set.
run_plan() {
	local name status tmo args
	while read -r name status tmo args; do
		[ -n "$name" ] || continue
		case $1 in '' | *",$name,"*) ;; *) continue ;; esac
		[ -z "$KSFT_ARGS" ] || args=$KSFT_ARGS
		case $status in
		absent) ;;
		nobuild) echo "@@ kselftest name=$name result=skip rc=-1 secs=0 why=build" ;;
		*) ksft_test "$name" "$tmo" "$args" ;;
		esac
	done </tmp/ksft-plan
}
