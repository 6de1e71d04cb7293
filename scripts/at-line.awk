# SPDX-License-Identifier: GPL-2.0
# at-line.awk: the guest's result lines, "@@ TAG key=value ...", for the awk
# programs that read consoles (load it first: awk -f at-line.awk -f PROG).
#   at_line(s)  true when s holds a result line; then at_tag is its tag,
#               at_key[1..at_nkeys] its keys in the guest's order (a
#               repeated key counts once) and at_val[KEY] their values.
# Serial output may carry a kernel message glued in front of the line, and
# a carriage return after it: the line starts at "@@ ", the return goes.

function at_line(s,    p, f, n, i, k) {
	p = index(s, "@@ ")
	if (!p)
		return 0
	s = substr(s, p + 3)
	sub(/\r$/, "", s)
	delete at_val
	at_nkeys = 0
	n = split(s, f, " ")
	at_tag = f[1]
	for (i = 2; i <= n; i++) {
		k = index(f[i], "=")
		if (k < 2 || (substr(f[i], 1, k - 1) in at_val))
			continue
		at_key[++at_nkeys] = substr(f[i], 1, k - 1)
		at_val[at_key[at_nkeys]] = substr(f[i], k + 1)
	}
	return 1
}
