// SPDX-License-Identifier: GPL-2.0
/*
 * s15-production - scenario 15, the production shape of the series' cover
 * letter, scaled down: one process whose hot memory is
 *
 *   db      a big memfd (shmem) mapping, MAP_SHARED, that holds the scan
 *           cursor for most of a pass: its pages on the slow tier are
 *           made PROT_NONE, and each call's PTE budget is spent there
 *           (a 300 GB shmem database);
 *   vmas    many small anonymous VMAs that lived on the top tier first
 *           and are PID-inactive when they are demoted (84 GB in about
 *           2,500 VMAs);
 *   hash    an anonymous region shared with a forked child by COW, read
 *           by both (a 20 GB hash table);
 *   binary  the text of a binary on a disk filesystem, run by two
 *           processes (a 185 MB binary shared by two instances);
 *
 * all hot, all on the slow tier at t=0.  Each is a part of the run
 * ("@@ part", "@@ partend"): its own time to 90 % on the top tier.  The
 * run's own share is that of db, vmas and hash together.
 *
 * The small VMAs are made first and spend a phase on the top tier (as in
 * scenario 5: in mode 2 no top-tier page faults, so they lose their PID
 * activity); then, with NUMA balancing off, they are demoted, and hash
 * (forked after MADV_DONTFORK on the small VMAs, which stay private to
 * this process) and db are made on the slow node.  Made last, db lies
 * below the others in the address space, and every pass starts with it.
 * New VMAs are scanned unconditionally for their first two sequences and
 * then by their own PID activity, which their faults keep up, so no
 * filter holds db itself; what keeps the other parts on the slow tier is
 * one.  On the base db still waits for the cursor, which the PID
 * filter's fallback moves one VMA a call through the PID-inactive ones.
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
	"Scenario 15: a big shmem mapping (db), many small PID-inactive VMAs\n"
	"(vmas), a region shared by COW with a forked child (hash) and a\n"
	"binary run by two processes (binary), all hot, on the slow node at\n"
	"t=0; NTHREADS threads read db, vmas and hash, the child hash.\n"
	"  -D MIB       db (default 384)\n"
	"  -n NVMAS     small VMAs (default 2500)\n"
	"  -V KIB       size of each small VMA (default 44)\n"
	"  -H MIB       hash (default 24)\n"
	"  -x FILE      the binary (big-text; default: none, no binary part)\n"
	"  -T NTHREADS  reader threads (default 16)\n"
	"  -R MODE      kernel.numa_balancing of the small VMAs' top-tier\n"
	"               phase (default 2: no fault there); none with -m 0\n"
	"  -q SEQS      end that phase after this many scan sequences\n"
	"               (default 3), or after\n"
	"  -P SECS      at most this long (default 30)\n"
	"Defaults: -s 15 -m 2 -t 60 -k scan_size_mb=16; -M is not used.\n";

#define NR_TEXT_USERS	2

/* The parts, in the order of their probes in main(). */
static const char *const part_names[] = { "db", "vmas", "hash", "binary" };

static unsigned long db_mib = 384;
static unsigned long nr_vmas = 2500;
static unsigned long vma_kib = 44;
static unsigned long hash_mib = 24;
static const char *binary;
static unsigned long nr_threads = 16;
static unsigned long top_mode = 2;
static unsigned long top_seqs = 3;
static unsigned long top_max_secs = 30;

static struct lab_region *vmas, db, hash;
static atomic_bool stop_readers;
static atomic_bool pause_readers;	/* while memory moves */
static atomic_bool all_made;		/* db and hash exist: read them too */

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'D':
		return lab_parse_ulong(arg, 1, 768, &db_mib);
	case 'n':
		return lab_parse_ulong(arg, 1, 16384, &nr_vmas);
	case 'V':
		return lab_parse_ulong(arg, 4, 4096, &vma_kib);
	case 'H':
		return lab_parse_ulong(arg, 1, 256, &hash_mib);
	case 'x':
		binary = arg;
		return 0;
	case 'T':
		return lab_parse_ulong(arg, 1, 512, &nr_threads);
	case 'R':
		return lab_parse_ulong(arg, 0, 3, &top_mode);
	case 'q':
		return lab_parse_ulong(arg, 0, 1000, &top_seqs);
	case 'P':
		return lab_parse_ulong(arg, 0, 600, &top_max_secs);
	}
	return -1;
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
		for (i = 0; i < nr_vmas; i++)
			lab_touch(vmas[i].addr, vmas[i].len);
		if (atomic_load_explicit(&all_made, memory_order_acquire)) {
			lab_touch(db.addr, db.len);
			lab_touch(hash.addr, hash.len);
		}
	}
	return NULL;
}

/*
 * Demote the small VMAs to @node and make hash (and its child, which
 * reads it) and db there.  The readers pause, until main() has started
 * the binary too.  Returns the child's pid, or -1.
 */
