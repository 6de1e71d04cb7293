// SPDX-License-Identifier: GPL-2.0
/*
 * stress - concurrent mm operations on memory that NUMA balancing keeps
 * promoting, for the debug kernels (DEBUG_VM, lockdep, KASAN).
 *
 * The stable regions (hot, mprotect, dontneed, uffd, ksm) are allocated on
 * the slow node and read in a loop; a "demoter" moves them back to the slow
 * node every few seconds, so hinting faults and promotions go on for the
 * whole run.  Meanwhile, in threads of this process and in forked ones:
 *
 *   fork      fork/exit children that write, mprotect, madvise and read the
 *             inherited memory (COW breaks, uffd-wp and KSM state on fork)
 *   sibling   a long-lived child sharing the hot and mprotect regions COW,
 *             toggling mprotect on its copy and writing it
 *   mprotect  PROT_READ <-> PROT_READ|PROT_WRITE on ranges being read
 *   churn     mmap/munmap, holes punched and MAP_FIXED over live ranges,
 *             read meanwhile by a thread that survives SIGSEGV
 *   dontneed  MADV_DONTNEED of ranges being read, refaulted on the slow node
 *   thp       MADV_HUGEPAGE 2 MiB-aligned ranges, split by mprotect of one
 *             page or MADV_DONTNEED of part, MADV_COLLAPSE back
 *   uffd      userfaultfd write-protect: UFFDIO_WRITEPROTECT on/off in a
 *             loop while a writer faults and a handler thread unprotects
 *   ksm       identical pages MADV_MERGEABLE (ksmd on for the run), merged,
 *             unmerged, rewritten
 *   file      read-only MAP_SHARED and PROT_EXEC MAP_PRIVATE mappings of a
 *             tmpfs file on the slow node, mapped and unmapped in a loop
 *
 * What this adds to Debian's stress-ng, which the debug run also runs
 * (lab/guest/run-tools.sh): a promotion happens in the task that takes
 * the hinting fault, and the stressors run there touch their memory and
 * mprotect, unmap or advise it in the same thread, one after the other,
 * so an operation does not overlap a promotion of the folios it acts on.
 * Here every operation runs on memory that other threads of the same
 * process (read, churn-read) or a process sharing it (fork, sibling) are
 * faulting and promoting at that moment, which is the race the series'
 * changes to the scan and to the fault path can lose.  uffd
 * write-protect, KSM, MADV_COLLAPSE and the shared read-only and exec
 * file mappings have no stress-ng 0.15 stressor at all.  So each worker
 * stays; the system-call coverage in general is stress-ng's and
 * trinity's.
 *
 * The end line counts what every worker did:
 *   @@ stress scenario=ID mode=M secs=S forks=N mprotects=N munmaps=N
 *      dontneeds=N collapses=N splits=N uffd_wp=N ksm_merged=N ...
 *      (and vmstat deltas)
 * A missing kernel feature, or a worker that achieved nothing it exists
 * for (no merge, no write-protect fault, no promotion), is an
 * "@@ error scenario=stress msg=..." line and exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "lab.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

#define HPAGE_SIZE	LAB_MIB(2)
#define KSM_DIR		"/sys/kernel/mm/ksm/"
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"

static const char usage[] =
	"Stress: fork/exit, mprotect, mmap/munmap, MADV_DONTNEED, THP split and\n"
	"MADV_COLLAPSE, userfaultfd write-protect and KSM, concurrently, on\n"
	"memory on the slow node that NUMA balancing promotes.\n"
	"  -o LIST      only these workers (comma-separated; default all):\n"
	"               read demote fork sibling mprotect churn dontneed thp\n"
	"               uffd ksm file\n"
	"  -d DIR       directory of the file worker's file, on tmpfs (/tmp)\n"
	"  -H           host test: leave numa_balancing, its knobs and KSM\n"
	"               alone, allocate on node 0, expect no hinting faults,\n"
	"               promotions or merges\n"
	"Defaults: -s stress -m 2 -t 300 -M 16 (the hot region).\n";

/* ---- options and shared state ----------------------------------------- */

enum worker_id {
	W_READ, W_DEMOTE, W_FORK, W_SIBLING, W_MPROTECT, W_CHURN, W_DONTNEED,
	W_THP, W_UFFD, W_KSM, W_FILE, W_NR,
};

static const char *const worker_names[W_NR] = {
	"read", "demote", "fork", "sibling", "mprotect", "churn", "dontneed",
	"thp", "uffd", "ksm", "file",
};

static bool worker_on[W_NR];
static const char *file_dir = "/tmp";
static bool host_test;
static int slow_node = LAB_SLOW_NODE;
static const char *scenario;

/*
 * Counters and the stop flag live in a MAP_SHARED page: the sibling and
 * the fork children count there too.
 */
struct shared {
	atomic_int stop;
	atomic_ulong forks, fork_fails;
	atomic_ulong mprotects, munmaps, dontneeds;
	atomic_ulong collapses, collapse_fails, splits;
	atomic_ulong uffd_wp, uffd_faults;
	atomic_ulong ksm_merged, ksm_cycles;
	atomic_ulong file_maps, demotes, segvs;
};
static struct shared *sh;

