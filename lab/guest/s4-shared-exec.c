// SPDX-License-Identifier: GPL-2.0
/*
 * s4-shared-exec - scenario 4: a "shared library": a file whose page
 * cache is on the slow node, mapped PROT_READ|PROT_EXEC MAP_PRIVATE by
 * NPROC processes, each mapping it itself, and read in a loop.
 *
 * On 7.3.4 the VMA is skipped as read-only file (NUMAB_SKIP_SHARED_RO);
 * if it were scanned, the folios are shared by a COW mapping
 * (folio_can_map_prot_numa()), and shared exec file-LRU folios are refused
 * by migrate_misplaced_folio_prepare().  The last check only sees file-LRU
 * folios: tmpfs folios are swap-backed, so with the default -d /tmp it
 * exercises the first two filters; point -d at a disk filesystem to
 * exercise the third.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lab.h"

static const char usage[] =
	"Scenario 4: a file on the slow node mapped PROT_READ|PROT_EXEC\n"
	"MAP_PRIVATE by NPROC processes (each maps it), read in a loop.\n"
	"  -d DIR       directory of the file (default /tmp, a tmpfs)\n"
	"  -p NPROC     processes (default 2)\n"
	"Defaults: -s 4 -m 2 -t 20 -M 64.\n";

static const char *dir = "/tmp";
static unsigned long nr_procs = 2;

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

static void *map_library(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	if (p == MAP_FAILED) {
		lab_warn("mmap PROT_EXEC: %s", strerror(errno));
		return NULL;
	}
	lab_touch(p, len);	/* map it, as a loader would */
	return p;
}

/* A process of its own that maps the library and reads it until killed. */
static pid_t spawn_library_user(int fd, size_t len, double deadline)
{
	struct lab_region lib;
	pid_t pid = lab_fork();

	if (pid)
		return pid;
	lib.len = len;
	lib.addr = map_library(fd, len);
	if (!lib.addr)
		_exit(1);
	lab_touch_until(&lib, 1, deadline);
	_exit(0);
}

int main(int argc, char **argv)
{
	pid_t children[LAB_MAX_PROCS] = { 0 };
	struct lab_region hot;
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	char path[256];
	unsigned long i;
	int fd;

	lab_opts_init(&o, "4", 2, 20, 64);
	lab_parse_args(&o, argc, argv, usage, "d:p:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	snprintf(path, sizeof(path), "%s/lab-s4-lib.%d", dir, (int)getpid());
	hot.len = o.size;
	if (lab_create_file_on_node(path, hot.len, o.node)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	fd = open(path, O_RDONLY);
	unlink(path);	/* open descriptors and mappings keep it */
	if (fd < 0) {
		lab_error(o.scenario, "open");
		return 1;
	}

	/* Fork first: each process maps the library itself, once. */
	for (i = 1; i < nr_procs; i++) {
		children[i] = spawn_library_user(fd, hot.len,
						 lab_now() + o.secs + 60);
		if (children[i] < 0) {
			lab_error(o.scenario, "fork");
			return 1;
		}
	}
	hot.addr = map_library(fd, hot.len);
	close(fd);
	if (!hot.addr || lab_probe_init(&probe, &hot, 1, 1024)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, o.node))
		return 1;

	if (lab_run_begin(&run, &o, "shared-exec", &probe, children + 1,
			  nr_procs - 1))
		return 1;
	while (lab_run_tick(&run))
		lab_touch(hot.addr, hot.len);
	lab_run_end(&run);

	for (i = 1; i < nr_procs; i++)
		lab_stop_child(children[i]);
	return 0;
}
