#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the debug-kernel run (busybox sh), packed by scripts/debug-run.sh.
#
# Checks that node 1 is a lower memory tier than node 0, then for
# numa_balancing 2 and then 3 runs scenarios 1-5 briefly, one after the
# other, and the concurrent stress (/lab/bin/stress) for
# $STRESS_SECS seconds, and powers off.  The host fails the run on any
# kernel report (WARN, BUG, lockdep, KASAN, ...) in the console log
# (lab/debug/reports.awk).  Results are "@@ " lines, as in lab/guest/init.sh.
#
# Kernel command line:
#   lab.stress_secs=N   stress duration per mode (default 300)
#   lab.secs=N          duration of each scenario (default 10)
#   lab.inject=warn     first trigger a WARN through LKDTM, to show that
#                       the host's check fails on one

PATH=/lab/bin:/bin:/sbin
export PATH

TRACEFS=/sys/kernel/tracing
LKDTM=/sys/kernel/debug/provoke-crash/DIRECT

MODES="2 3"
STRESS_SECS=300
SECS=10
INJECT=

mount_filesystems() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tracefs tracefs $TRACEFS 2>/dev/null
	# Scenarios 3 and 4 and the stress's file worker want tmpfs files.
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

# node_tier NODE: the id N of memory_tierN holding NODE, or -1 (see
# lab/guest/init.sh).
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

check_tiers() {
	local t0 t1 lower=no
	t0=$(node_tier 0)
	t1=$(node_tier 1)
	[ "$t0" -ge 0 ] && [ "$t1" -gt "$t0" ] && lower=yes
	echo "@@ boot kernel=$(uname -r) node0_tier=$t0 node1_tier=$t1 lower_tier=$lower"
	[ $lower = yes ]
}

parse_cmdline() {
	local arg
	for arg in $(cat /proc/cmdline); do
		case $arg in
		lab.stress_secs=*) STRESS_SECS=${arg#*=} ;;
		lab.secs=*) SECS=${arg#*=} ;;
		lab.inject=*) INJECT=${arg#*=} ;;
		esac
	done
}

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

# run ID PROG [ARGS...]: one program; a failure is an error line.
run() {
	local id=$1 prog=$2 rc
	shift 2
	echo "# $(date +%T) $prog -s $id $*"
	"$prog" -s "$id" "$@"
	rc=$?
	[ $rc -eq 0 ] || echo "@@ error scenario=$id msg=exit-status-$rc"
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

# run_mode MODE: scenarios 1-5 briefly, then the stress, in MODE.
run_mode() {
	local m=$1
	run d$m.1 s1-fork-cow -m "$m" -t "$SECS"
	run d$m.2 s2-shmem -m "$m" -t "$SECS"
	run d$m.3 s3-ro-file -m "$m" -t "$SECS"
	run d$m.4 s4-shared-exec -m "$m" -t "$SECS"
	# Scenario 5 smaller than in the lab: KASAN under TCG is slow.
	run d$m.5 s5-pid-inactive -m "$m" -t "$SECS" -n 1024 -E 128 -P 10
	run stress stress -m "$m" -t "$STRESS_SECS"
	lockdep_state "$m"
}

main() {
	local m
	mount_filesystems
	# The kernel may have found no /dev/console in the initramfs.
	exec </dev/console >/dev/console 2>&1

	echo "lab debug guest: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
	parse_cmdline
	if check_tiers; then
		[ -z "$INJECT" ] || inject "$INJECT"
		for m in $MODES; do
			echo "# $(date +%T) mode $m"
			run_mode "$m"
		done
	fi
	echo "@@ done"
	sync
	poweroff -f
}

main
