// SPDX-License-Identifier: GPL-2.0
/*
 * s9-mode-switch - scenario 9: a scan that started in tiering mode and is
 * resumed after a switch to numa_balancing=1 is a placement scan.
 *
 * One large VMA of base pages lives on the top tier, read by the main
 * thread; NTHREADS more threads only sleep, so that the process is
 * multi-threaded (its private memory is not skipped as single-threaded)
 * and the get_nr_threads() horizon is far away.  With a 1 MiB scan window
 * the VMA takes many task_numa_work() calls per pass.
 *
 * In mode 2 no thread faults on top-tier memory, so after two scan
 * sequences the VMA is PID-inactive: the series scans it promotion-only,
 * 7.3.4 skips it and force-scans it.  Some way into a pass, with the scan
 * stopped in the middle of the VMA, the mode becomes 1 and the measured run
 * starts.  Resumed as a placement scan, the rest of the VMA is made
 * PROT_NONE at once (pte_updates in the first third of a pass); resumed
 * promotion-only, as v5 of the series did, nothing is until the pass ends.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

static const char usage[] =
	"Scenario 9: a VMA (-M MiB) on the top tier scanned in mode 2 until\n"
	"a pass is under way, then measured in mode 1 (-m) for a third of a\n"
	"pass (-t is the longest that may be).\n"
	"  -T NTHREADS  sleeping threads besides the main thread (default 16)\n"
	"  -q SEQS      scan sequences in mode 2 before the switch (default 3)\n"
	"  -P SECS      longest time in mode 2 (default 120)\n"
	"Defaults: -s 9 -m 1 -t 60 -M 256, knobs scan_size_mb=1\n"
	"scan_period_min_ms=60000 scan_period_max_ms=60000.\n";

static unsigned long nr_threads = 16;
static unsigned long nr_seqs = 3;
static unsigned long max_phase_secs = 120;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'T':
		return lab_parse_ulong(arg, 1, 256, &nr_threads);
	case 'q':
		return lab_parse_ulong(arg, 3, 100, &nr_seqs);
	case 'P':
		return lab_parse_ulong(arg, 1, 3600, &max_phase_secs);
	}
	return -1;
}

static int sleeper_pipe[2];

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	/* Returns when the main thread closes the write end. */
	while (read(sleeper_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

/*
 * Read @hot until the scan sequence of this mm has advanced @seqs times;
 * returns the time the last advance was seen and the time the pass before
 * it took in @pass, or -1 when @max_secs pass first.
 */
static double wait_seqs(const struct lab_region *hot, unsigned long seqs,
			double max_secs, double *pass)
{
	long seq0 = lab_numa_scan_seq(getpid()), seq = seq0, now_seq;
	double t0 = lab_now(), last = -1, prev = -1;

	if (seq0 < 0)
		return -1;
	while (seq - seq0 < (long)seqs) {
		if (lab_now() - t0 > max_secs)
			return -1;
		lab_touch(hot->addr, hot->len);
		now_seq = lab_numa_scan_seq(getpid());
		if (now_seq != seq) {
			seq = now_seq;
			prev = last;
			last = lab_now();
		}
	}
	*pass = prev < 0 ? last - t0 : last - prev;
	return last;
}

int main(int argc, char **argv)
{
	struct lab_region hot;
	struct lab_probe probe;
	pthread_attr_t attr;
	pthread_t *threads;
	struct lab_opts o;
	struct lab_run run;
	double seen, pass;
	unsigned long i;
	int err;

	lab_opts_init(&o, "9", 1, 60, 256);
	/* A small window, so that one pass takes many calls, and a fixed period. */
	if (lab_opts_add_knob(&o, "scan_size_mb=1") ||
	    lab_opts_add_knob(&o, "scan_period_min_ms=60000") ||
	    lab_opts_add_knob(&o, "scan_period_max_ms=60000"))
		return 1;
	lab_parse_args(&o, argc, argv, usage, "T:q:P:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	/*
	 * Threads first: their stacks are mapped above the VMA that follows,
	 * so a pass reaches the VMA right after the program's own few pages.
	 */
	threads = calloc(nr_threads, sizeof(*threads));
	if (!threads || pipe(sleeper_pipe) || pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, LAB_KIB(64))) {
		lab_error(o.scenario, "threads");
		return 1;
	}
	for (i = 0; i < nr_threads; i++) {
		err = pthread_create(&threads[i], &attr, sleeper, NULL);
		if (err) {
			lab_warn("pthread_create: %s", strerror(err));
			lab_error(o.scenario, "threads");
			return 1;
		}
	}

	hot.len = o.size;
	hot.addr = lab_alloc_base_pages_on_node(hot.len, LAB_TOP_NODE);
	if (!hot.addr || lab_probe_init(&probe, &hot, 1, 1024)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o.scenario, &probe, LAB_TOP_NODE))
		return 1;

	/*
	 * Mode 2 until the VMA is PID-inactive (sequence 2 on) and a pass of
	 * it has just begun; then an eighth of a pass more, so that the scan
	 * stopped a few windows into the VMA.
	 */
	if (lab_enter_mode(o.scenario, 2))
		return 1;
	seen = wait_seqs(&hot, nr_seqs, max_phase_secs, &pass);
	if (seen < 0) {
		lab_error(o.scenario, "no-scan-passes");
		return 1;
	}
	while (lab_now() < seen + pass / 8)
		lab_touch(hot.addr, hot.len);
	printf("# a pass took %.1f s; switching %.1f s into one\n", pass,
	       lab_now() - seen);

	/* Measured in mode 1 for a third of a pass, well before it ends. */
	if (pass / 3 < o.secs)
		o.secs = pass / 3;
	if (lab_run_begin(&run, &o, "mode-switch", &probe, NULL, 0))
		return 1;
	while (lab_run_tick(&run))
		lab_touch(hot.addr, hot.len);
	lab_run_end(&run);

	close(sleeper_pipe[1]);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