static pid_t demote_and_make(int node, double deadline)
{
	unsigned long i;
	long left;
	pid_t child;

	atomic_store(&pause_readers, true);
	sleep(1);	/* let the readers finish their pass */
	left = lab_move_regions(vmas, nr_vmas, node);
	if (left < 0 || left > (long)(nr_vmas * vma_kib / 4 / 20)) {
		lab_warn("%ld pages of the small VMAs not moved to node %d",
			 left, node);
		return -1;
	}
	for (i = 0; i < nr_vmas; i++)
		if (madvise(vmas[i].addr, vmas[i].len, MADV_DONTFORK)) {
			lab_warn("MADV_DONTFORK: %s", strerror(errno));
			return -1;
		}
	hash.len = LAB_MIB(hash_mib);
	hash.addr = lab_alloc_on_node(hash.len, node);
	if (!hash.addr)
		return -1;
	child = lab_spawn_toucher(&hash, 1, deadline);
	if (child < 0)
		return -1;
	db.len = LAB_MIB(db_mib);
	db.addr = lab_map_memfd_on_node("lab-s15-db", db.len, node);
	if (!db.addr)
		return -1;
	atomic_store_explicit(&all_made, true, memory_order_release);
	return child;
}

int main(int argc, char **argv)
{
	pid_t child = -1, text[NR_TEXT_USERS] = { 0 };
	struct lab_probe whole, probes[4];
	struct lab_part parts[4];
	struct lab_region *all;
	unsigned long range[2], i;
	unsigned int nr_parts = 0;
	long seqs;
	double secs;
	struct lab_opts o;
	struct lab_run run;
	pthread_t *threads;
	int err, status = 1;

	lab_opts_init(&o, "15", 2, 60, 0);
	lab_opts_add_knob(&o, "scan_size_mb=16");
	lab_parse_args(&o, argc, argv, usage, "D:n:V:H:x:T:R:q:P:", parse_opt);
	if (lab_opts_apply(&o))
		return 1;

	vmas = lab_map_small_vmas(nr_vmas, LAB_KIB(vma_kib), LAB_TOP_NODE);
	threads = calloc(nr_threads, sizeof(*threads));
	if (!vmas || !threads) {
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
	/* Without NUMA balancing (DAMON's runs) PID activity means nothing. */
	if (o.mode) {
		if (lab_enter_mode(o.scenario, top_mode))
			return 1;
		secs = lab_wait_scan_seqs(top_seqs, top_max_secs, &seqs);
		/* Progress, not parsed. */
		printf("# s15: top-tier phase %.1f s, %ld scan sequences\n",
		       secs, seqs);
		fflush(stdout);
	}
	/* Balancing off: nothing may move before t=0. */
	if (lab_enter_mode(o.scenario, 0))
		return 1;
	child = demote_and_make(o.node, lab_now() + o.secs + 120);
	if (child < 0) {
		lab_error(o.scenario, "demotion-failed");
		goto out;
	}
	for (i = 0; binary && i < NR_TEXT_USERS; i++) {
		if (!i && lab_cache_file_on_node(binary, o.node)) {
			lab_error(o.scenario, "alloc");
			goto out;
		}
		/* Stopped at the end: the time is a backstop. */
		text[i] = lab_spawn_text_user(binary, NULL, o.secs + 600, range);
		if (text[i] < 0 || !range[1]) {
			lab_error(o.scenario, "start");
			goto out;
		}
		if (!i) {
			struct lab_region r = { (void *)range[0], range[1] };

			if (lab_probe_init(&probes[3], &r, 1, 512))
				goto alloc;
			probes[3].pid = text[0];
		}
	}
	atomic_store(&pause_readers, false);

	/* The whole: db, hash, then the small VMAs. */
	all = calloc(nr_vmas + 2, sizeof(*all));
	if (!all)
		goto alloc;
	all[0] = db;
	all[1] = hash;
	memcpy(all + 2, vmas, nr_vmas * sizeof(*vmas));
	if (lab_probe_init(&whole, all, nr_vmas + 2, 1024) ||
	    lab_probe_init(&probes[0], &db, 1, 512) ||
	    lab_probe_init(&probes[1], vmas, nr_vmas, 512) ||
	    lab_probe_init(&probes[2], &hash, 1, 512))
		goto alloc;
	if (lab_check_placement(o.scenario, &whole, o.node))
		goto out;
	for (i = 0; i < (binary ? 4 : 3); i++) {
		parts[nr_parts].name = part_names[i];
		parts[nr_parts++].probe = &probes[i];
	}

	if (lab_run_begin(&run, &o, "production", &whole, &child, 1))
		goto out;
	lab_run_parts(&run, parts, nr_parts);
	while (lab_run_tick(&run))
		usleep(100 * 1000);
	lab_run_end(&run);
	status = 0;
	goto out;
alloc:
	lab_error(o.scenario, "alloc");
out:
	atomic_store(&stop_readers, true);
	atomic_store(&pause_readers, false);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < NR_TEXT_USERS; i++)
		if (text[i] > 0)
			lab_stop_child(text[i]);
	if (child > 0)
		lab_stop_child(child);
	return status;
}
