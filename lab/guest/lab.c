// SPDX-License-Identifier: GPL-2.0
/*
 * lab.c - shared helpers of the in-guest NUMA-tiering lab programs.
 * See lab.h for the interface.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "lab.h"

#define NUMAB_DEBUGFS	"/sys/kernel/debug/sched/numa_balancing/"
#define NUMAB_SYSCTL	"/proc/sys/kernel/numa_balancing"
#define PROMOTE_RATE_SYSCTL \
	"/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps"

/* Bits in a node mask passed to the kernel; the lab has two nodes. */
#define LAB_MAXNODE	(8 * sizeof(unsigned long))

/* move_pages(2) takes arrays; split long ranges into bounded batches. */
#define MOVE_BATCH	1024

/* ---- output ---------------------------------------------------------- */

void lab_emit(const char *fmt, ...)
{
	va_list ap;

	fputs("@@ ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void lab_error(const char *scenario, const char *msg)
{
	lab_emit("error scenario=%s msg=%s", scenario, msg);
}

void lab_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

double lab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- NUMA balancing knobs ------------------------------------------- */

static int write_long(const char *path, long value)
{
	char buf[32];
	int fd, len, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0) {
		lab_warn("open %s: %s", path, strerror(errno));
		return -1;
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", value);
	if (write(fd, buf, len) != len) {
		lab_warn("write %ld to %s: %s", value, path, strerror(errno));
		ret = -1;
	}
	close(fd);
	return ret;
}

int lab_set_mode(int mode)
{
	if (mode < 0 || mode > 3) {
		lab_warn("numa_balancing mode %d out of range 0..3", mode);
		return -1;
	}
	return write_long(NUMAB_SYSCTL, mode);
}

static const char *const debugfs_knobs[] = {
	"scan_delay_ms",
	"scan_period_min_ms",
	"scan_period_max_ms",
	"scan_size_mb",
	"hot_threshold_ms",
};

int lab_set_knob(const char *name, long value)
{
	char path[128];
	size_t i;

	if (!strcmp(name, "promote_rate_limit_MBps"))
		return write_long(PROMOTE_RATE_SYSCTL, value);

	for (i = 0; i < sizeof(debugfs_knobs) / sizeof(debugfs_knobs[0]); i++) {
		if (strcmp(name, debugfs_knobs[i]))
			continue;
		snprintf(path, sizeof(path), NUMAB_DEBUGFS "%s", name);
		return write_long(path, value);
	}
	lab_warn("unknown knob '%s'", name);
	return -1;
}

int lab_set_knob_arg(const char *arg)
{
	char name[64], *end;
	const char *eq = strchr(arg, '=');
	long value;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		lab_warn("knob '%s' is not name=value", arg);
		return -1;
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	errno = 0;
	value = strtol(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end) {
		lab_warn("knob '%s': bad value", arg);
		return -1;
	}
	return lab_set_knob(name, value);
}

int lab_set_fast_scan(void)
{
	if (lab_set_knob("scan_delay_ms", 100) ||
	    lab_set_knob("scan_period_min_ms", 200) ||
	    lab_set_knob("scan_period_max_ms", 1000))
		return -1;
	return 0;
}

/* ---- memory policy and placement -------------------------------------- */

long lab_set_mempolicy(int mode, const unsigned long *nodemask,
		       unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, nodemask, maxnode);
}

long lab_mbind(void *addr, size_t len, int mode,
	       const unsigned long *nodemask, unsigned long maxnode,
	       unsigned int flags)
{
	return syscall(SYS_mbind, addr, len, mode, nodemask, maxnode, flags);
}

long lab_move_pages(pid_t pid, unsigned long count, void **pages,
		    const int *nodes, int *status, int flags)
{
	return syscall(SYS_move_pages, pid, count, pages, nodes, status, flags);
}

int lab_bind_to_node(int node)
{
	unsigned long mask = 1UL << node;

	if (lab_set_mempolicy(MPOL_BIND, &mask, LAB_MAXNODE)) {
		lab_warn("set_mempolicy(MPOL_BIND, node %d): %s", node,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int lab_unbind(void)
{
	if (lab_set_mempolicy(MPOL_DEFAULT, NULL, 0)) {
		lab_warn("set_mempolicy(MPOL_DEFAULT): %s", strerror(errno));
		return -1;
	}
	return 0;
}

void *lab_map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void lab_fault_range(void *addr, size_t len)
{
	volatile char *p = addr;
	size_t off;

	for (off = 0; off < len; off += LAB_PAGE_SIZE)
		p[off] = 1;
}

static void *alloc_on_node(size_t len, int node, int no_thp)
{
	void *p = lab_map_anon(len);

	if (!p) {
		lab_warn("mmap %zu bytes: %s", len, strerror(errno));
		return NULL;
	}
	if (no_thp && madvise(p, len, MADV_NOHUGEPAGE)) {
		lab_warn("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
		munmap(p, len);
		return NULL;
	}
	if (lab_bind_to_node(node)) {
		munmap(p, len);
		return NULL;
	}
	lab_fault_range(p, len);
	if (lab_unbind()) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

void *lab_alloc_on_node(size_t len, int node)
{
	return alloc_on_node(len, node, 0);
}

void *lab_alloc_base_pages_on_node(size_t len, int node)
{
	return alloc_on_node(len, node, 1);
}

struct lab_region *lab_map_small_vmas(unsigned long nr, size_t len, int node)
{
	struct lab_region *r;
	char *base;
	unsigned long i;

	r = calloc(nr, sizeof(*r));
	base = lab_map_anon(2 * nr * len);
	if (!r || !base) {
		lab_warn("map %lu VMAs: %s", nr, strerror(errno));
		return NULL;
	}
	for (i = 0; i < nr; i++) {
		r[i].addr = base + 2 * i * len;
		r[i].len = len;
		if (munmap(base + (2 * i + 1) * len, len)) {
			lab_warn("munmap gap: %s", strerror(errno));
			return NULL;
		}
	}
	if (lab_bind_to_node(node))
		return NULL;
	for (i = 0; i < nr; i++)
		lab_fault_range(r[i].addr, r[i].len);
	if (lab_unbind())
		return NULL;
	return r;
}

void *lab_map_memfd_on_node(const char *name, size_t len, int node)
{
	void *p;
	int fd;

	fd = memfd_create(name, 0);
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

/* move_pages(2) @n pages to @node; returns how many are not there, or -1. */
static long move_batch(void **pages, unsigned long n, int node)
{
	int nodes[MOVE_BATCH], status[MOVE_BATCH];
	unsigned long i;
	long misplaced = 0;

	for (i = 0; i < n; i++)
		nodes[i] = node;
	/* MOVE_ALL: also pages mapped by other processes (we are root). */
	if (lab_move_pages(0, n, pages, nodes, status, MPOL_MF_MOVE_ALL) < 0) {
		lab_warn("move_pages to node %d: %s", node, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		misplaced += status[i] != node;
	return misplaced;
}

long lab_move_regions(const struct lab_region *regions, unsigned int nr_regions,
		      int node)
{
	void *pages[MOVE_BATCH];
	unsigned long n = 0, off;
	long misplaced = 0, ret;
	unsigned int r;

	for (r = 0; r < nr_regions; r++) {
		for (off = 0; off < regions[r].len; off += LAB_PAGE_SIZE) {
			pages[n++] = (char *)regions[r].addr + off;
			if (n < MOVE_BATCH)
				continue;
			ret = move_batch(pages, n, node);
			if (ret < 0)
				return -1;
			misplaced += ret;
			n = 0;
		}
	}
	if (n) {
		ret = move_batch(pages, n, node);
		if (ret < 0)
			return -1;
		misplaced += ret;
	}
	return misplaced;
}

/* Of the file writes and reads below, never called from two threads. */
static char file_chunk[LAB_MIB(1)];

int lab_create_file_on_node(const char *path, size_t len, int node)
{
	size_t done = 0, n;
	int fd, ret = -1;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	if (fd < 0) {
		lab_warn("create %s: %s", path, strerror(errno));
		return -1;
	}
	memset(file_chunk, 0x5a, sizeof(file_chunk));
	/* The page cache folios are allocated by write(), under the policy. */
	if (lab_bind_to_node(node))
		goto out;
	while (done < len) {
		n = len - done < sizeof(file_chunk) ? len - done
						    : sizeof(file_chunk);
		if (write(fd, file_chunk, n) != (ssize_t)n) {
			lab_warn("write %s: %s", path, strerror(errno));
			lab_unbind();
			goto out;
		}
		done += n;
	}
	if (lab_unbind())
		goto out;
	if (fsync(fd)) {
		lab_warn("fsync %s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int lab_cache_file_on_node(const char *path, int node)
{
	int fd, ret = -1;
	ssize_t n;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		lab_warn("open %s: %s", path, strerror(errno));
		return -1;
	}
	/* Clean and unmapped, all of its page cache can be dropped. */
	errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (errno) {
		lab_warn("drop the page cache of %s: %s", path,
			 strerror(errno));
		goto out;
	}
	if (lab_bind_to_node(node))
		goto out;
	while ((n = read(fd, file_chunk, sizeof(file_chunk))) > 0)
		;
	if (lab_unbind() || n < 0) {
		if (n < 0)
			lab_warn("read %s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

void *lab_map_file_on_node(const char *path, size_t len, int node, int prot,
			   int flags)
{
	void *p;
	int fd;

	if (lab_create_file_on_node(path, len, node))
		return NULL;
	fd = open(path, O_RDONLY);
	unlink(path);	/* the mapping keeps it */
	if (fd < 0) {
		lab_warn("open %s: %s", path, strerror(errno));
		return NULL;
	}
	p = mmap(NULL, len, prot, flags, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		lab_warn("mmap %s: %s", path, strerror(errno));
		return NULL;
	}
	/* Map every page: move_pages(2) reports unmapped ones as -ENOENT. */
	lab_touch(p, len);
	return p;
}

/* ---- hot loop -------------------------------------------------------- */

/* lab_flush_tlb()'s memory, once lab_flush_after_touch() made it. */
#define FLUSH_BYTES (1UL << 20)
static char *flush_buf;

int lab_flush_tlb(void)
{
	size_t off;

	if (!flush_buf)
		return -1;
	/* Writable and present again, also after a fork made it COW. */
	for (off = 0; off < FLUSH_BYTES; off += LAB_PAGE_SIZE)
		flush_buf[off]++;
	if (mprotect(flush_buf, FLUSH_BYTES, PROT_READ) ||
	    mprotect(flush_buf, FLUSH_BYTES, PROT_READ | PROT_WRITE)) {
		lab_warn("mprotect: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int lab_flush_after_touch(void)
{
	void *p = mmap(NULL, FLUSH_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		lab_warn("mmap: %s", strerror(errno));
		return -1;
	}
	flush_buf = p;
	return lab_flush_tlb();
}

unsigned long lab_touch(const void *addr, size_t len)
{
	const volatile unsigned long *p = addr;
	const size_t stride = LAB_PAGE_SIZE / sizeof(*p);
	size_t i, n = len / sizeof(*p);
	unsigned long sum = 0;

	for (i = 0; i < n; i += stride)
		sum += p[i];
	if (flush_buf)
		lab_flush_tlb();
	return sum;
}

void lab_run_text(const void *addr, size_t len)
{
	const unsigned char *p = addr, *end = p + len;

	for (; p < end; p += LAB_PAGE_SIZE)
		if (*p == 0xc3)		/* ret */
			((void (*)(void))p)();
}

int lab_run_text_until(const void *addr, size_t len, int ready_fd,
		       double deadline)
{
	unsigned long range[2] = { (unsigned long)addr, len };

	lab_run_text(addr, len);
	if (write(ready_fd, range, sizeof(range)) != sizeof(range))
		return -1;
	close(ready_fd);
	while (lab_now() < deadline)
		lab_run_text(addr, len);
	return 0;
}

/* ---- placement probe ------------------------------------------------- */

int lab_probe_init(struct lab_probe *probe, const struct lab_region *regions,
		   unsigned int nr_regions, unsigned long max_pages)
{
	unsigned long total = 0, stride, k, idx;
	unsigned int r;

	probe->bytes = 0;
	probe->pid = 0;
	for (r = 0; r < nr_regions; r++) {
		total += regions[r].len / LAB_PAGE_SIZE;
		probe->bytes += regions[r].len;
	}
	if (!total || !max_pages)
		return -1;

	probe->nr = total < max_pages ? total : max_pages;
	stride = total / probe->nr;
	probe->pages = calloc(probe->nr, sizeof(*probe->pages));
	probe->status = calloc(probe->nr, sizeof(*probe->status));
	if (!probe->pages || !probe->status) {
		lab_probe_free(probe);
		return -1;
	}

	/* Page k*stride of the regions' concatenation, for k < nr. */
	r = 0;
	idx = 0;	/* page index where region r starts */
	for (k = 0; k < probe->nr; k++) {
		unsigned long want = k * stride;

		while (want >= idx + regions[r].len / LAB_PAGE_SIZE) {
			idx += regions[r].len / LAB_PAGE_SIZE;
			r++;
		}
		probe->pages[k] = (char *)regions[r].addr +
				  (want - idx) * LAB_PAGE_SIZE;
	}
	return 0;
}

int lab_probe_nodes_pct(struct lab_probe *probe, double pct[LAB_NR_NODES])
{
	unsigned long i, on_node[LAB_NR_NODES] = { 0 };
	int n;

	for (n = 0; n < LAB_NR_NODES; n++)
		pct[n] = -1;
	/* A NULL node list makes move_pages() report each page's node. */
	if (lab_move_pages(probe->pid, probe->nr, probe->pages, NULL,
			   probe->status, 0) < 0) {
		lab_warn("move_pages query: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < probe->nr; i++)
		if (probe->status[i] >= 0 && probe->status[i] < LAB_NR_NODES)
			on_node[probe->status[i]]++;
	for (n = 0; n < LAB_NR_NODES; n++)
		pct[n] = 100.0 * on_node[n] / probe->nr;
	return 0;
}

double lab_probe_node_pct(struct lab_probe *probe, int node)
{
	double pct[LAB_NR_NODES];

	if (lab_probe_nodes_pct(probe, pct))
		return -1;
	return node >= 0 && node < LAB_NR_NODES ? pct[node] : 0;
}

int lab_check_placement(const char *scenario, struct lab_probe *probe,
			int node)
{
	double pct = lab_probe_node_pct(probe, node);

	if (pct < 95) {
		lab_warn("only %.1f%% of the hot set is on node %d", pct, node);
		lab_error(scenario, "placement-failed");
		return -1;
	}
	return 0;
}

void lab_probe_free(struct lab_probe *probe)
{
	free(probe->pages);
	free(probe->status);
	probe->pages = NULL;
	probe->status = NULL;
	probe->nr = 0;
	probe->bytes = 0;
}

/* ---- /proc/vmstat ---------------------------------------------------- */

static const char *const vmstat_names[LAB_VMSTAT_NR] = {
	[LAB_NUMA_PTE_UPDATES]		= "numa_pte_updates",
	[LAB_NUMA_HUGE_PTE_UPDATES]	= "numa_huge_pte_updates",
	[LAB_NUMA_HINT_FAULTS]		= "numa_hint_faults",
	[LAB_NUMA_HINT_FAULTS_LOCAL]	= "numa_hint_faults_local",
	[LAB_NUMA_PAGES_MIGRATED]	= "numa_pages_migrated",
	[LAB_PGPROMOTE_SUCCESS]		= "pgpromote_success",
	[LAB_PGPROMOTE_CANDIDATE]	= "pgpromote_candidate",
	[LAB_PGDEMOTE_KSWAPD]		= "pgdemote_kswapd",
	[LAB_PGDEMOTE_DIRECT]		= "pgdemote_direct",
	[LAB_PGDEMOTE_KHUGEPAGED]	= "pgdemote_khugepaged",
};

int lab_vmstat_read(struct lab_vmstat *vs)
{
	char name[64];
	unsigned long long val;
	FILE *f = fopen("/proc/vmstat", "r");
	int i;

	memset(vs, 0, sizeof(*vs));
	if (!f) {
		lab_warn("/proc/vmstat: %s", strerror(errno));
		return -1;
	}
	while (fscanf(f, "%63s %llu", name, &val) == 2) {
		for (i = 0; i < LAB_VMSTAT_NR; i++) {
			if (!strcmp(name, vmstat_names[i])) {
				vs->val[i] = val;
				break;
			}
		}
	}
	fclose(f);
	return 0;
}

unsigned long long lab_vmstat_delta(const struct lab_vmstat *now,
				    const struct lab_vmstat *base,
				    enum lab_vmstat_item item)
{
	return now->val[item] - base->val[item];
}

long lab_numa_scan_seq(pid_t pid)
{
	char path[64], line[256];
	long seq = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* "mm->numa_scan_seq                             :                    3" */
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, "mm->numa_scan_seq", 17))
			continue;
		colon = strchr(line, ':');
		if (colon)
			seq = strtol(colon + 1, NULL, 10);
		break;
	}
	fclose(f);
	return seq;
}

double lab_wait_scan_seqs(unsigned long seqs, double max_secs, long *passed)
{
	long seq0 = lab_numa_scan_seq(getpid()), seq = seq0;
	double t0 = lab_now();

	while (lab_now() - t0 < max_secs) {
		seq = lab_numa_scan_seq(getpid());
		if (seq >= 0 && seq0 >= 0 && seq - seq0 >= (long)seqs)
			break;
		usleep(200 * 1000);
	}
	*passed = (seq >= 0 && seq0 >= 0) ? seq - seq0 : -1;
	return lab_now() - t0;
}

/* ---- common options -------------------------------------------------- */

void lab_opts_init(struct lab_opts *o, const char *scenario, int mode,
		   double secs, size_t size_mib)
{
	memset(o, 0, sizeof(*o));
	o->scenario = scenario;
	o->mode = mode;
	o->secs = secs;
	o->size = LAB_MIB(size_mib);
	o->cpu = -1;
	o->node = LAB_SLOW_NODE;
}

int lab_opts_add_knob(struct lab_opts *o, const char *arg)
{
	if (o->nr_knobs == LAB_MAX_KNOBS) {
		lab_warn("more than %d knobs", LAB_MAX_KNOBS);
		return -1;
	}
	o->knobs[o->nr_knobs++] = arg;
	return 0;
}

int lab_parse_ulong(const char *arg, unsigned long min, unsigned long max,
		    unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || *val < min || *val > max) {
		lab_warn("'%s' is not a number in %lu..%lu", arg, min, max);
		return -1;
	}
	return 0;
}

int lab_opts_parse(struct lab_opts *o, int opt, const char *arg)
{
	unsigned long val;
	char *end;

	switch (opt) {
	case 's':
		o->scenario = arg;
		return 1;
	case 'm':
		if (lab_parse_ulong(arg, 0, 3, &val))
			return -1;
		o->mode = val;
		return 1;
	case 't':
		o->secs = strtod(arg, &end);
		if (end == arg || *end || o->secs <= 0) {
			lab_warn("bad duration '%s'", arg);
			return -1;
		}
		return 1;
	case 'M':
		if (lab_parse_ulong(arg, 1, 1024, &val))
			return -1;
		o->size = LAB_MIB(val);
		return 1;
	case 'S':
		if (lab_parse_ulong(arg, 1, 1000, &o->passes))
			return -1;
		return 1;
	case 'c':
		if (lab_parse_ulong(arg, 0, LAB_NR_CPUS - 1, &val))
			return -1;
		o->cpu = val;
		return 1;
	case 'N':
		if (lab_parse_ulong(arg, 0, LAB_NR_NODES - 1, &val))
			return -1;
		o->node = val;
		return 1;
	case 'k':
		return lab_opts_add_knob(o, arg) ? -1 : 1;
	}
	return 0;
}

void lab_usage_common(void)
{
	fprintf(stderr,
		"common options:\n"
		"  -s ID        scenario id printed on every line\n"
		"  -m MODE      kernel.numa_balancing, 0..3\n"
		"  -t SECS      measured duration\n"
		"  -M MIB       hot set size\n"
		"  -S PASSES    end the run once the workload's processes made PASSES\n"
		"               NUMA scan passes each on average (numa_scan_seq),\n"
		"               or after -t, if sooner\n"
		"  -c CPU       run the workload on CPU (node CPU) only; its share\n"
		"               of the hot set on that node is local_pct, and t90\n"
		"               is measured on it (default: any CPU, the top tier)\n"
		"  -N NODE      the node the hot set starts the measured run on\n"
		"               (default: the lower tier, node %d)\n"
		"  -k NAME=VAL  set a knob after the fast scan defaults (repeatable):\n"
		"               scan_delay_ms scan_period_min_ms scan_period_max_ms\n"
		"               scan_size_mb hot_threshold_ms promote_rate_limit_MBps\n",
		LAB_SLOW_NODE);
}

static void __attribute__((noreturn)) usage_exit(const char *usage, int code)
{
	fprintf(stderr, "usage: %s [options]\n%s", program_invocation_short_name,
		usage);
	lab_usage_common();
	exit(code);
}

void lab_parse_args(struct lab_opts *o, int argc, char **argv,
		    const char *usage, const char *extra,
		    int (*parse_extra)(int opt, const char *arg))
{
	char optstring[64];
	int opt, ret;

	snprintf(optstring, sizeof(optstring), "%s%s", LAB_COMMON_OPTS,
		 extra ? extra : "");
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		if (opt == 'h')
			usage_exit(usage, 0);
		if (opt == '?')
			usage_exit(usage, 2);
		ret = lab_opts_parse(o, opt, optarg);
		if (ret == 0)
			ret = parse_extra && !parse_extra(opt, optarg) ? 1 : -1;
		if (ret < 0)
			usage_exit(usage, 2);
	}
	if (optind != argc)
		usage_exit(usage, 2);
}

/*
 * Pin the calling task to the CPU of -c, if given; the processes and
 * threads it creates afterwards inherit that.  Emits an error line on
 * failure.
 */
static int lab_pin(const struct lab_opts *o)
{
	unsigned long old_nodes, new_nodes;
	cpu_set_t set;

	if (o->cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(o->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		lab_warn("sched_setaffinity %d: %s", o->cpu, strerror(errno));
		lab_error(o->scenario, "pin");
		return -1;
	}
	/*
	 * What the program allocated before (its stack, its heap) may lie
	 * on the other DRAM node: placement would move it during the run
	 * and count its PTE updates with the workload's.  Move it now.
	 */
	old_nodes = (1UL << LAB_NR_NODES) - 1;
	new_nodes = 1UL << LAB_CPU_NODE(o->cpu);
	if (syscall(SYS_migrate_pages, 0, 8 * sizeof(old_nodes), &old_nodes,
		    &new_nodes) < 0)
		lab_warn("migrate_pages to node %d: %s", LAB_CPU_NODE(o->cpu),
			 strerror(errno));
	return 0;
}

int lab_opts_apply(const struct lab_opts *o)
{
	unsigned int i;

	if (lab_pin(o))
		return -1;
	if (lab_set_fast_scan())
		goto fail;
	for (i = 0; i < o->nr_knobs; i++)
		if (lab_set_knob_arg(o->knobs[i]))
			goto fail;
	if (lab_set_mode(0))
		goto fail;
	return 0;
fail:
	lab_error(o->scenario, "knobs");
	return -1;
}

int lab_enter_mode(const char *scenario, int mode)
{
	if (lab_set_mode(mode)) {
		lab_error(scenario, "mode");
		return -1;
	}
	return 0;
}

/* ---- MMU-notifier counts (lab/notifier) ------------------------------ */

bool lab_notifier_wanted(void)
{
	char buf[4096], *tok, *save;
	bool wanted = false;
	size_t len;
	FILE *f;

	f = fopen("/proc/cmdline", "r");
	if (!f)
		return false;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strncmp(tok, "lab.notifier=", 13))
			wanted = !strcmp(tok + 13, "1");
	return wanted;
}

static int notifier_delete(void)
{
	return syscall(SYS_delete_module, LAB_NOTIFIER_MODULE, O_NONBLOCK);
}

int lab_notifier_load(struct lab_notifier *n, const char *scenario, pid_t pid)
{
	char params[32];
	int fd, ret;

	memset(n, 0, sizeof(*n));
	/* An instance a program that died left behind. */
	if (!notifier_delete())
		lab_warn("unloaded %s, left loaded before", LAB_NOTIFIER_MODULE);
	snprintf(params, sizeof(params), "pid=%d", (int)pid);
	fd = open(LAB_NOTIFIER_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lab_warn("open %s: %s", LAB_NOTIFIER_KO, strerror(errno));
		goto fail;
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	if (ret)
		lab_warn("finit_module %s %s: %s", LAB_NOTIFIER_KO, params,
			 strerror(errno));
	close(fd);
	if (ret)
		goto fail;
	n->loaded = true;
	return 0;
fail:
	lab_error(scenario, "notifier-module-not-loaded");
	return -1;
}

/*
 * The stats file into @event, @calls and @bytes (LAB_NOTIFIER_MAX_ROWS
 * rows each); the number of rows, or -1 with a warning.
 */
static int notifier_read(char event[][24], unsigned long long *calls,
			 unsigned long long *bytes)
{
	char line[128];
	int nr = 0;
	FILE *f;

	f = fopen(LAB_NOTIFIER_STATS, "r");
	if (!f) {
		lab_warn("open %s: %s", LAB_NOTIFIER_STATS, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f) ||
	    strcmp(line, "event\tcalls\tbytes\n")) {
		lab_warn("%s: not the header \"event calls bytes\"",
			 LAB_NOTIFIER_STATS);
		nr = -1;
	}
	while (nr >= 0 && fgets(line, sizeof(line), f)) {
		if (nr == LAB_NOTIFIER_MAX_ROWS ||
		    sscanf(line, "%23s %llu %llu", event[nr], &calls[nr],
			   &bytes[nr]) != 3) {
			lab_warn("%s: bad row '%s'", LAB_NOTIFIER_STATS, line);
			nr = -1;
			break;
		}
		nr++;
	}
	fclose(f);
	return nr;
}

int lab_notifier_mark(struct lab_notifier *n)
{
	int nr = notifier_read(n->event, n->calls0, n->bytes0);

	n->nr = nr < 0 ? 0 : nr;
	n->stopped = false;
	return nr < 0 ? -1 : 0;
}

int lab_notifier_stop(struct lab_notifier *n)
{
	char event[LAB_NOTIFIER_MAX_ROWS][24];
	int nr, i;

	n->stopped = false;
	nr = notifier_read(event, n->calls, n->bytes);
	if (nr < 0)
		return -1;
	if ((unsigned int)nr != n->nr) {
		lab_warn("%s: %d rows, %u at the start", LAB_NOTIFIER_STATS,
			 nr, n->nr);
		return -1;
	}
	for (i = 0; i < nr; i++)
		if (strcmp(event[i], n->event[i])) {
			lab_warn("%s: row %d is %s, %s at the start",
				 LAB_NOTIFIER_STATS, i + 1, event[i],
				 n->event[i]);
			return -1;
		}
	n->stopped = true;
	return 0;
}

void lab_notifier_unload(struct lab_notifier *n)
{
	if (!n->loaded)
		return;
	if (notifier_delete())
		lab_warn("delete_module %s: %s", LAB_NOTIFIER_MODULE,
			 strerror(errno));
	n->loaded = false;
}

void lab_notifier_report(struct lab_notifier *n, const char *scenario,
			 double secs)
{
	unsigned int i;

	if (!n->loaded)
		return;
	if (!n->stopped || !n->nr)
		lab_error(scenario, "notifier-stats");
	for (i = 0; n->stopped && i < n->nr; i++)
		lab_emit("notify scenario=%s event=%s calls=%llu bytes=%llu secs=%.1f",
			 scenario, n->event[i], n->calls[i] - n->calls0[i],
			 n->bytes[i] - n->bytes0[i], secs);
	lab_notifier_unload(n);
}

/* ---- sampler --------------------------------------------------------- */

/*
 * The shares of @probe's sample on the top tier and on the run's local
 * nodes into @top and @local (-1 when it could not be read); the first
 * @t at which @local reached 90 % into @t90.
 */
static void run_shares(const struct lab_run *run, struct lab_probe *probe,
		       double t, double *top, double *local, double *t90)
{
	double pct[LAB_NR_NODES];
	int n;

	*top = *local = -1;
	if (!lab_probe_nodes_pct(probe, pct)) {
		*top = *local = 0;
		for (n = 0; n < LAB_NR_NODES; n++) {
			if (n != LAB_SLOW_NODE)
				*top += pct[n];
			if (run->local[n])
				*local += pct[n];
		}
	}
	if (*t90 < 0 && *local >= 90)
		*t90 = t;
}

static void run_sample(struct lab_run *run, double t)
{
	struct lab_part *part;
	struct lab_vmstat now;
	unsigned int i;

	run_shares(run, run->probe, t, &run->top_pct, &run->local_pct,
		   &run->t90);
	for (i = 0; i < run->nr_parts; i++) {
		part = &run->parts[i];
		run_shares(run, part->probe, t, &part->top_pct,
			   &part->local_pct, &part->t90);
		lab_emit("part scenario=%s part=%s t=%.1f top_pct=%.1f local_pct=%.1f",
			 run->scenario, part->name, t, part->top_pct,
			 part->local_pct);
	}
	lab_vmstat_read(&now);
	lab_emit("sample scenario=%s t=%.1f top_pct=%.1f local_pct=%.1f "
		 "pte_updates=%llu hint_faults=%llu pgpromote_success=%llu "
		 "pages_migrated=%llu",
		 run->scenario, t, run->top_pct, run->local_pct,
		 lab_vmstat_delta(&now, &run->base, LAB_NUMA_PTE_UPDATES),
		 lab_vmstat_delta(&now, &run->base, LAB_NUMA_HINT_FAULTS),
		 lab_vmstat_delta(&now, &run->base, LAB_PGPROMOTE_SUCCESS),
		 lab_vmstat_delta(&now, &run->base, LAB_NUMA_PAGES_MIGRATED));
}

/* Scan passes completed by the run's processes since t=0, or -1. */
static long run_scan_passes(const struct lab_run *run)
{
	long seq, sum = 0;
	unsigned int i;

	for (i = 0; i < run->nr_pids; i++) {
		seq = lab_numa_scan_seq(run->pids[i]);
		if (seq < 0 || run->seq0[i] < 0)
			return -1;
		sum += seq - run->seq0[i];
	}
	return sum;
}

/* The nodes of the CPUs the caller may run on. */
static int run_local_nodes(struct lab_run *run)
{
	cpu_set_t set;
	int cpu;

	memset(run->local, 0, sizeof(run->local));
	if (sched_getaffinity(0, sizeof(set), &set)) {
		lab_warn("sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	for (cpu = 0; cpu < LAB_NR_CPUS; cpu++)
		if (CPU_ISSET(cpu, &set))
			run->local[LAB_CPU_NODE(cpu)] = true;
	return 0;
}

/* Without tracefs nobody counts skips: nothing to mark. */
static void trace_run_begins(const char *scenario)
{
	FILE *f = fopen(LAB_TRACE_MARKER, "w");

	if (!f)
		return;
	fprintf(f, LAB_TRACE_BEGIN " scenario=%s\n", scenario);
	fclose(f);
}

int lab_run_begin(struct lab_run *run, const struct lab_opts *o,
		  const char *name, struct lab_probe *probe,
		  const pid_t *readers, unsigned int nr_readers)
{
	unsigned int i;

	run->scenario = o->scenario;
	run->name = name;
	run->mode = o->mode;
	run->secs = o->secs;
	run->passes = o->passes;
	run->nr_pids = 0;
	run->pids[run->nr_pids++] = getpid();
	for (i = 0; i < nr_readers && run->nr_pids < LAB_MAX_PROCS; i++)
		run->pids[run->nr_pids++] = readers[i];
	run->probe = probe;
	run->t90 = -1;
	run->top_pct = -1;
	run->local_pct = -1;
	run->parts = NULL;
	run->nr_parts = 0;
	if (run_local_nodes(run)) {
		lab_error(run->scenario, "affinity");
		return -1;
	}
	memset(&run->notifier, 0, sizeof(run->notifier));
	/* Before t=0: registering takes every lock of the mm's VMAs. */
	if (lab_notifier_wanted() &&
	    lab_notifier_load(&run->notifier, run->scenario, getpid()))
		return -1;
	lab_emit("begin scenario=%s name=%s mode=%d", run->scenario, name,
		 run->mode);
	if (lab_enter_mode(o->scenario, o->mode)) {
		lab_notifier_unload(&run->notifier);
		return -1;
	}
	trace_run_begins(run->scenario);
	lab_vmstat_read(&run->base);
	for (i = 0; i < run->nr_pids; i++)
		run->seq0[i] = lab_numa_scan_seq(run->pids[i]);
	if (run->passes && run_scan_passes(run) < 0) {
		lab_error(run->scenario, "no-numa-scan-seq");
		lab_notifier_unload(&run->notifier);
		return -1;
	}
	if (run->notifier.loaded && lab_notifier_mark(&run->notifier)) {
		lab_error(run->scenario, "notifier-stats");
		lab_notifier_unload(&run->notifier);
		return -1;
	}
	run->t0 = lab_now();
	run->next_sample = run->t0;
	return 0;
}

void lab_run_parts(struct lab_run *run, struct lab_part *parts,
		   unsigned int nr_parts)
{
	unsigned int i;

	for (i = 0; i < nr_parts; i++)
		parts[i].t90 = parts[i].top_pct = parts[i].local_pct = -1;
	run->parts = parts;
	run->nr_parts = nr_parts < LAB_MAX_PARTS ? nr_parts : LAB_MAX_PARTS;
}

bool lab_run_tick(struct lab_run *run)
{
	double now = lab_now();

	if (now >= run->next_sample) {
		run_sample(run, now - run->t0);
		/* Stay on the 1 s grid; skip slots missed under load. */
		while (run->next_sample <= now)
			run->next_sample += 1.0;
	}
	/*
	 * How many PTEs a pass makes PROT_NONE is what placement decides;
	 * how many passes fit in a fixed time is scheduling.  A run of a
	 * fixed number of passes compares kernels by the former.  Readers
	 * have mms of their own, scanned at their own pace: count all.
	 */
	if (run->passes &&
	    run_scan_passes(run) >= (long)(run->passes * run->nr_pids))
		return false;
	return now - run->t0 < run->secs;
}

/* A t90 as the end lines give it: "-1" when never reached. */
static const char *t90_str(double t90, char buf[32])
{
	if (t90 < 0)
		snprintf(buf, 32, "-1");
	else
		snprintf(buf, 32, "%.1f", t90);
	return buf;
}

void lab_run_end(struct lab_run *run)
{
	double secs = lab_now() - run->t0;
	long passes = run_scan_passes(run);
	struct lab_vmstat now;
	char t90[32], passes_str[32];
	unsigned int i;

	run_sample(run, secs);
	lab_vmstat_read(&now);
	if (run->notifier.loaded)
		lab_notifier_stop(&run->notifier);
	t90_str(run->t90, t90);
	if (passes < 0)
		snprintf(passes_str, sizeof(passes_str), "NA");
	else
		snprintf(passes_str, sizeof(passes_str), "%ld", passes);

#define D(item) lab_vmstat_delta(&now, &run->base, item)
	lab_emit("end scenario=%s secs=%.1f top_pct=%.1f local_pct=%.1f "
		 "t90=%s pte_updates=%llu huge_pte_updates=%llu hint_faults=%llu "
		 "hint_faults_local=%llu pages_migrated=%llu "
		 "pgpromote_success=%llu pgpromote_candidate=%llu pgdemote=%llu "
		 "scan_passes=%s hot_bytes=%zu",
		 run->scenario, secs, run->top_pct, run->local_pct, t90,
		 D(LAB_NUMA_PTE_UPDATES), D(LAB_NUMA_HUGE_PTE_UPDATES),
		 D(LAB_NUMA_HINT_FAULTS), D(LAB_NUMA_HINT_FAULTS_LOCAL),
		 D(LAB_NUMA_PAGES_MIGRATED), D(LAB_PGPROMOTE_SUCCESS),
		 D(LAB_PGPROMOTE_CANDIDATE),
		 D(LAB_PGDEMOTE_KSWAPD) + D(LAB_PGDEMOTE_DIRECT) +
		 D(LAB_PGDEMOTE_KHUGEPAGED), passes_str, run->probe->bytes);
#undef D
	for (i = 0; i < run->nr_parts; i++)
		lab_emit("partend scenario=%s part=%s top_pct=%.1f local_pct=%.1f "
			 "t90=%s hot_bytes=%zu", run->scenario,
			 run->parts[i].name, run->parts[i].top_pct,
			 run->parts[i].local_pct,
			 t90_str(run->parts[i].t90, t90),
			 run->parts[i].probe->bytes);
	lab_notifier_report(&run->notifier, run->scenario, secs);
}

/* ---- child processes ------------------------------------------------- */

pid_t lab_fork(void)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		lab_warn("fork: %s", strerror(errno));
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return pid;
}

void lab_touch_until(const struct lab_region *regions, unsigned int nr_regions,
		     double deadline)
{
	unsigned int r;

	while (lab_now() < deadline)
		for (r = 0; r < nr_regions; r++)
			lab_touch(regions[r].addr, regions[r].len);
}

pid_t lab_spawn_toucher(const struct lab_region *regions,
			unsigned int nr_regions, double deadline)
{
	pid_t pid = lab_fork();

	if (pid == 0) {
		lab_touch_until(regions, nr_regions, deadline);
		_exit(0);
	}
	return pid;
}

pid_t lab_spawn_text_user(const char *binary,
			  void (*run)(int ready_fd, double deadline),
			  double secs, unsigned long range[2])
{
	struct pollfd pfd;
	char arg[3][32];
	int pipefd[2];
	pid_t pid;

	range[1] = 0;
	if (pipe(pipefd)) {
		lab_warn("pipe: %s", strerror(errno));
		return -1;
	}
	pid = lab_fork();
	if (!pid) {
		close(pipefd[0]);
		if (run)
			run(pipefd[1], lab_now() + secs);
		/* big-text NAME SECS READY_FD; NAME: this program's. */
		prctl(PR_GET_NAME, arg[0]);
		snprintf(arg[1], sizeof(arg[1]), "%.0f", secs);
		snprintf(arg[2], sizeof(arg[2]), "%d", pipefd[1]);
		execl(binary, binary, arg[0], arg[1], arg[2], (char *)NULL);
		lab_warn("exec %s: %s", binary, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	if (pid > 0 && (poll(&pfd, 1, 60 * 1000) != 1 ||
			read(pipefd[0], range, 2 * sizeof(*range)) !=
			2 * sizeof(*range))) {
		lab_warn("%s did not run its text within 60 s",
			 run ? "a text user" : binary);
		range[1] = 0;
	}
	close(pipefd[0]);
	return pid;
}

int lab_stop_child(pid_t pid)
{
	int status = 0;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

int lab_run_hot_region(const struct lab_opts *o, const char *name,
		       const struct lab_region *hot, unsigned long nr_procs)
{
	pid_t children[LAB_MAX_PROCS] = { 0 };
	struct lab_probe probe;
	struct lab_run run;
	unsigned long i;

	if (!hot->addr || lab_probe_init(&probe, hot, 1, 1024)) {
		lab_error(o->scenario, "alloc");
		return 1;
	}
	if (lab_check_placement(o->scenario, &probe, o->node))
		return 1;

	/* The children read until stopped; the deadline is only a backstop. */
	for (i = 1; i < nr_procs; i++) {
		children[i] = lab_spawn_toucher(hot, 1, lab_now() + o->secs + 60);
		if (children[i] < 0) {
			lab_error(o->scenario, "fork");
			return 1;
		}
	}

	if (lab_run_begin(&run, o, name, &probe, children + 1, nr_procs - 1))
		return 1;
	while (lab_run_tick(&run))
		lab_touch(hot->addr, hot->len);
	lab_run_end(&run);

	for (i = 1; i < nr_procs; i++)
		lab_stop_child(children[i]);
	return 0;
}
