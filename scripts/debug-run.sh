#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debug-run.sh [--config NAME [--fields FIELDS]] [--base BASE] KERNEL RESULTS [KERNEL_ARGS...]:
# build lab kernel KERNEL (scripts/kernels.tsv) with kconfig/NAME.config
# (default debug: DEBUG_VM, lockdep, KASAN; kcsan: KCSAN, lockdep) on top
# of lab.config, boot it in the lab guest's debug run
# (lab.run=debug: the debug rows of lab/scenarios.tsv, the concurrent
# stress among them, under numa_balancing=2, then =3), write its console
# to RESULTS/KERNEL.console (RESULTS/kernels.tsv, uname.tsv: run-lib.sh)
# and check it.
#
# Exit status 0 only when the console holds no kernel report
# (lab/debug/reports.awk: WARN, BUG, lockdep, KASAN, ...), the guest
# reached "@@ done" with a lower memory tier, printed no "@@ error" line,
# a "@@ stress" line for both modes, for the stress and for each Debian
# tool's row (the promotion workload beside it), the tool's "@@ tool"
# lines, and lockdep was still on at the end.  Otherwise 1, with what is
# missing, or 4 for kernel reports, with the first one's lines: with
# --base, the same run on kernel BASE then says whether they are found
# there too (the base's) or not (the kernel's own, in one run each); 4
# too, with --base on a KCSAN kernel, for data races the base's run did
# not show (below).  What each tool did, and the promotions meanwhile, go to
# RESULTS/KERNEL.tools.tsv: mode, row, op (a stressor or system call, or
# pgpromote_success: the guest's promotions while the row ran, from the
# workload beside the tool) and count.
#
# With a KCSAN kernel, data races are listed with the source line of each
# access (lab/debug/kcsan-lines.sh) and counted; one whose source line
# names a word of FIELDS (e.g. the struct fields a series adds) fails the
# run.  With --base, the same run on BASE then judges the others by the
# two functions of each race: those the base shows too, or that
# lab/debug/kcsan-base.tsv lists (with the debug row that shows them on
# the base), are the base's (RESULTS/KERNEL.races-whose), one it does not
# show fails the run with status 4; without --base they are reported only.
#
# KERNEL_ARGS go to the guest: lab.stress_secs=N (default 300 per mode),
# lab.secs=N (each scenario, default 10), lab.inject=warn (a deliberate
# WARN through LKDTM: the run must fail), lab.scenarios=ID,... (only these
# debug rows: the stress and tools' lines are then checked for those
# among them), or kernel parameters (e.g. kcsan.skip_watch=N).  $LAB_GUEST_TIMEOUT overrides
# the guest's time limit.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/run-lib.sh"

usage="usage: debug-run.sh [--config NAME [--fields FIELDS]] [--base BASE] KERNEL RESULTS [KERNEL_ARGS...]"
config=debug
fields=
base=
while [ $# -gt 0 ]; do
	case $1 in
	--config) config=${2:?$usage}; shift 2 ;;
	--fields) fields=${2:?$usage}; shift 2 ;;
	--base) base=${2:?$usage}; shift 2 ;;
	*) break ;;
	esac
done
frag=$here/../kconfig/$config.config
[ -f "$frag" ] || die "no kernel config kconfig/$config.config (--config $config)"
kcsan=
! grep -qx 'CONFIG_KCSAN=y' "$frag" || kcsan=yes
kernel=${1:?$usage}
results=${2:?$usage}
shift 2
kernel_check "$kernel" ${base:+"$base"}
modes="2 3"

