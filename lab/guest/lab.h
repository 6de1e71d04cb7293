/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lab.h - shared helpers of the in-guest NUMA-tiering lab programs.
 *
 * The guest has three memory nodes: nodes 0 and 1 are DRAM sockets, top
 * tier, CPU n on node n; node 2 is a CPU-less "CXL" node, lower tier.
 * /init checks the tiering before any scenario runs, so the programs may
 * take nodes 0 and 1 as the top tier and node 2 as the lower one.
 *
 * Everything a scenario reports goes through lab_emit(): one "@@ " line on
 * stdout per record, key=value fields, parsed by the host.  Diagnostics go
 * to stderr (or "# " lines) and are never parsed.
 */
#ifndef LAB_H
#define LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LAB_NR_NODES	3
#define LAB_TOP_NODE	0	/* DRAM, top tier: where set-ups put "top" */
#define LAB_SLOW_NODE	2	/* CPU-less, lower tier */
/* The node of CPU @cpu: nodes 0 and 1 each have one CPU of their own. */
#define LAB_NR_CPUS	2
#define LAB_CPU_NODE(cpu)	(cpu)

#define LAB_PAGE_SIZE	4096UL

/* Page-aligned size helpers. */
#define LAB_KIB(x)	((size_t)(x) << 10)
#define LAB_MIB(x)	((size_t)(x) << 20)

/* A range of memory the scenario keeps hot. */
struct lab_region {
	void *addr;
	size_t len;
};

/* ---- output ---------------------------------------------------------- */

/* Print one "@@ <fmt>" protocol line on stdout and flush it. */
void lab_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "@@ error scenario=<id> msg=<msg>"; msg must be a single word. */
void lab_error(const char *scenario, const char *msg);
/* Diagnostic on stderr, prefixed with the program name. */
void lab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Monotonic time in seconds. */
double lab_now(void);

/* ---- NUMA balancing knobs ------------------------------------------- */

/* kernel.numa_balancing: 0 off, 1 NORMAL, 2 MEMORY_TIERING, 3 both. */
int lab_set_mode(int mode);
/*
 * Set a knob by its short name: one of the debugfs files in
 * /sys/kernel/debug/sched/numa_balancing/ (scan_delay_ms, scan_period_min_ms,
 * scan_period_max_ms, scan_size_mb, hot_threshold_ms) or
 * "promote_rate_limit_MBps" (kernel.numa_balancing_promote_rate_limit_MBps).
 */
int lab_set_knob(const char *name, long value);
/* Parse and apply "name=value" (the -k option). */
int lab_set_knob_arg(const char *arg);
/* The lab's fast scan: 100 ms delay, 200..1000 ms period. */
int lab_set_fast_scan(void);

/* ---- memory policy and placement -------------------------------------- */

/* Raw syscall wrappers (no libnuma: it has no static archive). */
long lab_set_mempolicy(int mode, const unsigned long *nodemask,
		       unsigned long maxnode);
long lab_mbind(void *addr, size_t len, int mode,
	       const unsigned long *nodemask, unsigned long maxnode,
	       unsigned int flags);
long lab_move_pages(pid_t pid, unsigned long count, void **pages,
		    const int *nodes, int *status, int flags);

/* Bind the calling thread's allocations to @node (MPOL_BIND). */
int lab_bind_to_node(int node);
/* Back to MPOL_DEFAULT: nothing of the binding is left behind. */
int lab_unbind(void);

/* Anonymous private mapping of @len bytes, or NULL (errno set). */
void *lab_map_anon(size_t len);
/* Write one byte per page so that every page is allocated. */
void lab_fault_range(void *addr, size_t len);
/*
 * Anonymous memory whose pages are allocated on @node: bind the task,
 * fault every page, reset the task policy.  The VMA gets no policy of its
 * own, so it stays eligible for NUMA balancing (a VMA policy without
 * MPOL_F_MOF would make it "unsuitable").
 */
void *lab_alloc_on_node(size_t len, int node);
/* The same in base pages only (MADV_NOHUGEPAGE before the first touch). */
void *lab_alloc_base_pages_on_node(size_t len, int node);
/*
 * @nr anonymous VMAs of @len bytes each, with an unmapped gap of @len
 * between neighbours so that they never merge, faulted on @node like
 * lab_alloc_on_node().  Returns a calloc()ed array of @nr regions.
 */
