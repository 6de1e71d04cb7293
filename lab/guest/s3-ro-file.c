// SPDX-License-Identifier: GPL-2.0
/*
 * s3-ro-file - scenario 3: a file whose page cache is on the slow node,
 * mapped read-only MAP_SHARED and read in a loop.  On 7.3.4
 * task_numa_work() skips read-only file VMAs (NUMAB_SKIP_SHARED_RO), so it
 * is never promoted.  The file lives on tmpfs (-d), so its folios are
 * shmem folios.
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
	"Defaults: -s 3 -m 2 -t 20 -M 64.\n";

static const char *dir = "/tmp";
static unsigned long nr_procs = 1;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'd':
		dir = arg;
		return 0;
	case 'p':
		return lab_parse_ulong(arg, 1, LAB_MAX_PROCS, &nr_procs);
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_opts o;
	char path[256];

	lab_opts_init(&o, "3", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "d:p:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	snprintf(path, sizeof(path), "%s/lab-s3-ro-file.%d", dir, (int)getpid());
	hot.len = o.size;
	hot.addr = lab_map_file_on_node(path, hot.len, o.node, PROT_READ,
					MAP_SHARED);
	return lab_run_hot_region(&o, "ro-file", &hot, nr_procs);
}
