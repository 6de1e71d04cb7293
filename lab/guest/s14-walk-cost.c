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
 * gaps) on the top tier that no thread reads, and one hot VMA (-M MiB)
 * that NTHREADS threads read in a loop.  The hot VMA is mapped first, so
 * it lies above the cold VMAs in the address space and every pass walks
 * them before it reaches the hot one.
 *
 * First a settle phase, everything on the top tier, in mode -R (default
 * 3: placement faults on the hot VMA make it PID-active, as a VMA in use
 * is) with a scan window of -Z MB, until -q scan sequences have passed:
 * the cold VMAs are past the first two sequences, which scan every VMA
 * unconditionally.  Then, with NUMA balancing off and the run's knobs,
 * the hot VMA moves to -N, and the measured run
 * starts in mode -m: top_pct and t90 are those of the hot VMA (how long
 * it waits to be promoted behind the cold VMAs), scan_passes counts the
 * scan sequences.  The scanner's CPU time is the process' system time
 * over the run, accounted by damon-run (lab.cpu=1): task_numa_work()
 * runs on the workload's threads.  -n 0 is the control: the same hot VMA
 * and threads without cold VMAs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

static const char usage[] =
	"Scenario 14: NCOLD small VMAs on the top tier that nobody reads and a\n"
	"hot VMA (-M MiB) read by NTHREADS threads, moved to -N after a settle\n"
	"phase on the top tier.\n"
	"  -n NCOLD     cold VMAs, 0 for none (default 8192)\n"
	"  -V KIB       size of each cold VMA (default 64)\n"
	"  -T NTHREADS  reader threads (default 8)\n"
	"  -R MODE      kernel.numa_balancing of the settle phase (default 3)\n"
	"  -Z MB        scan_size_mb of the settle phase (default 256)\n"
	"  -q SEQS      settle for this many scan sequences (default 3)\n"
	"  -P SECS      settle for at most this long (default 60)\n"
	"Defaults: -s 14 -m 2 -t 30 -M 16 -k scan_size_mb=16.\n";

static unsigned long nr_cold = 8192;
static unsigned long cold_kib = 64;
static unsigned long nr_threads = 8;
static unsigned long settle_mode = 3;
static unsigned long settle_seqs = 3;
static unsigned long settle_max_secs = 60;
static unsigned long settle_scan_mb = 256;

static struct lab_region hot;
static atomic_bool stop_readers;
static atomic_bool pause_readers;	/* while the hot VMA moves */

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'n':
		return lab_parse_ulong(arg, 0, 16384, &nr_cold);
	case 'V':
		return lab_parse_ulong(arg, 4, 2048, &cold_kib);
	case 'T':
		return lab_parse_ulong(arg, 1, 512, &nr_threads);
	case 'R':
		return lab_parse_ulong(arg, 0, 3, &settle_mode);
	case 'q':
		return lab_parse_ulong(arg, 0, 1000, &settle_seqs);
	case 'P':
		return lab_parse_ulong(arg, 0, 600, &settle_max_secs);
	case 'Z':
		return lab_parse_ulong(arg, 1, 4096, &settle_scan_mb);
	}
	return -1;
}

static void *reader(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&stop_readers, memory_order_relaxed)) {
		if (atomic_load_explicit(&pause_readers, memory_order_relaxed))
			usleep(10 * 1000);
		else
			lab_touch(hot.addr, hot.len);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	pthread_t *threads;
	unsigned long i;
	long left, seqs;
	double secs;
	int err;

	lab_opts_init(&o, "14", 2, 30, 16);
	lab_opts_add_knob(&o, "scan_size_mb=16");
	lab_parse_args(&o, argc, argv, usage, "n:V:T:R:q:P:Z:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	/* The hot VMA first: above the cold ones. */
	hot.len = o.size;
	hot.addr = lab_alloc_base_pages_on_node(hot.len, LAB_TOP_NODE);
	if (!hot.addr || (nr_cold &&
	    !lab_map_small_vmas(nr_cold, LAB_KIB(cold_kib), LAB_TOP_NODE)) ||
	    lab_probe_init(&probe, &hot, 1, 512)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, LAB_TOP_NODE))
		return 1;

	threads = calloc(nr_threads, sizeof(*threads));
	for (i = 0; threads && i < nr_threads; i++) {
		err = pthread_create(&threads[i], NULL, reader, NULL);
		if (err) {
			lab_warn("pthread_create: %s", strerror(err));
			lab_error(o.scenario, "threads");
			return 1;
		}
	}
	if (!threads) {
		lab_error(o.scenario, "threads");
		return 1;
	}

	/*
	 * A big scan window: in mode 3 the first two sequences make every
	 * cold PTE PROT_NONE, which takes a call per window.
	 */
	if (lab_set_knob("scan_size_mb", settle_scan_mb) ||
	    lab_enter_mode(o.scenario, settle_mode))
		return 1;
	secs = lab_wait_scan_seqs(settle_seqs, settle_max_secs, &seqs);
	/* Progress, not parsed. */
	printf("# s14: settled in %.1f s, %ld scan sequences\n", secs, seqs);
	fflush(stdout);
	/*
	 * The run's knobs again, and balancing off: nothing moves the hot
	 * VMA back before t=0.
	 */
	if (lab_opts_apply(&o))
		return 1;
	atomic_store(&pause_readers, true);
	left = lab_move_regions(&hot, 1, o.node);
	atomic_store(&pause_readers, false);
	if (left < 0 || left > (long)(hot.len / LAB_PAGE_SIZE / 20)) {
		lab_warn("%ld pages of the hot VMA not moved to node %d", left, o.node);
		lab_error(o.scenario, "demotion-failed");
		return 1;
	}

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
