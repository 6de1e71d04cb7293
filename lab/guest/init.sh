#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# busybox ash, like dash, has `local`, which POSIX sh lacks:
# shellcheck shell=dash
#
# /init of the NUMA-tiering lab guest (busybox sh, PID 1), packed by
# scripts/mkinitramfs.sh.  Mounts, checks that nodes 0 and 1 are the top
# memory tier and node 2 a lower one (the "@@ boot" line), runs what
# lab.run= names and powers off:
#   lab        the scenarios of /lab/scenarios.tsv named by lab.scenarios=
#   debug      under a debug kernel: the table's debug rows briefly, in
#              numa_balancing 2 and then 3, for the host to look for kernel
#              reports (lab/debug/reports.awk) in the console
#   kselftest  the mm kselftests in /lab/ksft (lab/guest/run-kselftest.sh)
# Without a lower tier nothing runs; the lab run also needs the NUMA
# balancing counters.  Results are "@@ " lines on the console (see lab.h
# and the programs in /lab/bin); everything else is prose.
#
# Kernel command line:
#   lab.run=lab|debug|kselftest   what to run (default lab)
# lab run:
#   lab.scenarios=0,6,8.5 selections of the table's lab rows, in this
#                         order: N is the row with id N and the rows with
#                         ids N.* (default: every lab row; lab.scenarios=
#                         with none: no row, e.g. for a lab.scale run)
#   lab.secs=N            measured duration of every workload (replaces
#                         the table's -t)
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
#   lab.scale_mib=N       the hot set of every lab.scale point, MiB: its
#                         VMAs are N MiB / NVMAS each (default: -V's default)
#   lab.scale_secs=N      measured duration of each lab.scale point (60)
# debug run (scenario ids are MODE.ID, e.g. "2.d1"):
#   lab.scenarios=d6,stress  selections of the table's debug rows (default:
#                         every debug row)
#   lab.secs=N            duration of each row (default 10)
#   lab.stress_secs=N     duration of the stress row, per mode (default 300)
#   lab.inject=warn       first trigger a WARN through LKDTM, to show that
#                         the host's check fails on one
# kselftest run: see run-kselftest.sh (ksft_only=, ksft_args=, ksft_repeat=,
# KSFT_HUGEPAGES=).

PATH=/lab/bin:/bin:/sbin
export PATH

# The scenario table, its reader and the files init sources.
LAB=/lab
TRACEFS=/sys/kernel/tracing
SKIP_EVENT=$TRACEFS/events/sched/sched_skip_vma_numa
LKDTM=/sys/kernel/debug/provoke-crash/DIRECT
TAB=$(printf '\t')

RUN=lab
SCENARIOS=
SCENARIOS_GIVEN=
SECS=
TRACE=1
CPU=0
DAMON=0
OFF=0
SCALE=
SCALE_SECS=60
SCALE_MIB=
DEBUG_MODES="2 3"
STRESS_SECS=300
INJECT=
KSFT_ONLY=
KSFT_ARGS=
KSFT_REPEAT=1
# Set by the kselftest run: its "@@ done" line carries the tests' seconds.
KSFT_SECS=

mount_filesystems() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	mount -t tracefs tracefs $TRACEFS 2>/dev/null
	# numa_tiering_promotion counts the hinting faults of a case in a
	# memory cgroup of its own (toptier_no_hint_faults).
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
	# The files of scenarios 3, 4 and 7 and of the stress must be on tmpfs
	# (shmem folios); rmap's shm_open() wants /dev/shm.
	mkdir -p /tmp /dev/shm
	mount -t tmpfs tmpfs /tmp
	mount -t tmpfs tmpfs /dev/shm
	# Scenario 11.6's file: huge folios, mapped by PMDs.
	mkdir -p /huge
	mount -t tmpfs -o huge=always tmpfs /huge
	# The guest's disk (scripts/mkdisk.sh), when it has one: ext4, whose
	# page cache is of file-LRU folios (scenario 13).
	if [ -b /dev/vda ]; then
		mkdir -p /disk
		mount -t ext4 /dev/vda /disk
	fi
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

