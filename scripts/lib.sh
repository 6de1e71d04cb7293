# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for the lab scripts (POSIX sh).

: "${LAB_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/numab-lab}"
export LAB_CACHE

prog=${0##*/}

# script_help "$@": an entry point's -h and --help: print the running
# script's header comment (after its SPDX line, up to the first line that
# is not a comment), its usage, and exit.  Every script the Makefile
# calls has it.
script_help() {
	case ${1:-} in
	-h | --help)
		sed -n '3,/^[^#]/{ /^#/s/^# \{0,1\}//p; }' "$0"
		exit 0
		;;
	esac
}

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

step() {
	printf '==> %s\n' "$*" >&2
}

# kill_session PID: stop the background job PID started with setsid and
# everything it started (its session's process group).  dash's kill takes
# only this form; a job already gone is no error, also under set -e.
kill_session() {
	kill -s TERM -- "-$1" 2>/dev/null || :
}

# need CMD PACKAGE: fail with a hint when a tool is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found; run 'make deps' (as root) or install Debian package '$2'"
}

# sha256_of FILE
sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

# apt_uris: every archive URI of this machine's apt configuration.
apt_uris() {
	{
		sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)[[:space:]].*/\2/p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | tr ' ' '\n' | sed 's#/*$##'
}

# apt_mirror_security: the debian-security archive URI, or $LAB_SECURITY_MIRROR.
apt_mirror_security() {
	if [ -n "${LAB_SECURITY_MIRROR:-}" ]; then
		printf '%s\n' "$LAB_SECURITY_MIRROR"
		return
	fi
	apt_uris | grep -E '^[a-z+]+://.*/debian-security$' | head -n 1
}

# apt_mirror: the Debian archive URI of this machine's apt configuration,
# or $LAB_MIRROR when set.  Never hard-coded.
apt_mirror() {
	if [ -n "${LAB_MIRROR:-}" ]; then
		printf '%s\n' "$LAB_MIRROR"
		return
	fi
	apt_uris | grep -E '^[a-z+]+://.*/debian$' | head -n 1
}

# ---- scripts/kernels.tsv: the only place kernels are named ----------
# Columns: name, kind (base: a Debian base as is; series: a base with a
# series or its first N patches; peer: a base with another mechanism's
# config), base (a version of bases.tsv), series (directory under series/,
# ":N" for its first N patches, - for none), fragments (under kconfig/).

# The functions below need $here, the scripts/ directory, set by every
# script before it sources this file.

# tsv_awk PROGRAM_TEXT [AWK_ARGS...] FILE...: run an awk program with
# tsv.awk's col() (columns by header name).
tsv_awk() {
	_prog=$(mktemp)
	printf '%s\n' "$1" >"$_prog"
	shift
	awk -f "${here:?}/tsv.awk" -f "$_prog" "$@"
	_rc=$?
	rm -f "$_prog"
	return $_rc
}

# repeat_runs DIR: the runs of a repeated run DIR (REPEAT), DIR/run-1,
# DIR/run-2, ..., in order, one a line; nothing for a single run.  DIR may
# be a symlink (RESULTS/latest).
repeat_runs() {
	find -H "$1" -mindepth 1 -maxdepth 1 -type d -name 'run-*' | sort -t- -k2 -n
}

# repeat_over TABLE RANGES RUN...: the table TABLE of each RUN (RUN/TABLE,
# the same columns in every run) over the runs (scripts/repeat.awk): the
# median of each numeric column on stdout and, with RANGES set, every
# numeric column's median, minimum and maximum into the file RANGES.
repeat_over() {
	_table=$1 _ranges=$2
	shift 2
	[ -z "$_ranges" ] || printf 'kernel\tscenario\tcolumn\tn\tmedian\tmin\tmax\n' >"$_ranges"
	for _run; do
		set -- "$@" "$_run/$_table"
		shift
	done
	awk -f "${here:?}/tsv.awk" -f "$here/repeat.awk" -v ranges="$_ranges" "$@"
}

# race_pairs RACES: the two functions of each data race in RACES (a
# lab/debug/kcsan-lines.sh listing), in a fixed order, one pair a line.
race_pairs() {
	sed -n 's/^race [0-9]*: .*data-race in \(.*\)$/\1/p' "$1" |
		awk -F ' / ' '{ print ($1 < $2) ? $1 " / " $2 : $2 " / " $1 }' | sort -u
}

# known_race PAIR: the row of lab/debug/kcsan-base.tsv that shows the
# data race PAIR (race_pairs) on the base kernel; nothing if none does.
known_race() {
	tsv_awk 'col("race") == pair { print col("row") }' -v pair="$1" "${here:?}/../lab/debug/kcsan-base.tsv"
}