struct lab_region *lab_map_small_vmas(unsigned long nr, size_t len, int node);
/*
 * A memfd (shmem) named @name of @len bytes mapped MAP_SHARED read-write,
 * its pages allocated on @node, or NULL.
 */
void *lab_map_memfd_on_node(const char *name, size_t len, int node);
/*
 * Move the present pages of @regions to @node with move_pages(2).
 * Returns the number of pages not on @node afterwards, or -1 on error.
 */
long lab_move_regions(const struct lab_region *regions, unsigned int nr_regions,
		      int node);

/*
 * Create the file @path of @len bytes with its page cache allocated on
 * @node (task bound while writing, then reset), written back: dirty file
 * folios are never migrated.  On tmpfs the folios are shmem (swap-backed)
 * folios, on a disk filesystem file-LRU folios.
 */
int lab_create_file_on_node(const char *path, size_t len, int node);
/*
 * Put the page cache of the existing file @path on @node: drop what is
 * cached of it (it must not be mapped), then read it all with the task
 * bound to @node.
 */
int lab_cache_file_on_node(const char *path, int node);

/*
 * lab_create_file_on_node(), then map it read-only (@prot, @flags as for
 * mmap(2); the file is opened O_RDONLY) and fault every page in.  The file
 * is unlinked: the mapping keeps it.
 */
void *lab_map_file_on_node(const char *path, size_t len, int node, int prot,
			   int flags);

/* ---- hot loop -------------------------------------------------------- */

/*
 * Read one word per page of [addr, addr+len); returns a checksum.  After
 * lab_flush_after_touch(), each call ends with lab_flush_tlb().
 */
unsigned long lab_touch(const void *addr, size_t len);
/*
 * Make the kernel flush this CPU's TLB, as an address-space switch does:
 * take write permission from 1 MiB of written anonymous memory (more
 * pages than x86 flushes one by one) and give it back.  0, or -1 with a
 * warning.
 */
int lab_flush_tlb(void);
/* From now on (and in children forked later), flush after every touch. */
int lab_flush_after_touch(void);
/*
 * Run the program text [addr, addr+len): call each page that starts with
 * a function of big-text.S (a "ret"), read the first byte of the others.
 */
void lab_run_text(const void *addr, size_t len);
/*
 * Scenario 13's text users: run the text once, write its range (two
 * unsigned longs: start, length) to @ready_fd and close it, then run it
 * until @deadline (lab_now()).  Returns 0, or -1 when the write failed.
 */
int lab_run_text_until(const void *addr, size_t len, int ready_fd,
		       double deadline);

/* ---- placement probe ------------------------------------------------- */

/*
 * A bounded sample of page addresses over a set of regions, queried with
 * move_pages(2) and a NULL node list.  Querying every page of a large
 * region once a second is too slow under TCG, so at most @max_pages pages,
 * spread evenly, are queried.  The regions are the caller's, or those of
 * process @pid when it is set after lab_probe_init().
 */
struct lab_probe {
	void **pages;
	int *status;
	unsigned long nr;
	size_t bytes;		/* the regions' total length: the hot set */
	pid_t pid;		/* whose address space: 0 for the caller */
};

int lab_probe_init(struct lab_probe *probe, const struct lab_region *regions,
		   unsigned int nr_regions, unsigned long max_pages);
/* Percentage of the sampled pages resident on @node, or -1. */
double lab_probe_node_pct(struct lab_probe *probe, int node);
/*
 * Percentage of the sampled pages resident on each node into @pct (-1 on
 * error); returns 0 or -1.
 */
int lab_probe_nodes_pct(struct lab_probe *probe, double pct[LAB_NR_NODES]);
/*
 * Check that the set-up placed the hot set on @node (>= 95 % of the
 * sample); prints "@@ error ... msg=placement-failed" if not.
 */
int lab_check_placement(const char *scenario, struct lab_probe *probe,
			int node);
void lab_probe_free(struct lab_probe *probe);

/* ---- /proc/vmstat ---------------------------------------------------- */

