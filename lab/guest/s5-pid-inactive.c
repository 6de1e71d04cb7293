// SPDX-License-Identifier: GPL-2.0
/*
 * s5-pid-inactive - scenario 5, the production shape of the PID filter.
 *
 * A multi-threaded process with many small hot VMAs (NVMAS x VMA_KIB,
 * separated by unmapped gaps so that they never merge) and a "budget
 * eater", a large region bound to the slow node with
 * MPOL_BIND | MPOL_F_NUMA_BALANCING: its pages take a hinting fault on
 * every pass and never move, so every pass spends its PTE budget there and
 * passes are long, and it never competes for top-tier room.  Every thread
 * reads all of it in a loop.
 *
 * The hot VMAs live on the top tier for a few scan sequences first.  In
 * tiering mode top-tier pages are never made PROT_NONE, so no thread
 * takes a fault there and the VMAs lose their PID activity bits.  Then
 * they are demoted with move_pages(2) and the measurement starts: on
 * 7.3.4 vma_is_accessed() keeps skipping them (NUMAB_SKIP_PID_INACTIVE)
 * until the forced-scan fallback or the get_nr_threads() horizon reaches
 * them.
 *
 * With -A the hot VMAs are not demoted: their pages are dropped and
 * faulted in again on the slow node, the way a VMA gets new memory on a
 * lower tier without any folio migrating into it.  With -e, and with -A,
 * the eater is populated from the start, so that the slow node has memory
 * mapped and promotion-only scans run in the top-tier phase too.
 *
 * The eater is mapped first, so the hot VMAs lie below it in the address
 * space, in front of it in each pass.  Without -e it is populated only
 * after the top-tier phase: empty, it costs a pass little, so that phase
 * reaches its scan sequences in seconds rather than minutes under TCG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>

#include "lab.h"

/*
 * The limits of -n, -T and -V: scripts/scale.sh reads them with -L, so that
 * its grid is checked against these and not against a copy.
 */
#define MAX_VMAS	16384
#define MAX_THREADS	512
#define MIN_VMA_KIB	4
#define MAX_VMA_KIB	4096

#define STR(x)		#x
#define XSTR(x)		STR(x)

static const char usage[] =
	"Scenario 5: NVMAS small hot VMAs and a budget eater read by NTHREADS\n"
	"threads; the VMAs live on the top tier first, then are demoted.\n"
	"  -n NVMAS     hot VMAs, at most " XSTR(MAX_VMAS) " (default 4096)\n"
	"  -V KIB       size of each hot VMA, " XSTR(MIN_VMA_KIB) "-" XSTR(MAX_VMA_KIB) " (default 64)\n"
	"  -T NTHREADS  reader threads, at most " XSTR(MAX_THREADS) " (default 16)\n"
	"  -E MIB       budget eater on the slow node, 0 for none (default 512)\n"
	"  -P SECS      longest top-tier phase (default 30)\n"
	"  -q SEQS      leave the top tier after this many scan sequences\n"
	"               (mm->numa_scan_seq; default 3)\n"
	"  -R MODE      kernel.numa_balancing of the top-tier phase (default:\n"
	"               -m); 2 gives the VMAs no fault there, in any mode\n"
	"  -A           instead of demoting the VMAs, drop their pages and\n"
	"               fault them in again on -N (no migration); implies -e\n"
	"  -e           populate the eater from the start\n"
	"  -C           cold: once demoted, the VMAs are read no more (the\n"
	"               threads keep running, reading the eater if any)\n"
	"  -L           print the limits of -n, -T and -V and exit:\n"
	"               max_vmas=N max_threads=N min_vma_kib=N max_vma_kib=N\n"
	"The hot VMAs start the top-tier phase on node " XSTR(LAB_TOP_NODE) "\n"
	"and the measured run on -N.\n"
	"Defaults: -s 5 -m 2 -t 60 -k scan_size_mb=16; -M is not used.\n";

