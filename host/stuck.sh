#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stuck.sh [-t SECS] [-T TRACE] [-o TSV] PID: which memory of process PID
# sits on a lower memory tier (CXL, PMEM), VMA by VMA, and what keeps it
# there: tiering off, a read-only or shared executable file mapping,
# folios shared between processes, a VMA NUMA balancing skips as
# PID-inactive.  Runs on the machine itself, no guest: it reads the tiers
# (/sys/devices/virtual/memory_tiering), the nodes' CPUs, /proc/PID/maps
# and numa_maps and kernel.numa_balancing.  -t SECS also records, as
# root, SECS seconds of the scanner's own skip reasons for PID's threads
# (tracefs, sched:sched_skip_vma_numa; the event is switched back to how
# it was, also on Ctrl-C); -T TRACE reads such events from a file
# instead.  Prints a table, the most lower-tier memory first; -o TSV
# writes it machine-readable (vma, perms, mapping, lower_tier_kib,
# total_kib, mapmax, skips, why).  $STUCK_ROOT: a directory holding
# proc/ and sys/ to read instead of / (the tests' made-up machines).
set -eu
here=$(cd "$(dirname "$0")/../scripts" && pwd)
. "$here/lib.sh"
script_help "$@"

usage="usage: stuck.sh [-t SECS] [-T TRACE] [-o TSV] PID"
secs='' trace='' tsv=''
while [ $# -gt 1 ]; do
	case $1 in
	-t) secs=${2:?$usage}; shift 2 ;;
	-T) trace=${2:?$usage}; shift 2 ;;
	-o) tsv=${2:?$usage}; shift 2 ;;
	*) die "$usage" ;;
	esac
done
pid=${1:?$usage}
case $pid in '' | *[!0-9]*) die "'$pid' is not a process id; $usage" ;; esac
case $secs in *[!0-9]*) die "-t $secs is not a number of seconds" ;; esac
root=${STUCK_ROOT:-}
proc=$root/proc/$pid
tiers=$root/sys/devices/virtual/memory_tiering
nodes=$root/sys/devices/system/node

[ -r "$proc/numa_maps" ] || die "$proc/numa_maps: no such process, or not readable (a kernel without CONFIG_NUMA, or another user's process: run as root)"
ls "$tiers"/memory_tier* >/dev/null 2>&1 || die "$tiers: no memory tiers (a kernel without memory tiering, or not NUMA)"

# nodelist LIST: the nodes of a sysfs node list ("0-1,3"), one a line.
nodelist() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF { for (n = $1; n <= (NF > 1 ? $2 : $1); n++) print n }'
}
# Every node with its tier: "TIER NODE CPUS" lines, CPUS 1 for a node
# with CPUs.
tier_nodes=$(for d in "$tiers"/memory_tier*; do
	for n in $(nodelist "$(cat "$d/nodelist")"); do
		cpus=0
		[ -z "$(tr -d ' \n' <"$nodes/node$n/cpulist" 2>/dev/null)" ] || cpus=1
		echo "${d##*memory_tier} $n $cpus"
	done
done)
# The top tier is the one of the nodes with CPUs (the slowest of them, as
# the kernel's top_tier_adistance); the nodes of the tiers below are lower.
top=$(printf '%s\n' "$tier_nodes" | awk '$3 && (top == "" || $1 > top) { top = $1 } END { print top }')
[ -n "$top" ] || die "no memory tier holds a node with CPUs"
lower=$(printf '%s\n' "$tier_nodes" | awk -v top="$top" '$1 > top { printf "%s%s", sep, $2; sep = "," }')
[ -n "$lower" ] || die "no lower memory tier: every node is in the top tier ($(printf '%s\n' "$tier_nodes" | awk '{ printf "%s ", $2 }'))"
mode=$(cat "$root/proc/sys/kernel/numa_balancing" 2>/dev/null) || mode=0
tids=$(ls "$proc/task" 2>/dev/null | tr '\n' ',')
[ -n "$tids" ] || tids=$pid

if [ -n "$secs" ]; then
	[ -z "$trace" ] || die "-t and -T: one or the other"
	[ "$(id -u)" = 0 ] || die "-t needs root (tracefs)"
	tfs=/sys/kernel/tracing
	ev=$tfs/events/sched/sched_skip_vma_numa/enable
	[ -w "$ev" ] || die "$ev: no such event (a kernel without CONFIG_NUMA_BALANCING, or tracefs not mounted)"
	was=$(cat "$ev")
	trace=$(mktemp)
	trap 'echo "$was" >"$ev"; rm -f "$trace"' EXIT
	trap 'exit 130' INT TERM
	echo 1 >"$ev"
	step "recording the scanner's skip reasons for $secs s"
	timeout "$secs" cat "$tfs/trace_pipe" >"$trace" || [ $? -eq 124 ]
fi

out=$(mktemp)
awk -f "$here/../host/stuck.awk" -v reasons_file="$here/../host/skip-reasons.tsv" -v lower="$lower" -v mode="$mode" -v tids="$tids" \
	"$proc/maps" "$proc/numa_maps" "${trace:-/dev/null}" >"$out" || { rm -f "$out"; die "reading $proc failed"; }
[ -z "$tsv" ] || cp "$out" "$tsv"
# The table, rendered from the TSV by column name.
tsv_awk 'NR == 1 { next }
	{ n++; sum += col("lower_tier_kib")
	  printf "%s %s %s\n    %d of %d KiB on the lower tier; skips: %s\n    %s\n", col("vma"), col("perms"),
		col("mapping"), col("lower_tier_kib"), col("total_kib"), col("skips"), col("why") }
	END { printf "process %s: %d KiB in %d VMAs on lower-tier nodes %s (numa_balancing=%s)\n", pid, sum, n, lower, mode }' \
	-v pid="$pid" -v lower="$lower" -v mode="$mode" "$out"
rm -f "$out"
