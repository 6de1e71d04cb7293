#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# init.sh: /init of the kselftest guest (busybox sh, PID 1).  Pack it with
#   scripts/mkinitramfs.sh OUT.cpio.gz OUT/bin lab/kselftest/init.sh
# where OUT/bin comes from lab/kselftest/build.sh.  Runs the tests of
# /lab/bin/ksft-plan in order from /lab/bin (as run_vmtests.sh runs them from
# its directory: ksm_functional_tests re-executes ./ksm_functional_tests),
# each under `timeout`, and prints one machine-readable line a test:
#   @@ kselftest name=NAME result=pass|fail|skip rc=RC secs=N [why=WHY]
# rc is the exit code (4 = KSFT_SKIP, 124/137/143 after a timeout); why is
# "timeout", "build" (did not build statically; rc=-1) or absent.  Before
# each test "@@ kselftest-begin name=NAME" lets a reader attribute the TAP
# lines that follow.  Ends with "@@ done" and powers off.
#
# Setup, kept simple: proc, sysfs, devtmpfs (/dev/userfaultfd), debugfs
# (split_huge_page_test, numa_tiering_promotion's optional scan knobs), a
# tmpfs on /tmp and on /dev/shm (shm_open() in rmap).  When the kernel has
# hugetlbfs, KSFT_HUGEPAGES (default 16; a kernel argument KSFT_HUGEPAGES=N
# reaches init as an environment variable) 2 MiB pages are reserved for the
# tests that use them (protection_keys needs some).  Every sysctl and THP
# setting a test may change is put back after it, and any process a test
# left behind is killed, so a test that times out cannot disturb the next.
# Per-test setup (setup_test below): mremap_test maps 2 GiB regions that the
# default heuristic overcommit refuses in a 2 GiB guest without swap, so it
# runs with vm.overcommit_memory=1 (it only touches the first 4 MiB).
# Kernel arguments: ksft_only=NAME[,NAME...] runs only those tests.

PATH=/bin:/sbin:/lab/bin
export PATH

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
# Some tests write into the current directory: keep /lab/bin writable.
cd /lab/bin || exit 1

lower_tier=0
tiers=
for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
	[ -f "$t/nodelist" ] || continue
	tiers="$tiers${tiers:+;}${t##*/memory_}:$(cat "$t/nodelist")"
done
# A CPU-less memory node in another tier than the CPU nodes.
[ "$(echo "$tiers" | tr ';' '\n' | wc -l)" -ge 2 ] && lower_tier=1
echo "@@ kselftest-boot kernel=$(uname -r) lower_tier=$lower_tier tiers=${tiers:-none} nodes=$(cat /sys/devices/system/node/has_memory 2>/dev/null)"

only=
# shellcheck disable=SC2013
for arg in $(cat /proc/cmdline); do
	case $arg in ksft_only=*) only=",${arg#ksft_only=}," ;; esac
done

# Settings restored after every test.
saved=
for f in /proc/sys/kernel/numa_balancing \
	/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps \
	/proc/sys/vm/nr_hugepages \
	/proc/sys/vm/overcommit_memory \
	/sys/kernel/mm/transparent_hugepage/enabled \
	/sys/kernel/mm/transparent_hugepage/defrag \
	/sys/kernel/mm/transparent_hugepage/shmem_enabled \
	/sys/kernel/mm/transparent_hugepage/use_zero_page \
	/sys/kernel/mm/transparent_hugepage/khugepaged/defrag \
	/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none \
	/sys/kernel/mm/transparent_hugepage/khugepaged/pages_to_scan \
	/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs \
	/sys/kernel/mm/transparent_hugepage/khugepaged/alloc_sleep_millisecs \
	/sys/kernel/mm/ksm/run \
	/sys/kernel/mm/ksm/merge_across_nodes \
	/sys/kernel/mm/ksm/use_zero_pages \
	/sys/kernel/debug/sched/numa_balancing/scan_delay_ms \
	/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms \
	/sys/kernel/debug/sched/numa_balancing/scan_period_max_ms \
	/sys/kernel/debug/sched/numa_balancing/scan_size_mb; do
	{ [ -f "$f" ] && [ -w "$f" ]; } || continue
	v=$(cat "$f" 2>/dev/null) || continue
	# [always] madvise never -> always
	case $v in *\[*\]*) v=${v#*[}; v=${v%%]*} ;; esac
	saved="$saved $f=$v"
done

if [ -f /proc/sys/vm/nr_hugepages ]; then
	echo "${KSFT_HUGEPAGES:-16}" >/proc/sys/vm/nr_hugepages
	saved=$(echo "$saved" | sed "s#/proc/sys/vm/nr_hugepages=[0-9]*#/proc/sys/vm/nr_hugepages=$(cat /proc/sys/vm/nr_hugepages)#")
fi

# Put back what test $1 changed, and say so (prose, not an @@ line).
restore_settings() {
	for kv in $saved; do
		f=${kv%%=*}
		v=$(cat "$f" 2>/dev/null)
		case $v in *\[*\]*) v=${v#*[}; v=${v%%]*} ;; esac
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
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" -le 2 ] && continue
		st=$(cat "$p/stat" 2>/dev/null) || continue
		st=${st##*) }
		# shellcheck disable=SC2086
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

/lab/bin/ksft-plan >/tmp/ksft-plan
total=0
while read -r name status tmo args; do
	[ -n "$name" ] || continue
	case $only in '' | *",$name,"*) ;; *) continue ;; esac
	case $status in
	absent)
		continue
		;;
	nobuild)
		echo "@@ kselftest name=$name result=skip rc=-1 secs=0 why=build"
		continue
		;;
	esac
	echo "@@ kselftest-begin name=$name timeout=$tmo args=$(echo "$args" | tr ' ' ',')"
	setup_test "$name"
	start=$(date +%s)
	# shellcheck disable=SC2086
	timeout -s TERM -k 5 "$tmo" "/lab/bin/$name" $args </dev/null 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	total=$((total + secs))
	why=
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
done </tmp/ksft-plan

echo "@@ done secs=$total"
sync
poweroff -f