enum lab_vmstat_item {
	LAB_NUMA_PTE_UPDATES,
	LAB_NUMA_HUGE_PTE_UPDATES,
	LAB_NUMA_HINT_FAULTS,
	LAB_NUMA_HINT_FAULTS_LOCAL,
	LAB_NUMA_PAGES_MIGRATED,
	LAB_PGPROMOTE_SUCCESS,
	LAB_PGPROMOTE_CANDIDATE,
	LAB_PGDEMOTE_KSWAPD,
	LAB_PGDEMOTE_DIRECT,
	LAB_PGDEMOTE_KHUGEPAGED,
	LAB_VMSTAT_NR,
};

/* Counters missing from this kernel's /proc/vmstat read as 0. */
struct lab_vmstat {
	unsigned long long val[LAB_VMSTAT_NR];
};

int lab_vmstat_read(struct lab_vmstat *vs);
unsigned long long lab_vmstat_delta(const struct lab_vmstat *now,
				    const struct lab_vmstat *base,
				    enum lab_vmstat_item item);

/* mm->numa_scan_seq of @pid from /proc/PID/sched, or -1. */
long lab_numa_scan_seq(pid_t pid);
/*
 * Wait until the caller's mm->numa_scan_seq has gone @seqs past its value
 * at the call, or @max_secs have passed; the sequences passed into
 * @passed (-1 when unreadable).  Returns the seconds waited.
 */
double lab_wait_scan_seqs(unsigned long seqs, double max_secs, long *passed);

/* ---- common options -------------------------------------------------- */

#define LAB_MAX_KNOBS	8

struct lab_opts {
	const char *scenario;	/* id printed on every line, e.g. "6.1" */
	int mode;		/* kernel.numa_balancing */
	double secs;		/* measured duration */
	size_t size;		/* hot set size in bytes, if the program has one */
	unsigned long passes;	/* -S: scan passes per process, or 0 */
	int cpu;		/* -c: the CPU the workload runs on, or -1 */
	int node;		/* -N: the node the hot set starts on */
	const char *knobs[LAB_MAX_KNOBS];	/* "name=value", applied in order */
	unsigned int nr_knobs;
};

/* getopt letters every program accepts; see lab_usage_common(). */
#define LAB_COMMON_OPTS "s:m:t:M:S:c:N:k:h"

/* Set defaults for the common options. */
void lab_opts_init(struct lab_opts *o, const char *scenario, int mode,
		   double secs, size_t size_mib);
/*
 * Handle one common option; returns 1 if consumed, 0 if @opt is not a
 * common option, -1 on a bad value (error already printed).
 */
int lab_opts_parse(struct lab_opts *o, int opt, const char *arg);
void lab_usage_common(void);
/* Queue a "name=value" knob; program defaults go before the -k options. */
int lab_opts_add_knob(struct lab_opts *o, const char *arg);
/* Parse an unsigned number in [min, max]; 0, or -1 with a warning. */
int lab_parse_ulong(const char *arg, unsigned long min, unsigned long max,
		    unsigned long *val);
/*
 * Parse argv: the common options plus the getopt letters in @extra, which
 * are passed to @parse_extra (returns 0, or -1 for a bad value; may be
 * NULL with @extra NULL).  -h and bad options print @usage and the common
 * options and exit.
 */
void lab_parse_args(struct lab_opts *o, int argc, char **argv,
		    const char *usage, const char *extra,
		    int (*parse_extra)(int opt, const char *arg));
/*
 * Pin the task to the CPU of -c, if given (what it allocated so far
 * moves to that CPU's node), set the fast scan knobs and the queued
 * knobs, and turn NUMA balancing off: the set-up (a task bound to a node,
 * pages faulted) must not be scanned, or its VMAs show up as "unsuitable"
 * and its PTE updates in the counters.  Emits an error line on failure.
 */
int lab_opts_apply(const struct lab_opts *o);
/*
 * Switch NUMA balancing to @mode (kernel.numa_balancing); emits the error
 * line of @scenario on failure.
 */
int lab_enter_mode(const char *scenario, int mode);

/* ---- MMU-notifier counts (lab/notifier) ------------------------------ */