static bool stopping(void)
{
	return atomic_load_explicit(&sh->stop, memory_order_relaxed);
}

static void count(atomic_ulong *c, unsigned long n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

static unsigned long get(atomic_ulong *c)
{
	return atomic_load(c);
}

/* One error line per message; the run fails. */
static atomic_int nr_errors;
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *msg)
{
	static const char *seen[32];
	static unsigned int nr_seen;
	unsigned int i;

	atomic_fetch_add(&nr_errors, 1);
	pthread_mutex_lock(&error_lock);
	for (i = 0; i < nr_seen; i++)
		if (!strcmp(seen[i], msg))
			break;
	if (i == nr_seen) {
		if (nr_seen < 32)
			seen[nr_seen++] = msg;
		lab_error(scenario, msg);
	}
	pthread_mutex_unlock(&error_lock);
}

/* Sleep @ms milliseconds unless the run stops first. */
static void nap(unsigned int ms)
{
	while (ms && !stopping()) {
		unsigned int n = ms < 100 ? ms : 100;

		usleep(n * 1000);
		ms -= n;
	}
}

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return n ? (unsigned int)rand_r(seed) % n : 0;
}

static unsigned int new_seed(void)
{
	static atomic_uint next = 1;

	return (unsigned int)time(NULL) ^ (atomic_fetch_add(&next, 1) * 2654435761u);
}

/* Fault [p, p+len) with the calling thread bound to the slow node. */
static void fault_on_slow(void *p, size_t len)
{
	if (lab_bind_to_node(slow_node))
		fail("bind");
	lab_fault_range(p, len);
	if (lab_unbind())
		fail("unbind");
}

/* A random page-aligned sub-range of @r, at most @max_pages long. */
static void pick_range(unsigned int *seed, const struct lab_region *r,
		       size_t max_pages, char **addr, size_t *len)
{
	size_t pages = r->len / LAB_PAGE_SIZE, n, first;

	n = 1 + rnd(seed, max_pages < pages ? max_pages : pages);
	if (n > pages)
		n = pages;
	first = rnd(seed, pages - n + 1);
	*addr = (char *)r->addr + first * LAB_PAGE_SIZE;
	*len = n * LAB_PAGE_SIZE;
}

/* ---- the stable regions ----------------------------------------------- */

enum { R_HOT, R_MPROT, R_DONTNEED, R_UFFD, R_KSM, R_NR };
static struct lab_region regions[R_NR];

static const size_t region_sizes[R_NR] = {
	[R_HOT]		= LAB_MIB(16),	/* -M */
	[R_MPROT]	= LAB_MIB(4),
	[R_DONTNEED]	= LAB_MIB(4),
	[R_UFFD]	= LAB_MIB(2),
	[R_KSM]		= LAB_KIB(512),
};

/* ---- volatile ranges: mapped and unmapped while a thread reads them ---- */

#define NR_CHURN	8
#define V_THP		NR_CHURN
#define V_FILE		(NR_CHURN + 1)
#define NR_VOLS		(NR_CHURN + 2)

struct vol {
	_Atomic uintptr_t addr;
	_Atomic size_t len;
};
static struct vol vols[NR_VOLS];

static void vol_publish(int i, void *addr, size_t len)
{
	atomic_store(&vols[i].len, len);
	atomic_store(&vols[i].addr, (uintptr_t)addr);
}

static void vol_hide(int i)
{
	atomic_store(&vols[i].addr, 0);
}

/*
 * The volatile reader may read a range just unmapped: SIGSEGV (or SIGBUS)
 * jumps back to guarded_touch().  Anywhere else the signal kills as usual.
 */
static __thread sigjmp_buf *segv_jmp;

static void segv_handler(int sig)
{
	if (segv_jmp)
		siglongjmp(*segv_jmp, 1);
	/* Not guarded: fault again with the default action. */
	signal(sig, SIG_DFL);
}

static bool guarded_touch(const void *addr, size_t len)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 1)) {
		segv_jmp = NULL;
		return false;
	}
	segv_jmp = &jb;
	lab_touch(addr, len);
	segv_jmp = NULL;
	return true;
}

static void *vol_reader(void *arg)
{
	unsigned int seed = new_seed();

	(void)arg;
	while (!stopping()) {
		struct vol *v = &vols[rnd(&seed, NR_VOLS)];
		uintptr_t addr = atomic_load(&v->addr);
		size_t len = atomic_load(&v->len);

		if (!addr) {
			usleep(1000);
			continue;
		}
		if (!guarded_touch((const void *)addr, len))
			count(&sh->segvs, 1);
	}
	return NULL;
}

/* ---- read and demote -------------------------------------------------- */

static void *reader(void *arg)
{
	unsigned int i;

	(void)arg;
	while (!stopping())
		for (i = 0; i < R_NR; i++)
			if (regions[i].addr)
				lab_touch(regions[i].addr, regions[i].len);
	return NULL;
}

