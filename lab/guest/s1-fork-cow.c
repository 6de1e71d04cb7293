// SPDX-License-Identifier: GPL-2.0
/*
 * s1-fork-cow - scenario 1: private anonymous memory shared copy-on-write
 * after fork().  The parent allocates it on the slow node and forks; all
 * processes only read it (a write would break the sharing).  On 7.3.4
 * folio_can_map_prot_numa() skips shared COW folios, so it is never
 * promoted.
 *
 * The region is in base pages (-H: transparent huge pages): Linux 6.12
 * skips shared COW folios in change_pte_range() only, its
 * change_huge_pmd() makes a shared PMD-mapped THP PROT_NONE like any
 * other, so with THPs the 6.12 base promotes what 7.3.4 keeps stuck.
 * PTE-mapped, the region exercises the skip on both.
 */
#include <stddef.h>

#include "lab.h"


static const char usage[] =
	"Scenario 1: anonymous memory on the slow node shared copy-on-write by\n"
	"NPROC processes after fork(), read in a loop by all of them.\n"
	"  -p NPROC     processes (default 2)\n"
	"  -H           transparent huge pages (default: base pages only)\n"
	"Defaults: -s 1 -m 2 -t 20 -M 64.\n";

static unsigned long nr_procs = 2;
static int use_thp;

static int parse_opt(int opt, const char *arg)
{
	if (opt == 'p')
		return lab_parse_ulong(arg, 1, LAB_MAX_PROCS, &nr_procs);
	if (opt == 'H') {
		use_thp = 1;
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_opts o;

	lab_opts_init(&o, "1", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "p:H", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	hot.len = o.size;
	hot.addr = use_thp ? lab_alloc_on_node(hot.len, o.node) :
			     lab_alloc_base_pages_on_node(hot.len, o.node);
	return lab_run_hot_region(&o, "fork-cow", &hot, nr_procs);
}
