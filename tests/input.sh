# shellcheck shell=sh
# shellcheck disable=SC2154 # $scripts, $logs: set by the runner, which sources this
# SPDX-License-Identifier: GPL-2.0
# input.sh: the fast tier's bad-input tests.  Bad input is refused with one
# "error:" line and a non-zero exit status, and leaves nothing behind.

# The base the mainline series is built on, its kernel and a pinned field.
bad_kernel=$(base_kernel "$(series_kernel mainline)")
bad_base=$(kernel_col "$bad_kernel" base)

# pinned_refused COLUMN VALUE TEXT: fetch-base.sh with one column of the
# pin of $bad_base in bases.tsv changed to VALUE refuses with TEXT and
# leaves no file in its cache.
pinned_refused() {
	tmp=$(mktemp -d)
	cp -r "$scripts" "$tmp/scripts"
	tsv_awk '!hdr++ { print tsv_header(); n = split(tsv_header(), h, "\t") }
		col("name") "" == b "" { for (i = 1; i <= n; i++) if (h[i] == c) $i = v }
		{ print }' -v b="$bad_base" -v c="$1" -v v="$2" "$scripts/bases.tsv" >"$tmp/scripts/bases.tsv"
	refused "$3" env LAB_CACHE="$tmp/cache" "$tmp/scripts/fetch-base.sh" "$bad_base"
	rc=$?
	left=$(find "$tmp/cache" -type f 2>/dev/null)
	rm -rf "$tmp"
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	return $rc
}

t "bad input: an unknown scenario is refused" \
	refused "unknown scenario 'x'" env SCENARIOS="0 x" "$scripts/lab-run.sh" "$logs/bad" "$bad_kernel"
t "bad input: an unknown kernel is refused" \
	refused "unknown kernel" "$scripts/lab-run.sh" "$logs/bad" no-such-kernel
t "bad input: a DAMON run of a scenario without DAMON rules is refused" \
	refused "no DAMON counterpart" env DAMON_SCENARIOS=7 "$scripts/damon-demo.sh" "$logs/bad"
t "bad input: a scale point that is not NVMASxNTHREADS is refused" \
	refused "not NVMASxNTHREADS" env SCALE_GRID="64x8 512" "$scripts/scale.sh" "$logs/bad"
t "bad input: a KSRC that is no kernel tree is refused" \
	refused "is not a kernel source tree" env KSRC=/ "$scripts/kernel.sh" "$bad_kernel"
t "bad input: a sha256 mismatch is refused, nothing cached" \
	pinned_refused deb_sha256 0000000000000000000000000000000000000000000000000000000000000000 "sha256 mismatch"
t "bad input: a version the archive no longer offers is refused, nothing cached" \
	pinned_refused version "$(base_col "$bad_base" version)~absent" "not offered"

# stuck_refused TEXT TIER...: host/stuck.sh on a made-up machine whose
# memory tiers hold the nodes TIER (one node list a tier, node 0 with a
# CPU) refuses with TEXT.
stuck_refused() {
	want=$1
	shift
	m=$(mktemp -d)
	mkdir -p "$m/proc/1/task/1" "$m/sys/devices/system/node/node0"
	: >"$m/proc/1/maps"
	: >"$m/proc/1/numa_maps"
	echo 0 >"$m/sys/devices/system/node/node0/cpulist"
	i=0
	for list; do
		i=$((i + 1))
		mkdir -p "$m/sys/devices/virtual/memory_tiering/memory_tier$i"
		echo "$list" >"$m/sys/devices/virtual/memory_tiering/memory_tier$i/nodelist"
	done
	refused "$want" env STUCK_ROOT="$m" "$top/host/stuck.sh" 1
	rc=$?
	rm -rf "$m"
	return $rc
}
t "bad input: host/stuck.sh on a machine with one memory tier says so in one line" \
	stuck_refused "no lower memory tier" 0-1
t "bad input: host/stuck.sh of a process that does not exist says so in one line" \
	refused "no such process" env STUCK_ROOT=/nonexistent "$top/host/stuck.sh" 1