/* Move the stable regions and the THP range back to the slow node. */
static void *demoter(void *arg)
{
	struct lab_region r[R_NR + 1];
	unsigned int i, n;

	(void)arg;
	while (!stopping()) {
		nap(3000);
		if (stopping())
			break;
		for (i = n = 0; i < R_NR; i++)
			if (regions[i].addr)
				r[n++] = regions[i];
		/* Unmapped meanwhile: move_pages() reports it per page. */
		r[n].addr = (void *)atomic_load(&vols[V_THP].addr);
		r[n].len = atomic_load(&vols[V_THP].len);
		if (r[n].addr)
			n++;
		if (lab_move_regions(r, n, slow_node) < 0)
			fail("move-pages");
		else
			count(&sh->demotes, 1);
	}
	return NULL;
}

/* ---- fork/exit and the sibling ---------------------------------------- */

/*
 * A fork child: for 20-200 ms write its copy of the hot region (COW
 * breaks) and of the uffd region (no uffd in the child), read the others,
 * then mprotect and MADV_DONTNEED some of it and exit.  Only
 * async-signal-safe calls: the parent is multi-threaded.
 */
static void __attribute__((noreturn)) fork_child(unsigned int seed)
{
	struct lab_region *hot = &regions[R_HOT];
	double end = lab_now() + (20 + rnd(&seed, 180)) / 1000.0;
	unsigned int i;
	char *p;
	size_t len;

	while (lab_now() < end) {
		pick_range(&seed, hot, 64, &p, &len);
		lab_fault_range(p, len);
		if (regions[R_UFFD].addr) {
			pick_range(&seed, &regions[R_UFFD], 16, &p, &len);
			lab_fault_range(p, len);
		}
		for (i = 0; i < R_NR; i++)
			if (regions[i].addr)
				lab_touch(regions[i].addr, regions[i].len);
	}
	pick_range(&seed, hot, 64, &p, &len);
	if (mprotect(p, len, PROT_READ))
		_exit(3);
	lab_touch(p, len);
	pick_range(&seed, hot, 64, &p, &len);
	if (madvise(p, len, MADV_DONTNEED))
		_exit(4);
	lab_touch(hot->addr, hot->len);
	_exit(0);
}

static void *forker(void *arg)
{
	unsigned int seed = new_seed();
	int status;
	pid_t pid;

	(void)arg;
	while (!stopping()) {
		pid = lab_fork();
		if (pid < 0) {
			fail("fork");
			nap(1000);
			continue;
		}
		if (pid == 0)
			fork_child(seed);
		seed = rand_r(&seed);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		count(&sh->forks, 1);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			lab_warn("fork child: status 0x%x", status);
			count(&sh->fork_fails, 1);
			fail("fork-child-failed");
		}
	}
	return NULL;
}

/* mprotect toggling on @r, which nobody else writes; writes when RW. */
static void mprotect_step(unsigned int *seed, const struct lab_region *r)
{
	char *p;
	size_t len;

	pick_range(seed, r, 64, &p, &len);
	if (mprotect(p, len, PROT_READ)) {
		fail("mprotect");
		return;
	}
	lab_touch(p, len);
	if (mprotect(p, len, PROT_READ | PROT_WRITE)) {
		fail("mprotect");
		return;
	}
	count(&sh->mprotects, 2);
	lab_fault_range(p, len);
}

/* The sibling process: the hot and mprotect regions shared COW. */
static void __attribute__((noreturn)) sibling(void)
{
	unsigned int seed = new_seed();
	char *p;
	size_t len;

	while (!stopping()) {
		lab_touch(regions[R_HOT].addr, regions[R_HOT].len);
		if (regions[R_MPROT].addr)
			mprotect_step(&seed, &regions[R_MPROT]);
		/* A few COW breaks per pass, not all: most stays shared. */
		pick_range(&seed, &regions[R_HOT], 4, &p, &len);
		lab_fault_range(p, len);
	}
	_exit(0);
}

/* ---- mprotect, dontneed, churn ---------------------------------------- */

static void *mprotector(void *arg)
{
	unsigned int seed = new_seed();

	(void)arg;
	while (!stopping())
		mprotect_step(&seed, &regions[R_MPROT]);
	return NULL;
}

static void *dontneeder(void *arg)
{
	struct lab_region *r = &regions[R_DONTNEED];
	unsigned int seed = new_seed();
	char *p;
	size_t len;

	(void)arg;
	while (!stopping()) {
		if (!rnd(&seed, 16)) {
			p = r->addr;
			len = r->len;
		} else {
			pick_range(&seed, r, 128, &p, &len);
		}
		if (madvise(p, len, MADV_DONTNEED)) {
			fail("madv-dontneed");
			nap(1000);
			continue;
		}
		count(&sh->dontneeds, 1);
		fault_on_slow(p, len);
	}
	return NULL;
}

