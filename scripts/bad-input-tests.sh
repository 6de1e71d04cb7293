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

# pinned_refused FIELD VALUE TEXT: fetch-base.sh with one field of the pin
# of 7.3.4 changed refuses with TEXT and leaves no file in its cache.
pinned_refused() {
	tmp=$(mktemp -d)
	cp -r "$here" "$tmp/scripts"
	awk -F'\t' -v OFS='\t' -v f="$1" -v v="$2" '$1 == "7.3.4" { $f = v } { print }' \
		"$here/bases.tsv" >"$tmp/scripts/bases.tsv"
	refused "$3" env LAB_CACHE="$tmp/cache" "$tmp/scripts/fetch-base.sh" 7.3.4
	rc=$?
	left=$(find "$tmp/cache" -type f 2>/dev/null)
	rm -rf "$tmp"
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	return $rc
}

t "bad input: an unknown scenario is refused" \
	refused "unknown scenario '9'" env SCENARIOS="0 9" "$here/lab-run.sh" "$logs/bad" 7.3.4-base
t "bad input: an unknown kernel is refused" \
	refused "unknown kernel" "$here/lab-run.sh" "$logs/bad" 7.3.4-nope
t "bad input: a KSRC that is no kernel tree is refused" \
	refused "is not a kernel source tree" env KSRC=/ "$here/kernel.sh" 7.3.4-base
t "bad input: a sha256 mismatch is refused, nothing cached" \
	pinned_refused 5 0000000000000000000000000000000000000000000000000000000000000000 "sha256 mismatch"
t "bad input: a version the archive no longer offers is refused, nothing cached" \
	pinned_refused 3 7.3.4-1~bpo13+0 "not offered"