# The guest's time limit: boot and the short debug scenarios under TCG
# with KASAN, and the stress and each tool their time per mode; 30
# minutes and half their time again leave room for a slower or busier
# host.
stress_secs=300
selection=
for arg in "$@"; do
	case $arg in
	lab.stress_secs=*) stress_secs=${arg#*=} ;;
	lab.scenarios=*) selection=${arg#*=} ;;
	esac
done
case $stress_secs in
'' | *[!0-9]*) die "lab.stress_secs=$stress_secs is not a number of seconds" ;;
esac
[ -z "$selection" ] || run_selection debug "$selection" >/dev/null
# selected ID: whether debug row ID runs (all do without lab.scenarios=).
selected() {
	[ -z "$selection" ] || case ,$selection, in *,"$1",*) ;; *) false ;; esac
}
# The rows of the Debian tools (lib.sh) that run, by id, one a line.
tool_ids=$(scenario_tools | cut -d ' ' -f 1 | while read -r id; do ! selected "$id" || echo "$id"; done)
long_rows=$((1 + $(printf '%s\n' "$tool_ids" | grep -c . || :)))
timeout=${LAB_GUEST_TIMEOUT:-$((1800 + 3 * stress_secs * long_rows))}

# base_run WHAT KERNEL_ARGS...: the same run on BASE, to say whose WHAT
# (the kernel's reports) are; its exit status.
base_run() {
	step "$kernel: $1; the same run on $base says whose they are"
	shift
	"$here/debug-run.sh" --config "$config" ${fields:+--fields "$fields"} "$base" "$results" "$@"
}

# kcsan_whose KERNEL_ARGS...: with --base, whose the races are, by the
# functions they are between: one lab/debug/kcsan-base.tsv lists is the
# base's (a row of the debug run shows it there); for the others the same
# run on BASE decides: one the base shows too is the base's, one it does
# not show (in one run each) is the kernel's own: status 4.  Each race
# and its verdict go to RESULTS/KERNEL.races-whose.
kcsan_whose() {
	# Each race, a tab and the row of kcsan-base.tsv that shows it, if any.
	_known=$(race_pairs "$results/$kernel.races" | while IFS= read -r _pair; do
		printf '%s\t%s\n' "$_pair" "$(known_race "$_pair")"
	done)
	[ -n "$_known" ] || return 0
	_base_pairs=
	if printf '%s\n' "$_known" | grep -q '	$'; then
		_rc=0
		base_run "KCSAN reports" "$@" || _rc=$?
		[ $_rc -eq 0 ] || die "$base's run failed (status $_rc): whose the races are is not known"
		_base_pairs=$(race_pairs "$results/$base.races")
	fi
	_tab=$(printf '\t')
	printf '%s\n' "$_known" | while IFS=$_tab read -r _pair _row; do
		if [ -n "$_row" ]; then
			printf '%s\tbase\tlab/debug/kcsan-base.tsv: row %s shows it on the base\n' "$_pair" "$_row"
		elif printf '%s\n' "$_base_pairs" | grep -qxF "$_pair"; then
			printf '%s\tbase\tthe same run on %s shows it\n' "$_pair" "$base"
		else
			printf '%s\t%s\tnot in the same run on %s\n' "$_pair" "$kernel" "$base"
		fi
	done >"$results/$kernel.races-whose"
	awk -F '\t' '{ printf "  %s: %s (%s)\n", $1, $2 == "base" ? "found in the base" : $2 "'"'"'s own", $3 }' \
		"$results/$kernel.races-whose" >&2
	if awk -F '\t' '$2 != "base" { found = 1 } END { exit !found }' "$results/$kernel.races-whose"; then
		printf '%s\n' "debug-run.sh: $kernel: KCSAN reports the base did not show ($results/$kernel.races-whose)" >&2
		exit 4
	fi
}

run_guest debug "$frag"
run_build "$kernel"

console=$results/$kernel.console
start=$(date +%s)
# loglevel=7: WARN and lockdep print at KERN_WARNING, which run-guest.sh's
# loglevel=4 keeps off the console.
guest_ok=yes
LAB_GUEST_TIMEOUT=$timeout
export LAB_GUEST_TIMEOUT
run_boot "$results" "$kernel" loglevel=7 "$@" || guest_ok=no
step "guest ran $(( $(date +%s) - start )) s; checking $console"
grep '^@@ stress \|^@@ tool ' "$console" | sed 's/^/  /' >&2 || true