/* An anonymous mapping of @len at a @align-aligned address, or NULL. */
static void *map_aligned(size_t len, size_t align)
{
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start;

	if (p == MAP_FAILED)
		return NULL;
	start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	if (start > (uintptr_t)p)
		munmap(p, start - (uintptr_t)p);
	munmap((char *)start + len, (uintptr_t)p + align - start);
	return (void *)start;
}

static void *churner(void *arg)
{
	struct lab_region slots[NR_CHURN] = { { NULL, 0 } };
	unsigned int seed = new_seed(), i;
	struct lab_region *s;
	size_t off, len;
	void *p;

	(void)arg;
	while (!stopping()) {
		i = rnd(&seed, NR_CHURN);
		s = &slots[i];
		if (s->addr && rnd(&seed, 4) == 0) {
			/* Replace the middle third with a fresh mapping. */
			off = s->len / 3 & ~(LAB_PAGE_SIZE - 1);
			len = (s->len / 3 & ~(LAB_PAGE_SIZE - 1)) ?: LAB_PAGE_SIZE;
			p = mmap((char *)s->addr + off, len,
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (p == MAP_FAILED) {
				fail("mmap-fixed");
				nap(1000);
				continue;
			}
			count(&sh->munmaps, 1);
			fault_on_slow(p, len);
		} else if (s->addr) {
			/* Punch a hole, then unmap the rest. */
			vol_hide(i);
			if (s->len >= 3 * LAB_PAGE_SIZE &&
			    munmap((char *)s->addr + LAB_PAGE_SIZE, LAB_PAGE_SIZE))
				fail("munmap");
			if (munmap(s->addr, s->len))
				fail("munmap");
			count(&sh->munmaps, 2);
			s->addr = NULL;
		} else {
			len = (1 + rnd(&seed, 256)) * LAB_PAGE_SIZE;
			/* Sometimes THP-sized and aligned. */
			if (rnd(&seed, 4) == 0) {
				len = HPAGE_SIZE;
				p = map_aligned(len, HPAGE_SIZE);
			} else {
				p = lab_map_anon(len);
			}
			if (!p) {
				fail("mmap");
				nap(1000);
				continue;
			}
			fault_on_slow(p, len);
			s->addr = p;
			s->len = len;
			vol_publish(i, p, len);
		}
		for (i = 0; i < NR_CHURN; i++)
			if (slots[i].addr)
				lab_touch(slots[i].addr, slots[i].len);
	}
	for (i = 0; i < NR_CHURN; i++) {
		vol_hide(i);
		if (slots[i].addr)
			munmap(slots[i].addr, slots[i].len);
	}
	return NULL;
}

/* ---- THP split and collapse ------------------------------------------- */

#define THP_LEN		(2 * HPAGE_SIZE)

static bool collapse_ok = true;

static void *thp_worker(void *arg)
{
	unsigned int seed = new_seed(), iter = 0;
	char *t = NULL, *p;
	size_t len;

	(void)arg;
	while (!stopping()) {
		if (!t || iter % 16 == 0) {
			if (t) {
				vol_hide(V_THP);
				munmap(t, THP_LEN);
				count(&sh->munmaps, 1);
			}
			t = map_aligned(THP_LEN, HPAGE_SIZE);
			if (!t) {
				fail("mmap-thp");
				break;
			}
			if (madvise(t, THP_LEN, MADV_HUGEPAGE)) {
				lab_warn("MADV_HUGEPAGE: %s", strerror(errno));
				fail("no-madv-hugepage");
				break;
			}
			fault_on_slow(t, THP_LEN);
			vol_publish(V_THP, t, THP_LEN);
		}
		iter++;
		lab_touch(t, THP_LEN);

		/* Split one of the huge pages' PMD mappings. */
		p = t + rnd(&seed, THP_LEN / HPAGE_SIZE) * HPAGE_SIZE +
		    rnd(&seed, HPAGE_SIZE / LAB_PAGE_SIZE) * LAB_PAGE_SIZE;
		if (iter & 1) {
			if (mprotect(p, LAB_PAGE_SIZE, PROT_READ)) {
				fail("mprotect-thp");
				break;
			}
			lab_touch(t, THP_LEN);
			if (mprotect(p, LAB_PAGE_SIZE, PROT_READ | PROT_WRITE)) {
				fail("mprotect-thp");
				break;
			}
			count(&sh->mprotects, 2);
		} else {
			len = (1 + rnd(&seed, 16)) * LAB_PAGE_SIZE;
			if ((uintptr_t)p + len > (uintptr_t)t + THP_LEN)
				len = (uintptr_t)t + THP_LEN - (uintptr_t)p;
			if (madvise(p, len, MADV_DONTNEED)) {
				fail("madv-dontneed-thp");
				break;
			}
			count(&sh->dontneeds, 1);
			fault_on_slow(p, len);
		}
		count(&sh->splits, 1);
		lab_touch(t, THP_LEN);

		if (!collapse_ok)
			continue;
		if (!madvise(t, THP_LEN, MADV_COLLAPSE)) {
			count(&sh->collapses, 1);
		} else if (errno == EINVAL) {
			lab_warn("MADV_COLLAPSE: %s", strerror(errno));
			fail("no-madv-collapse");
			collapse_ok = false;
		} else {
			/* EAGAIN, ENOMEM, EBUSY: contended, try again. */
			count(&sh->collapse_fails, 1);
		}
	}
	vol_hide(V_THP);
	if (t)
		munmap(t, THP_LEN);
	return NULL;
}

/* ---- userfaultfd write-protect ---------------------------------------- */

static int uffd = -1;
static atomic_bool uffd_handler_stop;

static int uffd_wp(void *addr, size_t len, bool protect)
{
	struct uffdio_writeprotect wp = {
		.range = { .start = (uintptr_t)addr, .len = len },
		.mode = protect ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
	};

	while (ioctl(uffd, UFFDIO_WRITEPROTECT, &wp)) {
		if (errno != EAGAIN) {
			lab_warn("UFFDIO_WRITEPROTECT %s: %s",
				 protect ? "on" : "off", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int uffd_setup(struct lab_region *r)
{
	struct uffdio_api api = { .api = UFFD_API, .features = 0 };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)r->addr, .len = r->len },
		.mode = UFFDIO_REGISTER_MODE_WP,
	};

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		lab_warn("userfaultfd: %s", strerror(errno));
		fail("no-userfaultfd");
		return -1;
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		lab_warn("UFFDIO_API: %s", strerror(errno));
		fail("no-userfaultfd");
		goto err;
	}
	if (!(api.features & UFFD_FEATURE_PAGEFAULT_FLAG_WP)) {
		lab_warn("userfaultfd: no UFFD_FEATURE_PAGEFAULT_FLAG_WP");
		fail("no-uffd-wp");
		goto err;
	}
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		lab_warn("UFFDIO_REGISTER (WP): %s", strerror(errno));
		fail("no-uffd-wp");
		goto err;
	}
	if (!(reg.ioctls & (1ULL << _UFFDIO_WRITEPROTECT))) {
		lab_warn("UFFDIO_REGISTER: no UFFDIO_WRITEPROTECT on anon");
		fail("no-uffd-wp");
		goto err;
	}
	return 0;
err:
	close(uffd);
	uffd = -1;
	return -1;
}

