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

#define MAX_PROCS	16

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
		return lab_parse_ulong(arg, 1, MAX_PROCS, &nr_procs);
	}
	return -1;
}

int main(int argc, char **argv)
{
	pid_t children[MAX_PROCS];
	struct lab_region hot;
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	char path[256];
	unsigned long i;

	lab_opts_init(&o, "3", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "d:p:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	snprintf(path, sizeof(path), "%s/lab-s3-ro-file.%d", dir, (int)getpid());
	hot.len = o.size;
	hot.addr = lab_map_file_on_node(path, hot.len, LAB_SLOW_NODE, PROT_READ,
					MAP_SHARED);
	if (!hot.addr || lab_probe_init(&probe, &hot, 1, 1024)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, LAB_SLOW_NODE))
		return 1;

	for (i = 1; i < nr_procs; i++) {
		children[i] = lab_spawn_toucher(&hot, 1, lab_now() + o.secs + 60);
		if (children[i] < 0) {
			lab_error(o.scenario, "fork");
			return 1;
		}
	}

	if (lab_run_begin(&run, &o, "ro-file", &probe))
		return 1;
	while (lab_run_tick(&run))
		lab_touch(hot.addr, hot.len);
	lab_run_end(&run);

	for (i = 1; i < nr_procs; i++)
		lab_stop_child(children[i]);
	return 0;
}
