# SPDX-License-Identifier: GPL-2.0
# selection.awk: how a selection of scenarios names rows of
# lab/scenarios.tsv, the one place of that rule.  Read with scenarios.awk
# in the guest (/init, as /lab/selection.awk) and by scripts/lib.sh on the
# host.  A selection "N" takes the row with id N and the rows whose id
# starts with "N." ("6" is 6.0-6.5, "6.5" only 6.5); a row's group is its
# id up to the first ".", the selection that takes the whole group.

function selection_takes(sel, id) {
	return id "" == sel "" || index(id, sel ".") == 1
}

function selection_group(id) {
	sub(/\..*/, "", id)
	return id
}