/* Protect and unprotect random ranges; everything unprotected at the end. */
static void *uffd_protector(void *arg)
{
	struct lab_region *r = &regions[R_UFFD];
	unsigned int seed = new_seed();
	char *p;
	size_t len;

	(void)arg;
	while (!stopping()) {
		if (rnd(&seed, 8) == 0) {
			p = r->addr;
			len = r->len;
		} else {
			pick_range(&seed, r, 128, &p, &len);
		}
		if (uffd_wp(p, len, true)) {
			fail("uffd-writeprotect");
			break;
		}
		count(&sh->uffd_wp, 1);
		usleep(rnd(&seed, 2000));
		if (uffd_wp(p, len, false)) {
			fail("uffd-writeprotect");
			break;
		}
		count(&sh->uffd_wp, 1);
	}
	/* Wakes any writer still waiting. */
	if (uffd_wp(r->addr, r->len, false))
		fail("uffd-writeprotect");
	return NULL;
}

/* Writes that block on write-protected pages until the handler acts. */
static void *uffd_writer(void *arg)
{
	unsigned int seed = new_seed();
	char *p;
	size_t len;

	(void)arg;
	while (!stopping()) {
		pick_range(&seed, &regions[R_UFFD], 32, &p, &len);
		lab_fault_range(p, len);
		usleep(rnd(&seed, 500));
	}
	return NULL;
}

/* Resolve write-protect faults by unprotecting the page (and waking). */
static void *uffd_handler(void *arg)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;
	ssize_t n;

	(void)arg;
	while (!atomic_load(&uffd_handler_stop)) {
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(uffd, &msg, sizeof(msg));
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n != sizeof(msg)) {
			lab_warn("read userfaultfd: %s", n < 0 ? strerror(errno) : "short");
			fail("uffd-read");
			break;
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT ||
		    !(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP)) {
			lab_warn("userfaultfd: unexpected event %u flags 0x%llx",
				 msg.event, (unsigned long long)msg.arg.pagefault.flags);
			fail("uffd-unexpected-event");
			continue;
		}
		count(&sh->uffd_faults, 1);
		if (uffd_wp((void *)(uintptr_t)(msg.arg.pagefault.address &
						 ~(LAB_PAGE_SIZE - 1)),
			    LAB_PAGE_SIZE, false)) {
			fail("uffd-writeprotect");
			break;
		}
	}
	return NULL;
}

/* ---- KSM -------------------------------------------------------------- */

static const char *const ksm_knobs[] = { "run", "pages_to_scan", "sleep_millisecs" };
static const long ksm_values[] = { 1, 256, 20 };
static long ksm_saved[3];
static bool ksm_changed;

