// SPDX-License-Identifier: GPL-2.0
/*
 * s2-shmem - scenario 2: a memfd (shmem) mapped MAP_SHARED read-write by
 * NPROC processes (the children inherit the mapping), allocated on the
 * slow node and read in a loop by all of them.  Not a COW mapping, so the
 * shared-COW skip does not apply; this measures what sharing alone does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

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

/* A shared memfd mapping whose pages are allocated on @node. */
static void *map_memfd_on_node(size_t len, int node)
{
	void *p;
	int fd;

	fd = memfd_create("lab-s2-shmem", 0);
	if (fd < 0 || ftruncate(fd, len)) {
		lab_warn("memfd: %s", strerror(errno));
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		lab_warn("mmap memfd: %s", strerror(errno));
		return NULL;
	}
	/* shmem allocates under the task policy when the file has none. */
	if (lab_bind_to_node(node))
		return NULL;
	lab_fault_range(p, len);
	if (lab_unbind())
		return NULL;
	return p;
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
	hot.addr = map_memfd_on_node(hot.len, o.node);
	return lab_run_hot_region(&o, "shmem", &hot, nr_procs);
}