# kernels_awk PROGRAM_TEXT [-v VAR=VALUE...]: tsv_awk on kernels.tsv.
kernels_awk() {
	tsv_awk "$@" "${here:?}/kernels.tsv"
}

# kernel_names: every kernel name, one a line.
kernel_names() {
	kernels_awk '{ print col("name") }'
}

# kernel_check NAME...: die unless every NAME is a kernel of kernels.tsv.
kernel_check() {
	for _k in "$@"; do
		kernel_names | grep -qxF -- "$_k" ||
			die "unknown kernel '$_k' (known: $(kernel_names | tr '\n' ' '))"
	done
}

# kernel_col NAME COLUMN: one field of NAME's row.
kernel_col() {
	kernel_check "$1"
	kernels_awk 'col("name") "" == n "" { print col(c) }' -v n="$1" -v c="$2"
}

# series_kernel SERIES: the kernel with all of series/SERIES applied.
series_kernel() {
	_sk=$(kernels_awk 'col("kind") == "series" && col("series") "" == s "" { print col("name"); exit }' -v s="$1")
	[ -n "$_sk" ] || die "unknown series '$1' (known: $(kernels_awk 'col("kind") == "series" && col("series") !~ /[:@]/ { printf "%s ", col("series") }'))"
	printf '%s\n' "$_sk"
}

# base_kernel NAME: the kernel of kind base built from NAME's base.
base_kernel() {
	_b=$(kernel_col "$1" base)
	kernels_awk 'col("kind") == "base" && col("base") "" == b "" { print col("name"); exit }' -v b="$_b"
}

# series_base NAME: the base kernel of NAME, a kernel with a series (else
# the script dies).
series_base() {
	kernel_check "$1"
	_b=$(base_kernel "$1")
	[ "$_b" != "$1" ] || die "$1 is a base kernel: name a kernel with a series"
	printf '%s\n' "$_b"
}

# kernel_patches NAME: how many patches of its series NAME has (0 for none).
kernel_patches() {
	_s=$(kernel_col "$1" series)
	case $_s in
	-) echo 0 ;;
	*:*) echo "${_s#*:}" ;;
	*) series_patches "$(series_dir "$_s")" | wc -l ;;
	esac
}

# series_dir SERIES: the directory of a series of kernels.tsv: series/SERIES,
# or for SERIES@REV (an earlier posting, run beside the current one) the
# series/SERIES of this repository's commit REV, extracted once into
# $LAB_CACHE/series/.
series_dir() {
	case $1 in
	*@*)
		_sd=$LAB_CACHE/series/$1
		if [ ! -f "$_sd/series" ]; then
			rm -rf "$_sd.tmp" && mkdir -p "$_sd.tmp" &&
				git -C "$here/.." archive "${1#*@}" "series/${1%@*}" | tar -x -C "$_sd.tmp" --strip-components=2 &&
				[ -f "$_sd.tmp/series" ] ||
				die "series $1: this repository has no series/${1%@*} at commit ${1#*@} (a shallow clone?)"
			mv "$_sd.tmp" "$_sd"
		fi
		printf '%s\n' "$_sd"
		;;
	*) printf '%s\n' "$here/../series/$1" ;;
	esac
}

# series_patches SERIESDIR [COUNT]: the patch files SERIESDIR/series lists
# (its first COUNT), one a line.
series_patches() {
	grep -v '^#' "$1/series" | sed '/^$/d' | head -n "${2:-9999}"
}

# series_sum SERIESDIR [COUNT]: fingerprint of those patches, stored in a
# tree made from them so that a changed series is noticed.
series_sum() {
	# shellcheck disable=SC2046 # patch file names are words
	(cd "$1" && cat $(series_patches . "${2:-}")) | sha256sum | cut -d' ' -f1
}

# ---- scripts/bases.tsv ---------------------------------------------

# base_col BASE COLUMN: one field of BASE's row of scripts/bases.tsv (the
# pinned Debian source of each base version).
base_col() {
	_v=$(tsv_awk 'col("name") "" == n "" { print col(c); f = 1 } END { exit !f }' \
		-v n="$1" -v c="$2" "${here:?}/bases.tsv") ||
		die "unknown base '$1' (known: $(tsv_awk '{ printf "%s ", col("name") }' "$here/bases.tsv"))"
	printf '%s\n' "$_v"
}

# ---- kernels of a kind, where trees and mboxes are ----------------

# kernels_of_kind KIND: the kernels of that kind, one a line, table order.
kernels_of_kind() {
	kernels_awk 'col("kind") == k { print col("name") }' -v k="$1"
}