/*
 * What a secondary MMU (KVM, a device sharing the address space) would be
 * told of a process' page-table changes: the lab's module numab_notifier
 * (lab/notifier/numab_notifier.c), loaded with pid=N, counts the MMU-notifier
 * invalidations of N's mm by event and its TLB flushes, in LAB_NOTIFIER_STATS
 * (a header line "event calls bytes", then a row per event).  The host puts
 * the module of the kernel it boots, which must be that kernel's notifier
 * variant (kconfig/notifier.config), at LAB_NOTIFIER_KO in the initramfs
 * and asks for the counts with lab.notifier=1 on the kernel command line
 * (scripts/walk-cost.sh, LAB_NOTIFIER=1).
 */
#define LAB_NOTIFIER_KO		"/lab/notifier/numab_notifier.ko"
#define LAB_NOTIFIER_MODULE	"numab_notifier"
#define LAB_NOTIFIER_STATS	"/sys/kernel/debug/numab_notifier/stats"
#define LAB_NOTIFIER_MAX_ROWS	16

struct lab_notifier {
	bool loaded;
	bool stopped;		/* the counts at the stop were read */
	unsigned int nr;	/* rows of the stats file */
	char event[LAB_NOTIFIER_MAX_ROWS][24];
	/* The counts at the mark and at the stop. */
	unsigned long long calls0[LAB_NOTIFIER_MAX_ROWS];
	unsigned long long bytes0[LAB_NOTIFIER_MAX_ROWS];
	unsigned long long calls[LAB_NOTIFIER_MAX_ROWS];
	unsigned long long bytes[LAB_NOTIFIER_MAX_ROWS];
};

/* Whether lab.notifier=1 is on the kernel command line. */
bool lab_notifier_wanted(void);
/*
 * Load the module for process @pid (an instance left loaded by an earlier
 * program goes first).  0, or -1 after the one line "@@ error
 * scenario=@scenario msg=notifier-module-not-loaded".
 */
int lab_notifier_load(struct lab_notifier *n, const char *scenario, pid_t pid);
/* Read the counters at the start of the measured window: 0 or -1. */
int lab_notifier_mark(struct lab_notifier *n);
/* Read them at its end (the same rows as at the mark): 0 or -1. */
int lab_notifier_stop(struct lab_notifier *n);
/*
 * Print, for each event, what happened from the mark to the stop: "@@
 * notify scenario=@scenario event=E calls=N bytes=N secs=@secs"
 * (scripts/parse-console.awk: notify.tsv), or one "@@ error ...
 * msg=notifier-stats" when the stop could not read them; then unload the
 * module.  Nothing when it is not loaded.
 */
void lab_notifier_report(struct lab_notifier *n, const char *scenario,
			 double secs);
/* Unload the module, if loaded. */
void lab_notifier_unload(struct lab_notifier *n);

/* ---- sampler --------------------------------------------------------- */

#define LAB_MAX_PROCS	16
#define LAB_MAX_PARTS	8

/*
 * A part of a scenario's hot set with a probe of its own: a run samples
 * it with the whole ("@@ part" lines) and ends with its own share and
 * t90 ("@@ partend"), so that each component of a composite workload has
 * its own time to 90 %.
 */
struct lab_part {
	const char *name;	/* one word */
	struct lab_probe *probe;
	double t90;		/* first t with local_pct >= 90, or -1 */
	double top_pct;		/* last sampled values, as the run's */
	double local_pct;
};

/*
 * One measured run: "@@ begin", a "@@ sample" about once a second, "@@ end".
 * lab_run_begin() starts NUMA balancing in the mode of -m; t counts from
 * there, and so do the vmstat deltas.
 */
