// SPDX-License-Identifier: GPL-2.0
/*
 * s7-toptier - scenario 7, the top-tier invariant: in tiering-only mode
 * (numa_balancing=2) memory on the top tier has nowhere to be promoted
 * to, so it must never be made PROT_NONE and take hinting faults.
 *
 * Everything lives on the top tier: a tmpfs file mapped read-only
 * MAP_SHARED (skipped as NUMAB_SKIP_SHARED_RO on 7.3.4, scanned for
 * promotion by the series) and NVMAS small anonymous VMAs read by NTHREADS
 * threads, which become PID-inactive after two scan sequences because no
 * thread faults on them.  numa_hint_faults should stay ~0 on any kernel.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lab.h"

static const char usage[] =
	"Scenario 7: a read-only file mapping (-M MiB) and NVMAS small anon\n"
	"VMAs, all on the top tier, read by NTHREADS threads.\n"
	"  -d DIR       directory of the file (default /tmp, a tmpfs)\n"
	"  -n NVMAS     small VMAs (default 256)\n"
	"  -V KIB       size of each small VMA (default 64)\n"
	"  -T NTHREADS  reader threads besides the main thread (default 4)\n"
	"Defaults: -s 7 -m 2 -t 15 -M 32.\n";

static const char *dir = "/tmp";
static unsigned long nr_vmas = 256;
static unsigned long vma_kib = 64;
static unsigned long nr_threads = 4;

/* regions[0] is the file, the small VMAs follow. */
static struct lab_region *regions;
static atomic_bool stop_readers;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'd':
		dir = arg;
		return 0;
	case 'n':
		return lab_parse_ulong(arg, 1, 16384, &nr_vmas);
	case 'V':
		return lab_parse_ulong(arg, 4, 2048, &vma_kib);
	case 'T':
		return lab_parse_ulong(arg, 0, 256, &nr_threads);
	}
	return -1;
}

static void *reader(void *arg)
{
	unsigned long i;

	(void)arg;
	while (!atomic_load_explicit(&stop_readers, memory_order_relaxed))
		for (i = 0; i <= nr_vmas; i++)
			lab_touch(regions[i].addr, regions[i].len);
	return NULL;
}

int main(int argc, char **argv)
{
	struct lab_region *small;
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	pthread_t *threads;
	char path[256];
	unsigned long i;
	int err;

	lab_opts_init(&o, "7", 2, 15, 32);
	lab_parse_args(&o, argc, argv, usage, "d:n:V:T:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	regions = calloc(nr_vmas + 1, sizeof(*regions));
	threads = calloc(nr_threads + 1, sizeof(*threads));
	snprintf(path, sizeof(path), "%s/lab-s7-ro-file.%d", dir, (int)getpid());
	regions[0].len = o.size;
	regions[0].addr = lab_map_file_on_node(path, o.size, LAB_TOP_NODE,
					       PROT_READ, MAP_SHARED);
	small = lab_map_small_vmas(nr_vmas, LAB_KIB(vma_kib), LAB_TOP_NODE);
	if (!regions || !threads || !regions[0].addr || !small) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	memcpy(regions + 1, small, nr_vmas * sizeof(*small));
	free(small);
	if (lab_probe_init(&probe, regions, nr_vmas + 1, 1024)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, LAB_TOP_NODE))
		return 1;

	for (i = 0; i < nr_threads; i++) {
		err = pthread_create(&threads[i], NULL, reader, NULL);
		if (err) {
			lab_warn("pthread_create: %s", strerror(err));
			lab_error(o.scenario, "threads");
			return 1;
		}
	}

	if (lab_run_begin(&run, &o, "toptier", &probe, NULL, 0))
		return 1;
	while (lab_run_tick(&run))
		for (i = 0; i <= nr_vmas; i++)
			lab_touch(regions[i].addr, regions[i].len);
	lab_run_end(&run);

	atomic_store(&stop_readers, true);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
