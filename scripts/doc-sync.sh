#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# doc-sync.sh [--check] [FILE...]: keep the generated parts of Markdown
# files (default: the repository's documents, $docs below) equal to what
# they are generated from.  Two directives, each alone on a
# line:
#   <!-- code PATH -->       the fenced block that follows (``` ... ```)
#                            holds PATH (relative to the repository) as is
#   <!-- run COMMAND -->     the lines up to the next "<!-- end -->" are
#                            COMMAND's output (run by sh in the repository)
#   <!-- table PATH TEXT --> the same for the first table under the heading
#                            of PATH that starts with TEXT (md-table.awk)
# Without --check the files are rewritten; with it, nothing is written and
# the exit status is 1 when some part differs (the diff is printed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
top=$(cd "$here/.." && pwd)

check=
[ "${1:-}" = --check ] && { check=1; shift; }
# The documents with generated parts.
docs="README.md lab/README.md doc/results.md tests/README.md"
# shellcheck disable=SC2086 # one path a word
[ $# -gt 0 ] || { cd "$top" && set -- $docs; }
status=0
for f in "$@"; do
	[ -f "$f" ] || die "$f: no such file"
	case $f in /*) ;; *) f=$PWD/$f ;; esac
	new=$(mktemp)
	(cd "$top" && awk '
	function emit(cmd,    l, n) {
		n = 0
		while ((cmd | getline l) > 0) {
			print l
			n++
		}
		if (close(cmd) != 0 || n == 0) {
			printf "%s:%d: \"%s\" failed or printed nothing\n", FILENAME, FNR, cmd > "/dev/stderr"
			bad = 1
		}
	}
	skip == "fence" && /^```/ { print; skip = "body"; emit("cat " path); next }
	skip == "body" && /^```/ { print; skip = ""; next }
	skip == "end" && /^<!-- end -->$/ { print; skip = ""; next }
	skip == "fence" { printf "%s:%d: a fenced block must follow <!-- code %s -->\n", FILENAME, FNR, path > "/dev/stderr"; bad = 1; skip = "" }
	skip != "" { next }
	/^<!-- code [^ ]+ -->$/ { print; path = $3; skip = "fence"; next }
	/^<!-- table [^ ]+ .* -->$/ {
		print
		h = $0
		sub(/^<!-- table [^ ]+ /, "", h)
		sub(/ -->$/, "", h)
		emit("awk -v heading=\"" h "\" -f scripts/md-table.awk " $3)
		skip = "end"
		next
	}
	/^<!-- run .* -->$/ { print; cmd = $0; sub(/^<!-- run /, "", cmd); sub(/ -->$/, "", cmd); emit(cmd); skip = "end"; next }
	{ print }
	END {
		if (skip != "") {
			printf "%s: unterminated generated part\n", FILENAME > "/dev/stderr"
			bad = 1
		}
		exit bad
	}' "$f") >"$new" || { rm -f "$new"; die "$f: cannot regenerate its generated parts (above)"; }
	if [ -n "$check" ]; then
		diff -u "$f" "$new" || status=1
		rm -f "$new"
	elif cmp -s "$f" "$new"; then
		rm -f "$new"
	else
		mv "$new" "$f"
		step "updated $f"
	fi
done
exit $status