# kernel_tree NAME: the git worktree kernel.sh keeps for kernel NAME when
# it has a series (a kernel without one builds from its base's tree).
kernel_tree() {
	printf '%s\n' "$LAB_CACHE/trees/$1"
}

# series_mbox SERIES: where mbox.sh writes the mbox of series/SERIES.
series_mbox() {
	printf '%s\n' "$LAB_CACHE/$1.mbox"
}

# files_sum PATH...: a checksum of the files under these paths of the
# repository (their names and contents; not lab/guest's build output).
files_sum() {
	(cd "${here:?}/.." && find "$@" -type f ! -path 'lab/guest/out/*' -exec sha256sum {} + |
		LC_ALL=C sort -k 2 | sha256sum | cut -d ' ' -f 1)
}

# guest_bin: the directory of the guest programs (make -C lab/guest O=;
# static x86-64, they run on the host too): one per checksum of
# lab/guest, so that work trees at different commits (a repeated run taken
# up from an older one) never run each other's programs; make's
# timestamps cannot tell them apart.
guest_bin() {
	_sum=$(files_sum lab/guest) || die "cannot checksum lab/guest"
	printf '%s\n' "$LAB_CACHE/guest/bin-$(printf '%s' "$_sum" | cut -c 1-12)"
}

# ---- lab/scenarios.tsv ----------------------------------------------

# scenarios_awk PROGRAM_TEXT [-v VAR=VALUE...]: tsv_awk on lab/scenarios.tsv,
# with the selection rule (lab/guest/selection.awk).
scenarios_awk() {
	_sprog=$1
	shift
	tsv_awk "$_sprog" -f "${here:?}/../lab/guest/selection.awk" "$@" "$here/../lab/scenarios.tsv"
}

# scenario_tools: the rows of lab/scenarios.tsv whose program is a Debian
# tool, not a lab program (no lab/guest/PROGRAM.c): "ID PROGRAM", one a
# line, table order.
scenario_tools() {
	scenarios_awk '{ print col("id"), col("program") }' | while read -r _id _prog; do
		[ -f "$here/../lab/guest/$_prog.c" ] || printf '%s %s\n' "$_id" "$_prog"
	done
}

# suite_selection RUN SUITE: the selections that take exactly the rows of
# run RUN that suite SUITE runs: demo or check (the rows naming it in the
# suites column of lab/scenarios.tsv) or full (every row), one a line,
# table order: a group (an id up to its first ".") whose rows are all
# taken, else each taken row's id.
suite_selection() {
	case $2 in
	demo | check | full) ;;
	*) die "unknown suite '$2' (demo, check or full)" ;;
	esac
	scenarios_awk 'col("run") == r {
			if (col("suites") !~ /^(-|(demo|check)(,(demo|check))*)$/) {
				printf "lab/scenarios.tsv: scenario %s: suites \"%s\" is not demo, check, both (comma separated) or -\n", col("id"), col("suites") >"/dev/stderr"
				bad = 1
			}
			g = selection_group(col("id"))
			if (!(g in seen))
				order[++ng] = g
			seen[g] = 1
			if (s == "full" || index("," col("suites") ",", "," s ","))
				taken[g] = taken[g] " " col("id")
			else
				left[g] = 1
		}
		END {
			if (bad)
				exit 1
			for (i = 1; i <= ng; i++) {
				g = order[i]
				if (!(g in left))
					print g
				else if (index(taken[g] " ", " " g " ")) {
					# The selection G would take all of G.* too.
					printf "lab/scenarios.tsv: suite %s runs scenario %s but not all of %s.*: give the others ids of their own\n", s, g, g >"/dev/stderr"
					exit 1
				} else if (g in taken) {
					n = split(taken[g], id, " ")
					for (j = 1; j <= n; j++)
						print id[j]
				}
			}
		}' -v r="$1" -v s="$2"
}

# scenario_ids RUN [SELECTION...]: the ids of run RUN's rows the
# selections take (all of RUN's without one), one a line, table order.  A
# selection takes what lab/guest/selection.awk says; one that takes none
# is an error.
scenario_ids() {
	_run=$1
	shift
	for _s in "$@"; do
		scenarios_awk 'col("run") == r && selection_takes(s, col("id")) { f = 1 }
			END { exit !f }' -v r="$_run" -v s="$_s" ||
			die "unknown scenario '$_s' (the $_run run's scenarios: $(suite_selection "$_run" full | tr '\n' ' ' | sed 's/ $//'); see lab/scenarios.tsv)"
	done
	scenarios_awk 'BEGIN { n = split(sel, s, " ") }
		col("run") == r {
			id = col("id")
			for (i = 1; i <= n; i++)
				if (selection_takes(s[i], id))
					break
			if (n == 0 || i <= n)
				print id
		}' -v r="$_run" -v sel="$*"
}