static int read_long_file(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int write_long_file(const char *path, long val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", val) > 0;
	ok = !fclose(f) && ok;
	return ok ? 0 : -1;
}

static void ksm_restore(void)
{
	char path[128];
	int i;

	if (!ksm_changed)
		return;
	/* run first: ksmd stops before its pacing changes back. */
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), KSM_DIR "%s", ksm_knobs[i]);
		if (write_long_file(path, ksm_saved[i]))
			lab_warn("restore %s: %s", path, strerror(errno));
	}
	ksm_changed = false;
}

static int ksm_setup(void)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), KSM_DIR "%s", ksm_knobs[i]);
		if (read_long_file(path, &ksm_saved[i])) {
			lab_warn("%s: %s", path, strerror(errno));
			fail("no-ksm");
			return -1;
		}
	}
	if (host_test)
		return 0;
	ksm_changed = true;
	atexit(ksm_restore);
	/* Pacing first, then run. */
	for (i = 3; i-- > 0;) {
		snprintf(path, sizeof(path), KSM_DIR "%s", ksm_knobs[i]);
		if (write_long_file(path, ksm_values[i])) {
			lab_warn("write %s: %s", path, strerror(errno));
			fail("ksm-knobs");
			return -1;
		}
	}
	return 0;
}

/* Pages of this process mapped to KSM pages (or ksmd's global count). */
static long ksm_merging_pages(void)
{
	long val;

	if (!read_long_file("/proc/self/ksm_merging_pages", &val) ||
	    !read_long_file(KSM_DIR "pages_sharing", &val))
		return val;
	return -1;
}

static void *ksm_worker(void *arg)
{
	struct lab_region *r = &regions[R_KSM];
	long pages = r->len / LAB_PAGE_SIZE, merged, best;
	unsigned int cycle = 0;
	double deadline;
	long i;

	(void)arg;
	while (!stopping()) {
		/* Identical pages, rewritten on the slow node. */
		if (lab_bind_to_node(slow_node))
			fail("bind");
		for (i = 0; i < pages; i++)
			memset((char *)r->addr + i * LAB_PAGE_SIZE,
			       0x40 | (cycle & 0x3f), LAB_PAGE_SIZE);
		if (lab_unbind())
			fail("unbind");
		if (madvise(r->addr, r->len, MADV_MERGEABLE)) {
			lab_warn("MADV_MERGEABLE: %s", strerror(errno));
			fail("no-ksm");
			break;
		}
		best = 0;
		deadline = lab_now() + 20;
		while (!stopping() && lab_now() < deadline) {
			merged = ksm_merging_pages();
			if (merged > best)
				best = merged;
			if (best >= pages / 2)
				break;
			nap(100);
		}
		count(&sh->ksm_merged, best > 0 ? best : 0);
		count(&sh->ksm_cycles, 1);
		/* Merged pages are read (and migrated) for a while. */
		nap(1000);
		/* Break half the sharing by writes, the rest by unmerging. */
		for (i = 0; i < pages; i += 2)
			((volatile char *)r->addr)[i * LAB_PAGE_SIZE] = 1;
		if (madvise(r->addr, r->len, MADV_UNMERGEABLE)) {
			lab_warn("MADV_UNMERGEABLE: %s", strerror(errno));
			fail("ksm-unmerge");
			break;
		}
		cycle++;
	}
	return NULL;
}

/* ---- file mappings ---------------------------------------------------- */

#define FILE_LEN	LAB_MIB(4)
static int file_fd = -1;

static int file_setup(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/lab-stress.%d", file_dir, (int)getpid());
	if (lab_create_file_on_node(path, FILE_LEN, slow_node)) {
		fail("file-create");
		return -1;
	}
	file_fd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	if (file_fd < 0) {
		lab_warn("open %s: %s", path, strerror(errno));
		fail("file-open");
		return -1;
	}
	return 0;
}

static void *file_worker(void *arg)
{
	static const struct { int prot, flags; const char *err; } kinds[] = {
		{ PROT_READ, MAP_SHARED, "file-map-ro" },
		{ PROT_READ | PROT_EXEC, MAP_PRIVATE, "file-map-exec" },
	};
	unsigned int k = 0, i;
	void *p;

	(void)arg;
	while (!stopping()) {
		k ^= 1;
		p = mmap(NULL, FILE_LEN, kinds[k].prot, kinds[k].flags, file_fd, 0);
		if (p == MAP_FAILED) {
			lab_warn("mmap file: %s", strerror(errno));
			fail(kinds[k].err);
			nap(1000);
			continue;
		}
		vol_publish(V_FILE, p, FILE_LEN);
		for (i = 0; i < 8 && !stopping(); i++) {
			lab_touch(p, FILE_LEN);
			usleep(50 * 1000);
		}
		vol_hide(V_FILE);
		munmap(p, FILE_LEN);
		count(&sh->file_maps, 1);
	}
	return NULL;
}

/* ---- vmstat beyond lab.h's ---------------------------------------------- */

static const char *const extra_vmstat[] = {
	"numa_hint_faults", "pgpromote_success", "numa_pages_migrated",
	"thp_fault_alloc", "thp_split_pmd", "thp_collapse_alloc",
};
#define NR_EXTRA	(sizeof(extra_vmstat) / sizeof(extra_vmstat[0]))

