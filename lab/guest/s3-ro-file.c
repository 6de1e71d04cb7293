// SPDX-License-Identifier: GPL-2.0
/*
 * s3-ro-file - scenario 3: a file whose page cache is on the slow node,
 * mapped read-only MAP_SHARED and read in a loop.  On 7.3.4
 * task_numa_work() skips read-only file VMAs (NUMAB_SKIP_SHARED_RO), so it
 * is never promoted.  The file lives on tmpfs (-d), so its folios are
 * shmem folios.  With -H it lives on a tmpfs mounted huge=always (/huge in
 * the guest) and must be mapped by PMDs: the huge-PMD path of the scan.
 * With -L the process also maps cold anonymous memory on the slow node:
 * the series scans promotion-only only while a lower tier node has memory
 * mapped, so -L is what makes it scan a mapping whose file is on a top
 * tier node (scenarios 11.5, 11.6).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lab.h"


static const char usage[] =
	"Scenario 3: a file on the slow node mapped PROT_READ MAP_SHARED,\n"
	"read in a loop by NPROC processes (children inherit the mapping).\n"
	"  -d DIR       directory of the file (default /tmp, a tmpfs)\n"
	"  -p NPROC     processes (default 1)\n"
	"  -H           the whole mapping must be mapped by PMDs (DIR a tmpfs\n"
	"               mounted huge=always)\n"
	"  -F           flush the CPU's TLB after every pass over the file\n"
	"               (lab_flush_tlb(): what an address-space switch does)\n"
	"  -L MIB       also map MIB of anonymous memory on the slow node,\n"
	"               never read (default 0: none)\n"
	"Defaults: -s 3 -m 2 -t 20 -M 64.\n";

static const char *dir = "/tmp";
static unsigned long nr_procs = 1;
static int pmd_mapped;
static int flush_tlb;
static unsigned long lower_mib;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'd':
		dir = arg;
		return 0;
	case 'p':
		return lab_parse_ulong(arg, 1, LAB_MAX_PROCS, &nr_procs);
	case 'H':
		pmd_mapped = 1;
		return 0;
	case 'F':
		flush_tlb = 1;
		return 0;
	case 'L':
		return lab_parse_ulong(arg, 0, 512, &lower_mib);
	}
	return -1;
}

/*
 * The bytes of the mapping at @addr that are mapped by PMDs, from its
 * ShmemPmdMapped or FilePmdMapped line in /proc/self/smaps, or -1.
 */
static long pmd_mapped_bytes(const void *addr)
{
	unsigned long start, end;
	long kb, ret = -1;
	char line[256];
	int in_vma = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* A VMA's first line: "START-END perms ..." */
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in_vma = start == (unsigned long)addr;
			continue;
		}
		if (in_vma && (sscanf(line, "ShmemPmdMapped: %ld kB", &kb) == 1 ||
			       sscanf(line, "FilePmdMapped: %ld kB", &kb) == 1))
			ret = (ret < 0 ? 0 : ret) + kb * 1024;
	}
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_opts o;
	char path[256];

	lab_opts_init(&o, "3", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "d:p:HFL:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	if (lower_mib && !lab_alloc_on_node(LAB_MIB(lower_mib), LAB_SLOW_NODE)) {
		lab_error(o.scenario, "lower-tier-alloc");
		return 1;
	}

	snprintf(path, sizeof(path), "%s/lab-s3-ro-file.%d", dir, (int)getpid());
	hot.len = o.size;
	hot.addr = lab_map_file_on_node(path, hot.len, o.node, PROT_READ,
					MAP_SHARED);
	if (hot.addr && pmd_mapped) {
		long pmd = pmd_mapped_bytes(hot.addr);

		if (pmd != (long)hot.len) {
			lab_warn("%s: %ld of %zu bytes mapped by PMDs", path,
				 pmd, hot.len);
			lab_error(o.scenario, "not PMD-mapped");
			return 1;
		}
	}
	if (flush_tlb && lab_flush_after_touch()) {
		lab_error(o.scenario, "tlb-flush");
		return 1;
	}
	return lab_run_hot_region(&o, "ro-file", &hot, nr_procs);
}