struct lab_run {
	const char *scenario;
	const char *name;
	int mode;
	double secs;
	unsigned long passes;	/* -S: per process, on average */
	/* The workload's processes: the caller first, then its readers. */
	pid_t pids[LAB_MAX_PROCS];
	long seq0[LAB_MAX_PROCS];	/* their mm->numa_scan_seq at t=0 */
	unsigned int nr_pids;
	struct lab_probe *probe;
	struct lab_vmstat base;
	/*
	 * The nodes of the CPUs the caller may run on at lab_run_begin():
	 * where the hot set is used, and so where placement and promotion
	 * should bring it.  Unpinned, both top-tier nodes.
	 */
	bool local[LAB_NR_NODES];
	double t0;
	double next_sample;
	double t90;		/* first t with local_pct >= 90, or -1 */
	double top_pct;		/* last sampled values: on the top tier, */
	double local_pct;	/* and on the local nodes */
	struct lab_part *parts;	/* lab_run_parts() */
	unsigned int nr_parts;
	/*
	 * With lab.notifier=1 (lab_notifier_wanted()): the MMU-notifier
	 * counts of the caller's mm over the run, "@@ notify" lines after
	 * "@@ end".  The other processes' mms are not counted.
	 */
	struct lab_notifier notifier;
};

/*
 * What lab_run_begin() writes to the trace once the run's mode is set:
 * skipstat counts the skips from there, not those of the set-up (a scan
 * that began before the mode switch still runs in the old mode).
 */
#define LAB_TRACE_MARKER	"/sys/kernel/tracing/trace_marker"
#define LAB_TRACE_BEGIN		"lab: run begins"

/*
 * @readers: the @nr_readers processes (each with its own mm) that read the
 * hot set besides the caller; their scan passes count towards -S.  With
 * lab.notifier=1 the notifier module is loaded for the caller first, and
 * the run fails when it does not load.
 */
int lab_run_begin(struct lab_run *run, const struct lab_opts *o,
		  const char *name, struct lab_probe *probe,
		  const pid_t *readers, unsigned int nr_readers);
/*
 * Sample @nr_parts parts (at most LAB_MAX_PARTS) with the run, from its
 * next sample on; call after lab_run_begin().  Their probes may be of
 * other processes (lab_probe.pid).
 */
void lab_run_parts(struct lab_run *run, struct lab_part *parts,
		   unsigned int nr_parts);
/*
 * Take and print a sample if one is due.  Returns true while the run's
 * duration has not elapsed and, with -S, while the workload's processes
 * have completed fewer than -S scan passes each on average.
 */
bool lab_run_tick(struct lab_run *run);
/*
 * Final sample and the "@@ end" line, then a "@@ partend" line a part and,
 * with lab.notifier=1, a "@@ notify" line an event (lab_notifier_report()).
 * lab_run_end() is the only list of their fields: the host reads them by
 * name (scripts/parse-console.awk makes them the columns of ends.tsv,
 * part-ends.tsv and notify.tsv, in this order).  hot_bytes is the size of
 * the hot set top_pct is measured over: the regions of the run's (the
 * part's) probe.
 */
void lab_run_end(struct lab_run *run);

/* ---- child processes ------------------------------------------------- */

/*
 * fork() for the scenarios' helper processes: flushes stdout first (no
 * line is printed twice) and makes the child die with its parent.
 */
pid_t lab_fork(void);
/* Read @regions in a loop until @deadline (a lab_now() time) passes. */
void lab_touch_until(const struct lab_region *regions, unsigned int nr_regions,
		     double deadline);
/* Fork a child running lab_touch_until(); returns its pid or -1. */
pid_t lab_spawn_toucher(const struct lab_region *regions,
			unsigned int nr_regions, double deadline);
/*
 * Start a process running program text for @secs seconds and wait until
 * it has run all of it once: it writes its text's range (two unsigned
 * longs: start, length) to a pipe then, into @range.  The child calls
 * @run(ready_fd, deadline), which must not return, when @run is set, and
 * otherwise execs @binary (big-text: "big-text NAME SECS READY_FD").
 * Returns its pid (range[1] is 0 when it never said), or -1.
 */
pid_t lab_spawn_text_user(const char *binary,
			  void (*run)(int ready_fd, double deadline),
			  double secs, unsigned long range[2]);
/* SIGTERM and reap a child; returns its wait status. */
int lab_stop_child(pid_t pid);

/*
 * The measured run of scenarios 0-3: @hot, already allocated on the slow
 * node, is read in a loop by this process and @nr_procs - 1 forked
 * readers for the whole run.  Returns the exit status for main().
 */
int lab_run_hot_region(const struct lab_opts *o, const char *name,
		       const struct lab_region *hot, unsigned long nr_procs);

#endif /* LAB_H */