static void vmstat_extra(unsigned long long *val)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");
	size_t i;

	memset(val, 0, NR_EXTRA * sizeof(*val));
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		for (i = 0; i < NR_EXTRA; i++)
			if (!strcmp(name, extra_vmstat[i]))
				val[i] = v;
	fclose(f);
}

/* ---- main ------------------------------------------------------------- */

static int parse_opt(int opt, const char *arg)
{
	char *list, *tok, *save;
	int i;

	switch (opt) {
	case 'o':
		memset(worker_on, 0, sizeof(worker_on));
		list = strdup(arg);
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < W_NR; i++)
				if (!strcmp(tok, worker_names[i]))
					break;
			if (i == W_NR) {
				lab_warn("unknown worker '%s'", tok);
				free(list);
				return -1;
			}
			worker_on[i] = true;
		}
		free(list);
		return 0;
	case 'd':
		file_dir = arg;
		return 0;
	case 'H':
		host_test = true;
		return 0;
	}
	return -1;
}

#define MAX_THREADS	16

struct thread {
	pthread_t tid;
	const char *name;
};
static struct thread threads[MAX_THREADS];
static unsigned int nr_threads;

static void start(const char *name, void *(*fn)(void *))
{
	int err;

	if (nr_threads == MAX_THREADS) {
		fail("too-many-threads");
		return;
	}
	err = pthread_create(&threads[nr_threads].tid, NULL, fn, NULL);
	if (err) {
		lab_warn("pthread_create %s: %s", name, strerror(err));
		fail("threads");
		return;
	}
	threads[nr_threads++].name = name;
}