static unsigned long nr_vmas = 4096;
static unsigned long vma_kib = 64;
static unsigned long nr_threads = 16;
static unsigned long eater_mib = 512;
static unsigned long top_max_secs = 30;
static unsigned long top_seqs = 3;
static int top_mode = -1;	/* -R, or -1: -m */
static bool cold;		/* -C */
static bool realloc_hot;	/* -A */
static bool eater_early;	/* -e, -A */

static struct lab_region *hot;
static struct lab_region eater;
static atomic_bool stop_readers;
static atomic_bool pause_readers;	/* while the hot VMAs are demoted */
static atomic_bool eater_ready;		/* populated, read it too */
static atomic_bool hot_done;		/* -C: demoted, read them no more */

/* A "# s5 ..." progress line with the time since start: prose, not parsed. */
static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	static double t0;
	va_list ap;

	if (!t0)
		t0 = lab_now();
	printf("# s5 %6.1f s: ", lab_now() - t0);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int parse_opt(int opt, const char *arg)
{
	unsigned long val;

	switch (opt) {
	case 'n':
		return lab_parse_ulong(arg, 1, MAX_VMAS, &nr_vmas);
	case 'V':
		return lab_parse_ulong(arg, MIN_VMA_KIB, MAX_VMA_KIB, &vma_kib);
	case 'T':
		return lab_parse_ulong(arg, 1, MAX_THREADS, &nr_threads);
	case 'E':
		return lab_parse_ulong(arg, 0, 900, &eater_mib);
	case 'P':
		return lab_parse_ulong(arg, 0, 600, &top_max_secs);
	case 'q':
		return lab_parse_ulong(arg, 0, 1000, &top_seqs);
	case 'R':
		if (lab_parse_ulong(arg, 0, 3, &val))
			return -1;
		top_mode = val;
		return 0;
	case 'A':
		realloc_hot = true;
		eater_early = true;
		return 0;
	case 'e':
		eater_early = true;
		return 0;
	case 'C':
		cold = true;
		return 0;
	case 'L':
		/* Before any set-up: it runs on the host too. */
		printf("max_vmas=%d max_threads=%d min_vma_kib=%d max_vma_kib=%d\n",
		       MAX_VMAS, MAX_THREADS, MIN_VMA_KIB, MAX_VMA_KIB);
		exit(0);
	}
	return -1;
}

/*
 * The budget eater: a VMA policy of its own, MPOL_BIND to the slow node
 * with MPOL_F_NUMA_BALANCING (which implies MPOL_F_MOF, so the VMA stays
 * scannable, and MPOL_F_MORON, so a fault from node 0 never moves it).
 * Mapped empty; populate_budget_eater() faults it in.
 */
