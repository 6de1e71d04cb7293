#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the NUMA-tiering lab guest (busybox sh).
#
# Checks that node 1 is a lower memory tier than node 0, runs the scenarios
# named by lab.scenarios= on the kernel command line (default 0-8) and
# powers off.  Results are "@@ " lines on the console (see lab.h and the
# scenario programs in /lab/bin); everything else is prose.
#
# Kernel command line:
#   lab.scenarios=0,1,5   scenarios to run, in this order (default 0-8)
#   lab.secs=N            measured duration of every workload (override)
#   lab.trace=0           no sched_skip_vma_numa tracing (no "@@ skip")
#   lab.cpu=1             run every workload under damon-run: "@@ cpu" lines
#                         with the CPU time of the workload's processes
#   lab.damon=1           DAMON as the tiering mechanism: every workload
#                         under damon-run -D, with NUMA balancing off (-m 0)
#   lab.off=1             no tiering mechanism: every workload under damon-run
#                         with NUMA balancing off (-m 0), the floor of the
#                         workloads' own CPU time
#   lab.scale=64x8,...    after the scenarios, scenario 5 with NVMASxNTHREADS
#                         hot VMAs and reader threads, as scenario "5-NxT"
#   lab.scale_secs=N      measured duration of each lab.scale point (60)

PATH=/lab/bin:/bin:/sbin
export PATH

TRACEFS=/sys/kernel/tracing
SKIP_EVENT=$TRACEFS/events/sched/sched_skip_vma_numa

SCENARIOS="0 1 2 3 4 5 6 7 8"
SECS=
TRACE=1
CPU=0
DAMON=0
OFF=0
SCALE=
SCALE_SECS=60

mount_filesystems() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tracefs tracefs $TRACEFS 2>/dev/null
	# The files of scenarios 3, 4 and 7 must be on tmpfs (shmem folios).
	mkdir -p /tmp
	mount -t tmpfs tmpfs /tmp
}

# nodelist_has LIST NODE: LIST is a sysfs node list such as "0", "0-1,3".
nodelist_has() {
	local IFS=, range
	for range in $1; do
		case $range in
		*-*) [ "$2" -ge "${range%-*}" ] && [ "$2" -le "${range#*-}" ] && return 0 ;;
		*) [ "$2" = "$range" ] && return 0 ;;
		esac
	done
	return 1
}

# node_tier NODE: the id N of memory_tierN holding NODE, or -1.  Tier ids
# come from the abstract distance (mm/memory-tiers.c: dev.id = adistance >>
# MEMTIER_CHUNK_BITS): a slower node has a larger distance, a larger id.
node_tier() {
	local dir
	for dir in /sys/devices/virtual/memory_tiering/memory_tier*; do
		[ -r "$dir/nodelist" ] || continue
		if nodelist_has "$(cat "$dir/nodelist")" "$1"; then
			echo "${dir##*memory_tier}"
			return
		fi
	done
	echo -1
}

# Results need a lower memory tier and the counters every verdict on PTE
# updates and hinting faults reads from /proc/vmstat: a
# kernel without its NUMA balancing counters (CONFIG_VM_EVENT_COUNTERS=n)
# would report zeros that pass "no more faults than the base".
check_guest() {
	local t0 t1 lower=no vmstat=no
	t0=$(node_tier 0)
	t1=$(node_tier 1)
	[ "$t0" -ge 0 ] && [ "$t1" -gt "$t0" ] && lower=yes
	grep -q '^numa_hint_faults ' /proc/vmstat && vmstat=yes
	echo "@@ boot kernel=$(uname -r) node0_tier=$t0 node1_tier=$t1 lower_tier=$lower vmstat=$vmstat"
	[ $lower = yes ] && [ $vmstat = yes ]
}

parse_cmdline() {
	local arg
	for arg in $(cat /proc/cmdline); do
		case $arg in
		lab.scenarios=*) SCENARIOS=$(echo "${arg#*=}" | tr , ' ') ;;
		lab.secs=*) SECS=${arg#*=} ;;
		lab.trace=*) TRACE=${arg#*=} ;;
		lab.cpu=*) CPU=${arg#*=} ;;
		lab.damon=*) DAMON=${arg#*=} ;;
		lab.off=*) OFF=${arg#*=} ;;
		lab.scale=*) SCALE=$(echo "${arg#*=}" | tr , ' ') ;;
		lab.scale_secs=*) SCALE_SECS=${arg#*=} ;;
		esac
	done
}

