# SPDX-License-Identifier: GPL-2.0
# awk -f at-line.awk -f parse-console.awk -v kernel=NAME -v kind=KIND -v dir=OUTDIR CONSOLE
# Turns the guest's "@@ TAG key=value ..." lines into rows of one table per
# tag in OUTDIR:
#   sample -> samples.tsv   end -> ends.tsv   skip -> skips.tsv
#   error  -> errors.tsv    cpu -> cpu.tsv (damon-run, lab.cpu=1/lab.damon=1)
#   part   -> parts.tsv     partend -> part-ends.tsv (a run's parts)
#   notify -> notify.tsv (lab.notifier=1: the MMU-notifier counts of the
#             workload's mm over the run, by event; lab/notifier)
# A table is made only when its tag occurs.  Each has a header line:
# "kernel kind", then the keys of the guest's line in the order it prints
# them, so the fields are declared in the guest's C code alone.  ends.tsv
# also carries "name" and "mode" of the scenario's "@@ begin" line, right
# after "scenario".  The header is written when the file is made; the
# consoles of further kernels in OUTDIR append rows, and must have the
# same keys (else exit 2: one table cannot hold two layouts).
# Other "@@" lines (boot, begin, done, ...) and all prose are not tables.
# Exit status: 2 no "@@ boot" line or a key mismatch, 3 the guest had no
# lower tier, no NUMA balancing counters or an unmounted disk (no
# results), else 0.

BEGIN {
	OFS = "\t"
	if (kernel == "" || kind == "" || dir == "") {
		print "usage: awk -f at-line.awk -f parse-console.awk -v kernel=NAME -v kind=KIND -v dir=OUTDIR CONSOLE" > "/dev/stderr"
		bad = 1
		exit 2
	}
	file["sample"] = "samples.tsv"
	file["end"] = "ends.tsv"
	file["skip"] = "skips.tsv"
	file["error"] = "errors.tsv"
	file["cpu"] = "cpu.tsv"
	file["part"] = "parts.tsv"
	file["partend"] = "part-ends.tsv"
	file["notify"] = "notify.tsv"
}

# The line's keys in order (key[1..nkeys]) and values (val[key]): those of
# at_line(), with name and mode of the begin line after an end line's
# scenario.
function split_line(    i, s) {
	delete val
	nkeys = 0
	tag = at_tag
	for (i = 1; i <= at_nkeys; i++) {
		key[++nkeys] = at_key[i]
		val[key[nkeys]] = at_val[at_key[i]]
		if (tag == "end" && key[nkeys] == "scenario") {
			s = val["scenario"]
			key[++nkeys] = "name"
			val["name"] = (s in name) ? name[s] : "NA"
			key[++nkeys] = "mode"
			val["mode"] = (s in mode) ? mode[s] : "NA"
		}
	}
}

function fail(msg) {
	print FILENAME ":" FNR ": " msg > "/dev/stderr"
	bad = 1
	exit 2
}

# The first row of a tag in this console makes its table or checks the
# header of the table an earlier console made.
function table_row(    path, hdr, row, first, r, i) {
	path = dir "/" file[tag]
	hdr = "kernel" OFS "kind"
	row = kernel OFS kind
	for (i = 1; i <= nkeys; i++) {
		hdr = hdr OFS key[i]
		row = row OFS val[key[i]]
	}
	if (!(tag in header)) {
		first = ""
		r = (getline first < path)
		close(path)
		if (r > 0 && first != hdr)
			fail(path " has the columns \"" first "\", but the guest's \"@@ " tag "\" lines give \"" hdr "\"")
		if (r <= 0)
			print hdr >> path
		header[tag] = hdr
	} else if (hdr != header[tag])
		fail("\"@@ " tag "\" line with the keys \"" hdr "\", not \"" header[tag] "\" as before")
	print row >> path
}

!at_line($0) { next }

{ split_line() }

tag == "boot" {
	boot_seen = 1
	lower = ("lower_tier" in val) ? val["lower_tier"] : "NA"
	vmstat = ("vmstat" in val) ? val["vmstat"] : "NA"
	disk = ("disk" in val) ? val["disk"] : "NA"
}

tag == "begin" {
	name[val["scenario"]] = ("name" in val) ? val["name"] : "NA"
	mode[val["scenario"]] = ("mode" in val) ? val["mode"] : "NA"
}

tag in file {
	table_row()
}

END {
	if (bad)
		exit 2
	if (!boot_seen) {
		print "no boot line from the guest" > "/dev/stderr"
		exit 2
	}
	if (lower != "yes") {
		print "nodes 0 and 1 are not one top memory tier with node 2 below it in this guest (no ACPI HMAT tiers?): no results" > "/dev/stderr"
		exit 3
	}
	if (vmstat != "yes") {
		print "the guest kernel has no NUMA balancing counters in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS=y missing from its config?): no results" > "/dev/stderr"
		exit 3
	}
	if (disk == "unmounted") {
		print "the guest could not mount its disk as ext4 (CONFIG_VIRTIO_BLK=y and CONFIG_EXT4_FS=y missing from its config?): no results" > "/dev/stderr"
		exit 3
	}
}
