# SPDX-License-Identifier: GPL-2.0
# stuck.awk: the memory of one process on a lower memory tier, VMA by
# VMA, and what keeps it there (host/stuck.sh).
#   awk -f stuck.awk -v reasons_file=skip-reasons.tsv -v lower=N,N -v mode=M -v tids=T,T \
#       MAPS NUMA_MAPS TRACE
# MAPS, NUMA_MAPS: /proc/PID/maps and /proc/PID/numa_maps; TRACE: text of
# sched:sched_skip_vma_numa events (tracefs), or /dev/null.  lower: the
# nodes of the lower tiers; mode: kernel.numa_balancing; tids: the
# process' threads, whose events count; reasons_file: skip-reasons.tsv, what
# the skip reasons that keep memory where it is mean.  Prints stuck.tsv: a header, then
# one row per VMA with pages on a lower tier, the most first.

# why(v): what keeps VMA v on the lower tier, from the scanner's own
# skip reasons when the trace has any, else from what the mapping is.
function why(v,    r, w, n, i, k) {
	if (int(mode / 2) % 2 == 0)
		return "tiering is off: kernel.numa_balancing=" mode " has no bit 2 (2 or 3 promote)"
	w = ""
	if (v in reasons) {
		n = split(reasons[v], r, ",")
		for (i = 1; i <= n; i++) {
			k = r[i]
			sub(/=.*/, "", k)
			if (k in explain)
				w = w (w == "" ? "" : "; ") explain[k]
		}
		if (w != "")
			return w
	}
	if (path[v] ~ /^\// && perms[v] !~ /w/)
		w = "a read-only file mapping: skipped as shared_ro by kernels without the series' patch 3"
	if (path[v] ~ /^\// && perms[v] ~ /x/ && perms[v] ~ /s/)
		w = w (w == "" ? "" : "; ") "a shared executable file mapping: migration refuses it on kernels without patch 2"
	if (mapmax[v] > 1)
		w = w (w == "" ? "" : "; ") "folios mapped by up to " mapmax[v] " processes: shared, not promoted by kernels without patch 2"
	if (w == "")
		w = "no filter of the mapping applies: if it is hot, see the trace (-t) for pid_inactive, and the promotion threshold and rate limit"
	return w
}

BEGIN {
	OFS = "\t"
	nl = split(lower, l, ",")
	for (i = 1; i <= nl; i++)
		is_lower["N" l[i]] = 1
	nt = split(tids, t, ",")
	for (i = 1; i <= nt; i++)
		is_tid[t[i]] = 1
	# The reasons' meanings: a tab-separated table with a header line.
	while ((getline line < reasons_file) > 0) {
		if (line ~ /^#/ || !(split(line, kv, "\t") == 2) || kv[1] == "reason")
			continue
		explain[kv[1]] = kv[2]
	}
	close(reasons_file)
}

# maps: start-end perms offset dev inode [path]
FILENAME == ARGV[1] {
	split($1, a, "-")
	v = a[1]
	sub(/^0+/, "", v)
	end[v] = a[2]
	perms[v] = $2
	p = ""
	for (i = 6; i <= NF; i++)
		p = p (p == "" ? "" : " ") $i
	path[v] = p
	next
}

# numa_maps: start policy [file=...] [anon=N] ... [mapmax=N] [N<node>=pages] kernelpagesize_kB=K
FILENAME == ARGV[2] {
	v = $1
	sub(/^0+/, "", v)
	ps = 4
	lp = 0
	tp = 0
	for (i = 2; i <= NF; i++) {
		if ($i ~ /^kernelpagesize_kB=/) {
			ps = substr($i, 19) + 0
		} else if ($i ~ /^N[0-9]+=/) {
			split($i, kv, "=")
			tp += kv[2]
			if (kv[1] in is_lower)
				lp += kv[2]
		} else if ($i ~ /^mapmax=/) {
			mapmax[v] = substr($i, 8) + 0
		}
	}
	if (lp > 0) {
		lower_kib[v] = lp * ps
		total_kib[v] = tp * ps
		order[++nv] = v
	}
	next
}

# trace: <comm>-<tid> [(<tgid>)] [cpu] ... sched_skip_vma_numa: ... vm_start=X vm_end=X reason=R
/sched_skip_vma_numa:/ {
	head = $0
	sub(/ +(\( *[0-9-]+\) +)?\[[0-9]+\].*/, "", head)
	tid = head
	sub(/.*-/, "", tid)
	if (!(tid in is_tid))
		next
	vs = $0
	sub(/.*vm_start=/, "", vs)
	sub(/ .*/, "", vs)
	vs = tolower(vs)
	sub(/^0+/, "", vs)
	r = $0
	sub(/.*reason=/, "", r)
	sub(/ .*/, "", r)
	if (!((vs, r) in seen))
		rlist[vs] = rlist[vs] (rlist[vs] == "" ? "" : " ") r
	seen[vs, r]++
}

END {
	print "vma", "perms", "mapping", "lower_tier_kib", "total_kib", "mapmax", "skips", "why"
	# The most lower-tier memory first (insertion sort: a process has
	# thousands of VMAs at most).
	for (i = 2; i <= nv; i++) {
		x = order[i]
		for (j = i - 1; j >= 1 && lower_kib[order[j]] < lower_kib[x]; j--)
			order[j + 1] = order[j]
		order[j + 1] = x
	}
	for (i = 1; i <= nv; i++) {
		v = order[i]
		s = ""
		n = split(rlist[v], rr, " ")
		for (j = 1; j <= n; j++)
			s = s (s == "" ? "" : ",") rr[j] "=" seen[v, rr[j]]
		reasons[v] = s
		print v "-" end[v], perms[v], (path[v] == "" ? "[anon]" : path[v]), lower_kib[v], total_kib[v],
			(v in mapmax ? mapmax[v] : 1), (s == "" ? "-" : s), why(v)
	}
}