setup_tracing() {
	echo 0 > $TRACEFS/tracing_on
	# Scenario 5 emits one event per skipped VMA per scan call.
	echo 8192 > $TRACEFS/buffer_size_kb
	# Count the events of all threads under their process.
	echo 1 > $TRACEFS/options/record-tgid
}

# start_skipstat ID: trace sched_skip_vma_numa afresh, summarize in the
# background.
start_skipstat() {
	if [ ! -w $SKIP_EVENT/enable ]; then
		echo "@@ error scenario=$1 msg=no-skip-tracepoint"
	fi
	echo 0 > $SKIP_EVENT/enable
	echo > $TRACEFS/trace
	echo 1 > $SKIP_EVENT/enable
	echo 1 > $TRACEFS/tracing_on
	skipstat -s "$1" &
}

# run_workload ID PROG [ARGS...]: one measured workload with its skip
# statistics.  lab.secs overrides the program's duration; lab.cpu,
# lab.damon and lab.off run it under damon-run (the last two with NUMA
# balancing off).
run_workload() {
	local id=$1 prog=$2 skipstat_pid= rc wrap= mode=
	shift 2
	if [ "$DAMON" = 1 ]; then
		wrap="damon-run -D -s $id --"
		mode="-m 0"
	elif [ "$OFF" = 1 ]; then
		wrap="damon-run -s $id --"
		mode="-m 0"
	elif [ "$CPU" = 1 ]; then
		wrap="damon-run -s $id --"
	fi

	if [ "$TRACE" = 1 ]; then
		start_skipstat "$id"
		skipstat_pid=$!
	fi

	echo "# $(date +%T) ${wrap:+$wrap }$prog $*${mode:+ $mode}"
	# shellcheck disable=SC2086 # $wrap and $mode are words or nothing
	$wrap "$prog" -s "$id" "$@" ${SECS:+-t "$SECS"} $mode
	rc=$?
	[ $rc -eq 0 ] || echo "@@ error scenario=$id msg=exit-status-$rc"

	if [ -n "$skipstat_pid" ]; then
		echo 0 > $SKIP_EVENT/enable
		kill -TERM $skipstat_pid
		wait $skipstat_pid
	fi
}

# The same workloads in another mode: scenario 6 (placement reference,
# mode 1) and 8 (NORMAL|TIERING, mode 3).  Short runs, of LEN: "-t 15",
# or "-S 10 -t 60" for 10 scan passes per process (at most 60 s), so
# that the base and the series are compared over as many passes.
run_all_workloads() {
	local s=$1 mode=$2 len=$3
	run_workload $s.0 s0-private -m $mode $len
	run_workload $s.1 s1-fork-cow -m $mode $len
	run_workload $s.2 s2-shmem -m $mode $len
	run_workload $s.3 s3-ro-file -m $mode $len
	run_workload $s.4 s4-shared-exec -m $mode $len
	run_workload $s.5 s5-pid-inactive -m $mode -t 30 -P 15 -n 8192 -V 32
}

run_scenario() {
	case $1 in
	0) run_workload 0 s0-private -m 2 -t 20 ;;
	1) run_workload 1 s1-fork-cow -m 2 -t 30 ;;
	2) run_workload 2 s2-shmem -m 2 -t 20 ;;
	3) run_workload 3 s3-ro-file -m 2 -t 30 ;;
	4) run_workload 4 s4-shared-exec -m 2 -t 30 ;;
	5) run_workload 5 s5-pid-inactive -m 2 -t 60 -P 30 -n 8192 -V 32 ;;
	6) run_all_workloads 6 1 "-S 10 -t 60" ;;
	7) run_workload 7 s7-toptier -m 2 -t 15 ;;
	8) run_all_workloads 8 3 "-t 15" ;;
	*) echo "@@ error scenario=$1 msg=unknown-scenario" ;;
	esac
}

# Scenario 5 at each NVMASxNTHREADS point of lab.scale.
run_scale() {
	local p
	for p in $SCALE; do
		run_workload "5-$p" s5-pid-inactive -m 2 -t "$SCALE_SECS" -P 30 \
			-n "${p%x*}" -T "${p#*x}"
	done
}

main() {
	local s
	mount_filesystems
	# The kernel may have found no /dev/console in the initramfs.
	exec </dev/console >/dev/console 2>&1

	echo "lab guest: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
	if check_guest; then
		parse_cmdline
		setup_tracing
		for s in $SCENARIOS; do
			run_scenario "$s"
		done
		run_scale
	fi
	echo "@@ done"
	sync
	poweroff -f
}

main
