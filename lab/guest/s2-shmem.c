// SPDX-License-Identifier: GPL-2.0
/*
 * s2-shmem - scenario 2: a memfd (shmem) mapped MAP_SHARED read-write by
 * NPROC processes (the children inherit the mapping), allocated on the
 * slow node and read in a loop by all of them.  Not a COW mapping, so the
 * shared-COW skip does not apply; this measures what sharing alone does.
 */
#define _GNU_SOURCE
#include "lab.h"

static const char usage[] =
	"Scenario 2: a memfd on the slow node mapped MAP_SHARED by NPROC\n"
	"processes, read in a loop by all of them.\n"
	"  -p NPROC     processes (default 2)\n"
	"Defaults: -s 2 -m 2 -t 20 -M 64.\n";

static unsigned long nr_procs = 2;

static int parse_opt(int opt, const char *arg)
{
	if (opt == 'p')
		return lab_parse_ulong(arg, 1, LAB_MAX_PROCS, &nr_procs);
	return -1;
}

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_opts o;

	lab_opts_init(&o, "2", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "p:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	hot.len = o.size;
	hot.addr = lab_map_memfd_on_node("lab-s2-shmem", hot.len, o.node);
	return lab_run_hot_region(&o, "shmem", &hot, nr_procs);
}
