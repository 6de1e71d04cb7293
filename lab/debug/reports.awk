# SPDX-License-Identifier: GPL-2.0
#
# reports.awk: find kernel reports in a guest console log.
#
#   awk [-v skip_kcsan=yes] -f lab/debug/reports.awk CONSOLE
#
# Exit status 0 when there is none.  Otherwise prints how many report
# headlines there are, the first ten of them, and the first report's
# console lines, and exits 1.
#
# Only kernel messages count: the text after a printk timestamp
# ("[   12.345678] ", CONFIG_PRINTK_TIME).  A line may hold more than one
# when a kernel message lands in the middle of a program's output, so
# every timestamp on a line starts a message of its own.  A message is a
# report when it
#   starts with     WARNING:  (WARN*(), lockdep, RCU-lockdep)
#                   INFO:  rcu: INFO:  (lockdep, RCU stalls, hung tasks)
#                   Oops  Kernel panic  UBSAN:  kernel BUG at
#   or contains     BUG:  KASAN:  general protection fault
#                   possible circular locking  possible recursive locking
#                   inconsistent lock state  suspicious RCU usage
#                   sleeping function called from invalid context
# With skip_kcsan set, KCSAN's data-race reports ("BUG: KCSAN: ...") are
# left to lab/debug/kcsan-lines.sh.

BEGIN {
	nr = 0		# report headlines
	first = 0	# console line of the first one
	keep = 40	# console lines printed from the first report on
}

function is_report(msg) {
	if (skip_kcsan != "" && msg ~ /BUG: KCSAN: /)
		return 0
	if (msg ~ /^(WARNING:|INFO: |rcu: INFO: |Oops|Kernel panic|UBSAN:|kernel BUG at )/)
		return 1
	if (msg ~ /(^|[^A-Za-z])BUG:/ || msg ~ /KASAN:/ || msg ~ /general protection fault/)
		return 1
	if (msg ~ /possible (circular|recursive) locking|inconsistent lock state/)
		return 1
	if (msg ~ /suspicious RCU usage|sleeping function called from invalid context/)
		return 1
	return 0
}

{
	sub(/\r$/, "")
	rest = $0
	while (match(rest, /\[ *[0-9]+\.[0-9]+\] /)) {
		rest = substr(rest, RSTART + RLENGTH)
		# The message runs up to the next timestamp, if any.
		msg = rest
		if (match(msg, /\[ *[0-9]+\.[0-9]+\] /))
			msg = substr(msg, 1, RSTART - 1)
		if (!is_report(msg))
			continue
		if (++nr <= 10)
			head[nr] = msg
		if (!first)
			first = FNR
	}
	if (first && FNR - first < keep)
		lines[FNR - first] = $0
}

END {
	if (!nr)
		exit 0
	printf "%d kernel report line(s) in %s%s:\n", nr, FILENAME,
		(nr > 10 ? "; the first ten" : "")
	for (i = 1; i <= nr && i <= 10; i++)
		printf "  %s\n", head[i]
	printf "first report, from console line %d:\n", first
	for (i = 0; i < keep && (i in lines); i++)
		printf "  | %s\n", lines[i]
	exit 1
}
