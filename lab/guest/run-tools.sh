# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# run-tools.sh: the debug run's rows whose program is a Debian tool,
# sourced by /init (lab/guest/init.sh).  scripts/mkinitramfs.sh --tools
# puts the tools in $LAB/tools (/lab/tools).  A tool runs with the row's
# args for lab.stress_secs in numa_balancing MODE beside the promotion
# workload,
# `stress -o read,demote` (hot memory on the slow node, read, and moved
# back there every few seconds), so that memory keeps moving between the
# tiers while the tool runs; the workload's "@@ stress scenario=ID" line
# counts the promotions.  The tools move memory of their own to the slow
# node too: stress-ng's numa stressor and trinity's mbind, migrate_pages
# and move_pages calls.  (Moving all of a tool's memory there every few
# seconds, as the workload does its own, took minutes a pass under KASAN
# and filled the slow node.)  What the tool did, one line a stressor or
# system call:
#   @@ tool scenario=ID name=PROG op=OP count=N
# (stress-ng: its bogo-ops; trinity: the calls it made, 32- and 64-bit
# together).  A tool that failed, or an op that it did not do once, is an
# "@@ error scenario=ID" line.

TOOLS=$LAB/tools

# tool_row MODE ID PROG SECS ARGS: run tool PROG as row ID.
tool_row() {
	local m=$1 id=$2 prog=$3 secs=$4 args=$5 pid rc=0
	stress -s "$id" -m "$m" -t "$secs" -o read,demote &
	pid=$!
	case $prog in
	stress-ng) tool_stress_ng "$id" "$secs" "$args" ;;
	trinity) tool_trinity "$id" "$secs" "$args" ;;
	*) echo "@@ error scenario=$id msg=no-way-to-run-$prog" ;;
	esac
	wait $pid || rc=$?
	[ $rc -eq 0 ] || echo "@@ error scenario=$id msg=promotion-workload-status-$rc"
}

# tool_stress_ng ID SECS ARGS: ARGS name the stressors and their options;
# the bogo-ops of each come from stress-ng's YAML report.
tool_stress_ng() {
	local id=$1 secs=$2 args=$3 yaml=/tmp/$1.yaml rc=0
	# shellcheck disable=SC2086 # ARGS: stress-ng's option words
	"$TOOLS/stress-ng" --timeout "$secs" --temp-path /tmp --metrics-brief \
		--yaml "$yaml" $args || rc=$?
	[ $rc -eq 0 ] || echo "@@ error scenario=$id msg=stress-ng-status-$rc"
	awk -v id="$id" '
		$1 == "-" && $2 == "stressor:" { op = $3; next }
		$1 == "bogo-ops:" && op != "" {
			print "@@ tool scenario=" id " name=stress-ng op=" op " count=" $2
			if ($2 == 0)
				print "@@ error scenario=" id " msg=stress-ng-no-ops-" op
			op = ""
			n++
		}
		END { if (!n) print "@@ error scenario=" id " msg=stress-ng-no-report" }' "$yaml"
}

# tool_trinity ID SECS ARGS: trinity will not run as root, so it runs as
# nobody, in a directory of its own, with userfaultfd open to users for
# the run; SIGINT at the end makes it stop its children and print what
# each system call did (--stats).  Every system call ARGS names with -c
# must have been called.
tool_trinity() {
	local id=$1 secs=$2 args=$3 dir=/tmp/trinity out=/tmp/$1.trinity rc=0 uffd
	local uffd_knob=/proc/sys/vm/unprivileged_userfaultfd
	mkdir -p /etc
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/tmp/trinity:/bin/sh' >>/etc/passwd
	grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
	mkdir -p $dir
	chown 65534:65534 $dir
	uffd=$(cat $uffd_knob 2>/dev/null)
	[ -z "$uffd" ] || echo 1 >$uffd_knob
	(cd $dir && timeout -s INT "$secs" su -s /bin/sh nobody \
		-c "exec $TOOLS/trinity -q -l off --stats $args") >"$out" 2>&1 || rc=$?
	[ -z "$uffd" ] || echo "$uffd" >$uffd_knob
	# The end of its output: the totals and the statistics.
	sed -n '/Bailing main loop\|^\[main\] Ran /,$p' "$out"
	# busybox timeout leaves trinity's own status; it exits 0 on SIGINT.
	[ $rc -eq 0 ] || { tail -n 20 "$out"; echo "@@ error scenario=$id msg=trinity-status-$rc"; }
	awk -v id="$id" -v args="$args" '
		# "mmap: (attempted:25139. success:0. failures:25139.", once for
		# the 32-bit and once for the 64-bit calls.
		$2 ~ /^\(attempted:[0-9]+\.$/ {
			op = $1
			sub(/:$/, "", op)
			n = $2
			gsub(/[^0-9]/, "", n)
			count[op] += n
		}
		END {
			k = split(args, w, " ")
			for (i = 1; i < k; i++) {
				if (w[i] != "-c")
					continue
				op = w[i + 1]
				print "@@ tool scenario=" id " name=trinity op=" op " count=" count[op] + 0
				if (!count[op])
					print "@@ error scenario=" id " msg=trinity-no-calls-" op
			}
		}' "$out"
}
