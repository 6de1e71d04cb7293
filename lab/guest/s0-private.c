// SPDX-License-Identifier: GPL-2.0
/*
 * s0-private - scenario 0, the control: private anonymous memory of one
 * process, allocated on the slow node and read in a loop.  No filter of
 * NUMA balancing applies, so in tiering mode it must be promoted.
 */
#include "lab.h"

static const char usage[] =
	"Scenario 0: private anonymous memory of one process on the slow node,\n"
	"read in a loop.  Defaults: -s 0 -m 2 -t 20 -M 64.\n";

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_opts o;

	lab_opts_init(&o, "0", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, NULL, NULL);
	if (lab_opts_apply(&o))
		return 1;

	hot.len = o.size;
	hot.addr = lab_alloc_on_node(hot.len, o.node);
	return lab_run_hot_region(&o, "private", &hot, 1);
}
