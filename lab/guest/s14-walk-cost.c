// SPDX-License-Identifier: GPL-2.0
/*
 * s14-walk-cost - scenario 14, what walking PID-inactive VMAs costs.
 *
 * With the series, in tiering mode a VMA that is not due for placement is
 * scanned promotion-only instead of skipped.  Its top-tier folios are
 * never made PROT_NONE, so the extra PTE updates and faults are bounded
 * by slow-tier memory, but the page-table walk is not: it spends the
 * scanner's virtual window (scan_size_mb x 8 per call) and its CPU time.
 * The worst case is a process with many PID-inactive VMAs that hold no
 * promotable memory at all.
 *
 * One process: NCOLD small VMAs (-n of -V KiB, separated by unmapped
 * gaps) on the top tier that no thread reads, and NTHREADS threads.
 * First a settle phase in mode -R (default 2, where nothing on the top
 * tier faults) until -q scan sequences have passed: the cold VMAs are
 * past the first two sequences of a VMA, which scan it unconditionally,
 * and have no PID activity.  The threads meanwhile read a page of their
 * own: a thread that runs is what drives the scanner.
 *
 * Then, with NUMA balancing off, the hot VMA (-M MiB) is made on -N and
 * the threads read it: a new VMA, so no PID history and no numa_group
 * left from the settle phase decides its fate on either kernel, only how
 * far the scanner has to walk to reach it.  It is made where a PROT_NONE
 * reservation held its place since the start, above the cold VMAs, so
 * that every pass walks them before it.  The measured run, in mode -m:
 * top_pct and t90 are the hot VMA's (how long it waits to be promoted),
 * scan_passes counts the scan sequences, and the scanner's CPU time is
 * the process' system time over the run, accounted by damon-run
 * (lab.cpu=1): task_numa_work() runs on the workload's threads.  -n 0 is
 * the control: the same hot VMA and threads without cold VMAs.
 *
 * What the walk costs the rest of the system: under a kernel's notifier
 * variant with lab.notifier=1 (LAB_NOTIFIER=1 scripts/walk-cost.sh),
 * lab_run_begin() loads lab/notifier's module for this process, and the
 * run ends with the MMU-notifier invalidations and TLB flushes its mm
 * received ("@@ notify" lines): what KVM or a device sharing the address
 * space would have had to act on, change_protection()'s
 * MMU_NOTIFY_PROTECTION_VMA for every populated range walked among them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lab.h"

static const char usage[] =
	"Scenario 14: NCOLD small VMAs on the top tier that nobody reads, and a\n"
	"hot VMA (-M MiB) made on -N after a settle phase, above them, read by\n"
	"NTHREADS threads.\n"
	"  -n NCOLD     cold VMAs, 0 for none (default 8192)\n"
	"  -V KIB       size of each cold VMA (default 64)\n"
	"  -T NTHREADS  reader threads (default 8)\n"
	"  -R MODE      kernel.numa_balancing of the settle phase (default 2)\n"
	"  -q SEQS      settle for this many scan sequences (default 3)\n"
	"  -P SECS      settle for at most this long (default 60)\n"
	"Defaults: -s 14 -m 2 -t 30 -M 16 -k scan_size_mb=16.\n";

static unsigned long nr_cold = 8192;
static unsigned long cold_kib = 64;
static unsigned long nr_threads = 8;
static unsigned long settle_mode = 2;
static unsigned long settle_seqs = 3;
static unsigned long settle_max_secs = 60;

static struct lab_region hot;
static atomic_bool stop_readers;
static atomic_bool hot_made;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'n':
		return lab_parse_ulong(arg, 0, 16384, &nr_cold);
	case 'V':
		return lab_parse_ulong(arg, 4, 1048576, &cold_kib);
	case 'T':
		return lab_parse_ulong(arg, 1, 512, &nr_threads);
	case 'R':
		return lab_parse_ulong(arg, 0, 3, &settle_mode);
	case 'q':
		return lab_parse_ulong(arg, 0, 1000, &settle_seqs);
	case 'P':
		return lab_parse_ulong(arg, 0, 600, &settle_max_secs);
	}
	return -1;
}

static void *reader(void *arg)
{
	static __thread volatile unsigned long own[LAB_PAGE_SIZE / sizeof(long)];
	unsigned long i;

	(void)arg;
	while (!atomic_load_explicit(&stop_readers, memory_order_relaxed)) {
		if (atomic_load_explicit(&hot_made, memory_order_acquire))
			lab_touch(hot.addr, hot.len);
		else
			for (i = 0; i < LAB_PAGE_SIZE / sizeof(long); i++)
				own[i]++;
	}
	return NULL;
}

/*
 * Make the hot VMA in its reservation with its pages on @node: a new
 * anonymous mapping MAP_FIXED over the PROT_NONE one, in base pages.
 */
static int make_hot(int node)
{
	if (mmap(hot.addr, hot.len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    madvise(hot.addr, hot.len, MADV_NOHUGEPAGE)) {
		lab_warn("map hot VMA: %s", strerror(errno));
		return -1;
	}
	if (lab_bind_to_node(node))
		return -1;
	lab_fault_range(hot.addr, hot.len);
	if (lab_unbind())
		return -1;
	atomic_store_explicit(&hot_made, true, memory_order_release);
	return 0;
}

int main(int argc, char **argv)
{
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	pthread_t *threads;
	unsigned long i;
	long seqs;
	double secs;
	int err;

	lab_opts_init(&o, "14", 2, 30, 16);
	lab_opts_add_knob(&o, "scan_size_mb=16");
	lab_parse_args(&o, argc, argv, usage, "n:V:T:R:q:P:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	/* The hot VMA's place first: above the cold VMAs. */
	hot.len = o.size;
	hot.addr = mmap(NULL, hot.len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	threads = calloc(nr_threads, sizeof(*threads));
	if (hot.addr == MAP_FAILED || !threads || (nr_cold &&
	    !lab_map_small_vmas(nr_cold, LAB_KIB(cold_kib), LAB_TOP_NODE))) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	for (i = 0; i < nr_threads; i++) {
		err = pthread_create(&threads[i], NULL, reader, NULL);
		if (err) {
			lab_warn("pthread_create: %s", strerror(err));
			lab_error(o.scenario, "threads");
			return 1;
		}
	}

	if (lab_enter_mode(o.scenario, settle_mode))
		return 1;
	secs = lab_wait_scan_seqs(settle_seqs, settle_max_secs, &seqs);
	/* Progress, not parsed. */
	printf("# s14: settled in %.1f s, %ld scan sequences\n", secs, seqs);
	fflush(stdout);
	/* Balancing off: nothing moves the hot VMA before t=0. */
	if (lab_enter_mode(o.scenario, 0))
		return 1;
	if (make_hot(o.node) || lab_probe_init(&probe, &hot, 1, 512)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, o.node))
		return 1;

	if (lab_run_begin(&run, &o, "walk-cost", &probe, NULL, 0))
		return 1;
	while (lab_run_tick(&run))
		usleep(100 * 1000);
	lab_run_end(&run);

	atomic_store(&stop_readers, true);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
