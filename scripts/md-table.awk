# SPDX-License-Identifier: GPL-2.0
# md-table.awk -v heading=TEXT FILE: the first Markdown table under the
# first heading of FILE that starts with TEXT (after the #s), as is.
/^#/ {
	h = $0
	sub(/^#+ */, "", h)
	if (!found && index(h, heading) == 1)
		found = 1
	else if (intable)
		exit
	next
}
found && /^\|/ { print; intable = 1; next }
intable { exit }