# Kernel reports first: a panic that stopped the guest is explained by them.
# A KCSAN kernel's data races are judged below, by their source lines.
if ! reports=$(awk -v skip_kcsan="$kcsan" -f "$here/../lab/debug/reports.awk" "$console"); then
	printf '%s\n' "$reports" >&2
	whose=
	if [ -n "$base" ]; then
		rc=0
		base_run "kernel reports" "$@" || rc=$?
		case $rc in
		4) whose="; $base has kernel reports too: found in the base" ;;
		0) whose="; $base has none in the same run: $kernel's own" ;;
		*) whose="; $base's run failed otherwise (status $rc): whose is not known" ;;
		esac
	fi
	printf '%s\n' "debug-run.sh: $kernel: kernel reports in the guest console ($console)$whose" >&2
	exit 4
fi
[ "$guest_ok" = yes ] || die "$kernel: the guest did not finish (see above and $console)"
if [ -n "$kcsan" ]; then
	grep -q 'kcsan: enabled early' "$console" ||
		die "$kernel: no KCSAN in the guest kernel, or its messages are not on the console ($console)"
	rc=0
	# shellcheck disable=SC2086 # FIELDS: one word each
	races=$("$here/../lab/debug/kcsan-lines.sh" "$console" "$("$here/kernel.sh" --build "$kernel" "$frag")" \
		"$("$here/kernel.sh" --tree "$kernel")" $fields) || rc=$?
	printf '%s\n' "$races" >"$results/$kernel.races"
	printf '%s\n' "$races" | sed 's/^/  /' >&2
	[ $rc -ne 3 ] || die "$kernel: a KCSAN report names one of: $fields (above; $results/$kernel.races)"
	[ $rc -eq 0 ] || die "$kernel: could not resolve the KCSAN reports' source lines"
	[ -z "$base" ] || kcsan_whose "$@"
else
	grep -q 'KernelAddressSanitizer initialized' "$console" ||
		die "$kernel: no KASAN in the guest kernel, or its messages are not on the console ($console)"
fi
grep -q '^@@ boot .* lower_tier=yes' "$console" ||
	die "$kernel: the guest has no lower memory tier; nothing ran ($console)"
if grep -q '^@@ error ' "$console"; then
	grep '^@@ error ' "$console" | sed 's/^/  /' >&2
	die "$kernel: the guest reported errors (above; $console)"
fi
for m in $modes; do
	for id in stress $tool_ids; do
		selected "$id" || continue
		grep -q "^@@ stress scenario=$m.$id mode=$m " "$console" ||
			die "$kernel: no '@@ stress' line of row $id for numa_balancing=$m ($console)"
	done
	for id in $tool_ids; do
		grep -q "^@@ tool scenario=$m.$id " "$console" ||
			die "$kernel: no '@@ tool' line of row $id for numa_balancing=$m ($console)"
	done
	grep -q "^@@ debug mode=$m debug_locks=1\$" "$console" ||
		die "$kernel: lockdep was off after numa_balancing=$m: $(sed -n "s/^@@ debug mode=$m //p" "$console") ($console)"
done
# What the tools did, and the promotions beside them.
awk -v tools="$(printf '%s\n' "$tool_ids" | tr '\n' ' ')" '
	BEGIN {
		print "mode\trow\top\tcount"
		n = split(tools, t, " ")
		for (i = 1; i <= n; i++)
			tool[t[i]] = 1
	}
	function val(k,   i) {
		for (i = 3; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
	}
	$1 == "@@" && ($2 == "tool" || $2 == "stress") {
		split(val("scenario"), s, ".")
		if (!(s[2] in tool))
			next
		if ($2 == "tool")
			print s[1] "\t" s[2] "\t" val("op") "\t" val("count")
		else
			print s[1] "\t" s[2] "\tpgpromote_success\t" val("pgpromote_success")
	}' "$console" >"$results/$kernel.tools.tsv"
step "$kernel: no kernel reports, both modes ran ($console; the tools: $results/$kernel.tools.tsv)"