static int map_budget_eater(size_t len, int node)
{
	unsigned long mask = 1UL << node;

	eater.len = len;
	eater.addr = lab_map_anon(len);
	if (!eater.addr) {
		lab_warn("map eater: %s", strerror(errno));
		return -1;
	}
	if (lab_mbind(eater.addr, len, MPOL_BIND | MPOL_F_NUMA_BALANCING,
		      &mask, 8 * sizeof(mask), 0)) {
		lab_warn("mbind eater: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void populate_budget_eater(void)
{
	lab_fault_range(eater.addr, eater.len);
	atomic_store(&eater_ready, true);
}

static void *reader(void *arg)
{
	unsigned long i;

	(void)arg;
	while (!atomic_load_explicit(&stop_readers, memory_order_relaxed)) {
		if (atomic_load_explicit(&pause_readers, memory_order_relaxed)) {
			usleep(10 * 1000);
			continue;
		}
		for (i = 0; i < nr_vmas &&
		     !atomic_load_explicit(&hot_done, memory_order_relaxed); i++)
			lab_touch(hot[i].addr, hot[i].len);
		if (atomic_load_explicit(&eater_ready, memory_order_relaxed))
			lab_touch(eater.addr, eater.len);
	}
	return NULL;
}

/*
 * -A: drop the hot VMAs' pages and fault them in again on @node under a
 * task policy, so that the VMAs and their policies stay as they are.
 */
static int realloc_regions(int node)
{
	unsigned long mask = 1UL << node;
	unsigned long i;

	for (i = 0; i < nr_vmas; i++)
		if (madvise(hot[i].addr, hot[i].len, MADV_DONTNEED)) {
			lab_warn("madvise(MADV_DONTNEED): %s", strerror(errno));
			return -1;
		}
	if (lab_set_mempolicy(MPOL_BIND, &mask, 8 * sizeof(mask))) {
		lab_warn("set_mempolicy: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < nr_vmas; i++)
		lab_fault_range(hot[i].addr, hot[i].len);
	if (lab_set_mempolicy(MPOL_DEFAULT, NULL, 0)) {
		lab_warn("set_mempolicy: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Populate the eater and move every hot VMA to @node (-A: fault it in
 * again there); returns the number of pages left behind.  The readers
 * pause meanwhile: migrating pages that 16 threads keep faulting on takes
 * minutes under TCG instead of seconds.
 */
static long populate_and_demote(int node)
{
	long left;

	atomic_store(&pause_readers, true);
	sleep(1);	/* let the readers finish their pass */
	if (eater.len && !atomic_load(&eater_ready))
		populate_budget_eater();
	if (realloc_hot && realloc_regions(node))
		left = -1;
	else
		left = lab_move_regions(hot, nr_vmas, node);
	if (cold)
		atomic_store(&hot_done, true);
	atomic_store(&pause_readers, false);
	return left;
}

int main(int argc, char **argv)
{
	unsigned long nr_pages, i;
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	pthread_t *threads;
	double next_seq_report, secs;
	long left, seqs;
	int err;

	lab_opts_init(&o, "5", 2, 60, 0);
	lab_opts_add_knob(&o, "scan_size_mb=16");
	lab_parse_args(&o, argc, argv, usage, "n:V:T:E:P:q:R:AeCL", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	note("%lu VMAs x %lu KiB, %lu threads, eater %lu MiB", nr_vmas, vma_kib,
	     nr_threads, eater_mib);
	if (eater_mib && map_budget_eater(LAB_MIB(eater_mib), LAB_SLOW_NODE)) {
		lab_error(o.scenario, "alloc-eater");
		return 1;
	}
	hot = lab_map_small_vmas(nr_vmas, LAB_KIB(vma_kib), LAB_TOP_NODE);
	/* Each sampled page stands for a VMA: one page of every k-th VMA. */
	nr_pages = nr_vmas * (LAB_KIB(vma_kib) / LAB_PAGE_SIZE);
	if (!hot || lab_probe_init(&probe, hot, nr_vmas,
				   nr_pages < 512 ? nr_pages : 512)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, LAB_TOP_NODE))
		return 1;
	if (eater_early && eater.len)
		populate_budget_eater();
	note("allocated");

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

	if (lab_enter_mode(o.scenario, top_mode < 0 ? o.mode : top_mode))
		return 1;
	secs = lab_wait_scan_seqs(top_seqs, top_max_secs, &seqs);
	note("top-tier phase: %.1f s, %ld scan sequences", secs, seqs);

	/* Demote with balancing off: nothing may move back before t=0. */
	if (lab_enter_mode(o.scenario, 0))
		return 1;
	left = populate_and_demote(o.node);
	note("eater populated, hot VMAs %s node %d, %ld pages left behind",
	     realloc_hot ? "faulted in again on" : "moved to", o.node, left);
	if (left < 0 || left > (long)nr_pages / 20) {
		lab_warn("%ld of %lu pages not demoted", left, nr_pages);
		lab_error(o.scenario, "demotion-failed");
		return 1;
	}

	if (lab_run_begin(&run, &o, "pid-inactive", &probe, NULL, 0))
		return 1;
	next_seq_report = run.t0;
	while (lab_run_tick(&run)) {
		/* A diagnostic, not a result: how fast the passes go. */
		if (lab_now() >= next_seq_report) {
			note("t=%.1f scan_seq=%ld", lab_now() - run.t0,
			     lab_numa_scan_seq(getpid()));
			next_seq_report += 10;
		}
		usleep(100 * 1000);
	}
	lab_run_end(&run);

	atomic_store(&stop_readers, true);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	note("done");
	return 0;
}