# Every run needs the two DRAM nodes in one tier and node 2 below, and a
# disk it was given mounted.  The lab run's verdicts on PTE updates and
# hinting faults also read the counters of /proc/vmstat: a kernel without
# them (CONFIG_VM_EVENT_COUNTERS=n) would report zeros that pass "no more
# faults than the base".
check_guest() {
	local t0 t1 t2 lower=no vmstat=no disk=none
	t0=$(node_tier 0)
	t1=$(node_tier 1)
	t2=$(node_tier 2)
	[ "$t0" -ge 0 ] && [ "$t1" = "$t0" ] && [ "$t2" -gt "$t0" ] && lower=yes
	grep -q '^numa_hint_faults ' /proc/vmstat && vmstat=yes
	[ -b /dev/vda ] && disk=unmounted
	grep -q '^/dev/vda /disk ext4 ' /proc/mounts && disk=ext4
	echo "@@ boot kernel=$(uname -r) node0_tier=$t0 node1_tier=$t1 node2_tier=$t2 lower_tier=$lower vmstat=$vmstat disk=$disk"
	[ $lower = yes ] && [ $disk != unmounted ] || return 1
	[ $vmstat = yes ] || [ "$RUN" != lab ]
}

parse_cmdline() {
	local arg
	for arg in $(cat /proc/cmdline); do
		case $arg in
		lab.run=*) RUN=${arg#*=} ;;
		lab.scenarios=*) SCENARIOS=${arg#*=} SCENARIOS_GIVEN=1 ;;
		lab.secs=*) SECS=${arg#*=} ;;
		lab.trace=*) TRACE=${arg#*=} ;;
		lab.cpu=*) CPU=${arg#*=} ;;
		lab.damon=*) DAMON=${arg#*=} ;;
		lab.off=*) OFF=${arg#*=} ;;
		lab.scale=*) SCALE=$(echo "${arg#*=}" | tr , ' ') ;;
		lab.scale_secs=*) SCALE_SECS=${arg#*=} ;;
		lab.scale_mib=*) SCALE_MIB=${arg#*=} ;;
		lab.stress_secs=*) STRESS_SECS=${arg#*=} ;;
		lab.inject=*) INJECT=${arg#*=} ;;
		ksft_only=*) KSFT_ONLY=${arg#*=} ;;
		ksft_args=*) KSFT_ARGS=$(echo "${arg#*=}" | tr , ' ') ;;
		ksft_repeat=*) KSFT_REPEAT=${arg#*=} ;;
		esac
	done
}

# ---- the scenario table ------------------------------------------------

# scenario_rows RUN [SELECTIONS]: the rows of RUN to execute, one a line:
# ID PROGRAM MODE ARGS, tab-separated (scenarios.awk).
scenario_rows() {
	awk -f "$LAB/tsv.awk" -f "$LAB/selection.awk" -f "$LAB/scenarios.awk" -v run="$1" -v sel="$2" \
		"$LAB/scenarios.tsv"
}

# each_row ROWS FUNC [ARG...]: FUNC ARG... ID PROGRAM MODE ARGS for each
# line of ROWS (scenario_rows), MODE and ARGS empty for "-".  A selection
# that took no row is reported as an unknown scenario.
each_row() {
	local rows=$1 id prog mode args
	shift
	while IFS=$TAB read -r id prog mode args <&3; do
		[ -n "$id" ] || continue
		if [ -z "$prog" ]; then
			echo "@@ error scenario=$id msg=unknown-scenario"
			continue
		fi
		[ "$mode" != - ] || mode=
		[ "$args" != - ] || args=
		"$@" "$id" "$prog" "$mode" "$args" 3<&-
	done 3<<EOF
$rows
EOF
}

# ---- lab run -----------------------------------------------------------

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
	local id=$1 prog=$2 skipstat_pid='' rc wrap='' mode=''
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

# lab_row ID PROG MODE ARGS: a lab row of the table.
lab_row() {
	# shellcheck disable=SC2086 # ARGS: the program's option words
	run_workload "$1" "$2" ${3:+-m "$3"} $4
}

