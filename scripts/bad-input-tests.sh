# shellcheck shell=sh
# shellcheck disable=SC2154 # $here, $logs: set by check.sh, which sources this
# SPDX-License-Identifier: GPL-2.0
# bad-input-tests.sh: sourced by check.sh.  Bad input is refused with one
# "error:" line and a non-zero exit status, and leaves nothing behind.

# refused TEXT COMMAND...: COMMAND fails with one error line containing TEXT.
refused() {
	want=$1
	shift
	out=$("$@" 2>&1 >/dev/null) && { echo "accepted: $*"; return 1; }
	printf '%s\n' "$out"
	[ "$(printf '%s\n' "$out" | grep -c 'error:')" -eq 1 ] &&
		printf '%s\n' "$out" | grep 'error:' | grep -q -- "$want"
}

# The base the mainline series is built on, its kernel and a pinned field.
bad_kernel=$(base_kernel "$(series_kernel mainline)")
bad_base=$(kernel_col "$bad_kernel" base)

# pinned_refused COLUMN VALUE TEXT: fetch-base.sh with one column of the
# pin of $bad_base in bases.tsv changed to VALUE refuses with TEXT and
# leaves no file in its cache.
pinned_refused() {
	tmp=$(mktemp -d)
	cp -r "$here" "$tmp/scripts"
	tsv_awk '!hdr++ { print tsv_header(); n = split(tsv_header(), h, "\t") }
		col("name") "" == b "" { for (i = 1; i <= n; i++) if (h[i] == c) $i = v }
		{ print }' -v b="$bad_base" -v c="$1" -v v="$2" "$here/bases.tsv" >"$tmp/scripts/bases.tsv"
	refused "$3" env LAB_CACHE="$tmp/cache" "$tmp/scripts/fetch-base.sh" "$bad_base"
	rc=$?
	left=$(find "$tmp/cache" -type f 2>/dev/null)
	rm -rf "$tmp"
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	return $rc
}

t "bad input: an unknown scenario is refused" \
	refused "unknown scenario 'x'" env SCENARIOS="0 x" "$here/lab-run.sh" "$logs/bad" "$bad_kernel"
t "bad input: an unknown kernel is refused" \
	refused "unknown kernel" "$here/lab-run.sh" "$logs/bad" no-such-kernel
t "bad input: a DAMON run of a scenario without DAMON rules is refused" \
	refused "no DAMON counterpart" env DAMON_SCENARIOS=7 "$here/damon-demo.sh" "$logs/bad"
t "bad input: a scale point that is not NVMASxNTHREADS is refused" \
	refused "not NVMASxNTHREADS" env SCALE_GRID="64x8 512" "$here/scale.sh" "$logs/bad"
t "bad input: a KSRC that is no kernel tree is refused" \
	refused "is not a kernel source tree" env KSRC=/ "$here/kernel.sh" "$bad_kernel"
t "bad input: a sha256 mismatch is refused, nothing cached" \
	pinned_refused deb_sha256 0000000000000000000000000000000000000000000000000000000000000000 "sha256 mismatch"
t "bad input: a version the archive no longer offers is refused, nothing cached" \
	pinned_refused version "$(base_col "$bad_base" version)~absent" "not offered"