/* Join with a bound: a worker stuck in the kernel is a finding. */
static void join(struct thread *t)
{
	struct timespec ts;
	char msg[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 120;
	if (pthread_timedjoin_np(t->tid, NULL, &ts)) {
		snprintf(msg, sizeof(msg), "worker-hung-%s", t->name);
		fail(strdup(msg));
		/* Nothing safe to do with it; the guest timeout has the rest. */
		ksm_restore();
		fflush(stdout);
		_exit(1);
	}
}

static int setup_regions(const struct lab_opts *o)
{
	static const enum worker_id owner[R_NR] = {
		[R_HOT] = W_READ, [R_MPROT] = W_MPROTECT,
		[R_DONTNEED] = W_DONTNEED, [R_UFFD] = W_UFFD, [R_KSM] = W_KSM,
	};
	unsigned int i;

	for (i = 0; i < R_NR; i++) {
		regions[i].len = i == R_HOT ? o->size : region_sizes[i];
		/* The hot region is also what fork, sibling and demote use. */
		if (i != R_HOT && !worker_on[owner[i]])
			continue;
		regions[i].addr = lab_alloc_on_node(regions[i].len, slow_node);
		if (!regions[i].addr) {
			fail(slow_node == LAB_SLOW_NODE ? "alloc-slow-node" : "alloc");
			return -1;
		}
	}
	return 0;
}

static void check_thp(void)
{
	FILE *f = fopen(THP_ENABLED, "r");
	char buf[128] = "";

	if (!f || !fgets(buf, sizeof(buf), f)) {
		lab_warn("%s: %s", THP_ENABLED, f ? "empty" : strerror(errno));
		fail("no-thp");
	} else if (strstr(buf, "[never]")) {
		lab_warn("THP is disabled: %s", buf);
		fail("thp-never");
	}
	if (f)
		fclose(f);
}

static void progress(double t)
{
	printf("# stress t=%.0f forks=%lu mprotects=%lu munmaps=%lu dontneeds=%lu "
	       "collapses=%lu splits=%lu uffd_wp=%lu uffd_faults=%lu "
	       "ksm_merged=%lu file_maps=%lu demotes=%lu\n", t,
	       get(&sh->forks), get(&sh->mprotects), get(&sh->munmaps),
	       get(&sh->dontneeds), get(&sh->collapses), get(&sh->splits),
	       get(&sh->uffd_wp), get(&sh->uffd_faults), get(&sh->ksm_merged),
	       get(&sh->file_maps), get(&sh->demotes));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long long vm0[NR_EXTRA], vm1[NR_EXTRA];
	struct sigaction sa = { .sa_handler = segv_handler };
	double t0, next_progress, secs;
	pid_t sibling_pid = -1;
	bool handler_on = false;
	pthread_t handler;
	struct lab_opts o;
	unsigned int i;
	int status;

	for (i = 0; i < W_NR; i++)
		worker_on[i] = true;
	lab_opts_init(&o, "stress", 2, 300, 16);
	lab_parse_args(&o, argc, argv, usage, "o:d:H", parse_opt);
	scenario = o.scenario;
	if (host_test)
		slow_node = LAB_TOP_NODE;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		fail("alloc");
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL)) {
		fail("sigaction");
		return 1;
	}

	/* Set-up with balancing off (lab_opts_apply), as in the scenarios. */
	if (!host_test && lab_opts_apply(&o))
		return 1;
	if (setup_regions(&o))
		return 1;
	if (worker_on[W_THP])
		check_thp();
	if (worker_on[W_UFFD] && uffd_setup(&regions[R_UFFD]))
		worker_on[W_UFFD] = false;
	if (worker_on[W_KSM] && ksm_setup())
		worker_on[W_KSM] = false;
	if (worker_on[W_FILE] && file_setup())
		worker_on[W_FILE] = false;
	printf("# stress: mode %d, %.0f s, slow node %d, workers:", o.mode,
	       o.secs, slow_node);
	for (i = 0; i < W_NR; i++)
		if (worker_on[i])
			printf(" %s", worker_names[i]);
	printf("\n");

	if (!host_test && lab_enter_mode(o.scenario, o.mode))
		return 1;
	vmstat_extra(vm0);
	t0 = lab_now();

	if (worker_on[W_SIBLING]) {
		sibling_pid = lab_fork();
		if (sibling_pid == 0)
			sibling();
		if (sibling_pid < 0)
			fail("fork");
	}
	if (worker_on[W_READ]) {
		start("read", reader);
		start("read", reader);
	}
	if (worker_on[W_DEMOTE])
		start("demote", demoter);
	if (worker_on[W_FORK])
		start("fork", forker);
	if (worker_on[W_MPROTECT])
		start("mprotect", mprotector);
	if (worker_on[W_CHURN]) {
		start("churn", churner);
		start("churn-read", vol_reader);
	}
	if (worker_on[W_DONTNEED])
		start("dontneed", dontneeder);
	if (worker_on[W_THP])
		start("thp", thp_worker);
	if (worker_on[W_UFFD]) {
		start("uffd-protect", uffd_protector);
		start("uffd-write", uffd_writer);
	}
	if (worker_on[W_KSM])
		start("ksm", ksm_worker);
	if (worker_on[W_FILE]) {
		start("file", file_worker);
		if (!worker_on[W_CHURN])
			start("file-read", vol_reader);
	}
	/* The uffd handler outlives the writer: joined last. */
	if (worker_on[W_UFFD]) {
		int err = pthread_create(&handler, NULL, uffd_handler, NULL);

		if (err) {
			lab_warn("pthread_create uffd-handler: %s", strerror(err));
			fail("threads");
		} else {
			handler_on = true;
		}
	}

	next_progress = t0 + 30;
	while (lab_now() - t0 < o.secs) {
		usleep(200 * 1000);
		if (lab_now() >= next_progress) {
			progress(lab_now() - t0);
			next_progress += 30;
		}
	}
	secs = lab_now() - t0;
	atomic_store(&sh->stop, 1);

	for (i = 0; i < nr_threads; i++)
		join(&threads[i]);
	if (handler_on) {
		struct thread t = { handler, "uffd-handler" };

		atomic_store(&uffd_handler_stop, true);
		join(&t);
	}
	if (uffd >= 0)
		close(uffd);
	if (sibling_pid > 0) {
		while (waitpid(sibling_pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			lab_warn("sibling: status 0x%x", status);
			fail("sibling-failed");
		}
	}
	vmstat_extra(vm1);
	ksm_restore();

#define D(i) (vm1[i] - vm0[i])
	lab_emit("stress scenario=%s mode=%d secs=%.1f forks=%lu mprotects=%lu "
		 "munmaps=%lu dontneeds=%lu collapses=%lu splits=%lu "
		 "uffd_wp=%lu ksm_merged=%lu collapse_fails=%lu uffd_faults=%lu "
		 "ksm_cycles=%lu file_maps=%lu demotes=%lu guarded_faults=%lu "
		 "hint_faults=%llu pgpromote_success=%llu pages_migrated=%llu "
		 "thp_fault_alloc=%llu thp_split_pmd=%llu thp_collapse_alloc=%llu",
		 o.scenario, o.mode, secs, get(&sh->forks), get(&sh->mprotects),
		 get(&sh->munmaps), get(&sh->dontneeds), get(&sh->collapses),
		 get(&sh->splits), get(&sh->uffd_wp), get(&sh->ksm_merged),
		 get(&sh->collapse_fails), get(&sh->uffd_faults),
		 get(&sh->ksm_cycles), get(&sh->file_maps), get(&sh->demotes),
		 get(&sh->segvs), D(0), D(1), D(2), D(3), D(4), D(5));

	/* A worker that ran but achieved nothing it exists for. */
	if (worker_on[W_THP] && collapse_ok && !get(&sh->collapses))
		fail("no-collapse");
	if (worker_on[W_UFFD] && !get(&sh->uffd_faults))
		fail("uffd-no-wp-fault");
	if (worker_on[W_KSM] && !get(&sh->ksm_merged) &&
	    (!host_test || ksm_saved[0] == 1))
		fail("ksm-no-merge");
	if (!host_test && o.mode && !D(0))
		fail("no-hint-faults");
	if (!host_test && (o.mode & 2) && !D(1))
		fail("no-promotion");
#undef D
	return atomic_load(&nr_errors) ? 1 : 0;
}