# Scenario 5 at each NVMASxNTHREADS point of lab.scale.
run_scale() {
	local p
	for p in $SCALE; do
		run_workload "5-$p" s5-pid-inactive -m 2 -t "$SCALE_SECS" -P 30 \
			-n "${p%x*}" -T "${p#*x}" ${SCALE_MIB:+-V $((SCALE_MIB * 1024 / ${p%x*}))}
	done
}

run_lab() {
	local rows=
	if [ -n "$SCENARIOS" ] || [ -z "$SCENARIOS_GIVEN" ]; then
		rows=$(scenario_rows lab "$SCENARIOS") ||
			echo "@@ error scenario=init msg=scenario-table"
	fi
	setup_tracing
	each_row "$rows" lab_row
	run_scale
}

# ---- debug run ---------------------------------------------------------

# inject KIND: a deliberate kernel report, for the host's check to catch.
inject() {
	case $1 in
	warn)
		if [ ! -w $LKDTM ]; then
			echo "@@ error scenario=inject msg=no-lkdtm"
			return
		fi
		echo "@@ inject kind=warn"
		echo WARNING > $LKDTM
		;;
	*) echo "@@ error scenario=inject msg=unknown-kind-$1" ;;
	esac
}

# lockdep_state MODE: whether lockdep is still checking (it turns itself
# off after its first report, or when it runs out of table space).
lockdep_state() {
	local locks=none
	if [ -r /proc/lockdep_stats ]; then
		locks=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)
	fi
	echo "@@ debug mode=$1 debug_locks=${locks:-none}"
}

# debug_row M ID PROG MODE ARGS: a debug row of the table in numa_balancing
# M (a row with a mode of its own runs in that mode only), as scenario
# "M.ID", for lab.secs; the stress and the Debian tools (run-tools.sh) for
# lab.stress_secs.  No skip tracing: the run is judged by the kernel's
# reports and by the error lines.
debug_row() {
	local m=$1 id=$1.$2 prog=$3 secs=${SECS:-10} rc
	[ -z "$4" ] || [ "$4" = "$m" ] || return 0
	[ "$prog" != stress ] && [ ! -x "$TOOLS/$prog" ] || secs=$STRESS_SECS
	shift 4
	if [ -x "$TOOLS/$prog" ]; then
		echo "# $(date +%T) $prog $1, $secs s beside stress -s $id -o read,demote"
		tool_row "$m" "$id" "$prog" "$secs" "$1"
		return
	fi
	echo "# $(date +%T) $prog -s $id -m $m -t $secs${1:+ $1}"
	# shellcheck disable=SC2086 # ARGS: the program's option words
	"$prog" -s "$id" -m "$m" -t "$secs" $1
	rc=$?
	[ $rc -eq 0 ] || echo "@@ error scenario=$id msg=exit-status-$rc"
}

run_debug() {
	local rows m
	# shellcheck source=lab/guest/run-tools.sh
	. "$LAB/run-tools.sh"
	[ -z "$INJECT" ] || inject "$INJECT"
	rows=$(scenario_rows debug "$SCENARIOS") ||
		echo "@@ error scenario=init msg=scenario-table"
	for m in $DEBUG_MODES; do
		echo "# $(date +%T) mode $m"
		each_row "$rows" debug_row "$m"
		lockdep_state "$m"
	done
}

# ------------------------------------------------------------------------

main() {
	mount_filesystems
	# The kernel may have found no /dev/console in the initramfs.
	exec </dev/console >/dev/console 2>&1

	parse_cmdline
	echo "lab guest ($RUN run): $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
	if check_guest; then
		case $RUN in
		lab) run_lab ;;
		debug) run_debug ;;
		kselftest)
			# shellcheck source=lab/guest/run-kselftest.sh
			. "$LAB/run-kselftest.sh"
			run_kselftest
			;;
		*) echo "@@ error scenario=init msg=unknown-run-$RUN" ;;
		esac
	fi
	echo "@@ done${KSFT_SECS:+ secs=$KSFT_SECS}"
	sync
	poweroff -f
}

# Only as the guest's PID 1: sourced or run anywhere else (on the host, to
# test the functions above), main would mount over /proc and power off.
[ $$ -ne 1 ] || main
