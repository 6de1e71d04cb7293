// SPDX-License-Identifier: GPL-2.0
/*
 * s1-fork-cow - scenario 1: private anonymous memory shared copy-on-write
 * after fork().  The parent allocates it on the slow node and forks; all
 * processes only read it (a write would break the sharing).  On 7.3.4
 * folio_can_map_prot_numa() skips shared COW folios, so it is never
 * promoted.
 */
#include <stddef.h>

#include "lab.h"


static const char usage[] =
	"Scenario 1: anonymous memory on the slow node shared copy-on-write by\n"
	"NPROC processes after fork(), read in a loop by all of them.\n"
	"  -p NPROC     processes (default 2)\n"
	"Defaults: -s 1 -m 2 -t 20 -M 64.\n";

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

	lab_opts_init(&o, "1", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "p:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	hot.len = o.size;
	hot.addr = lab_alloc_on_node(hot.len, LAB_SLOW_NODE);
	return lab_run_hot_region(&o, "fork-cow", &hot, nr_procs);
}
