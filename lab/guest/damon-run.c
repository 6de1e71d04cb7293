// SPDX-License-Identifier: GPL-2.0
/*
 * damon-run - run one lab workload, account the CPU time it and the tiering
 * mechanism spend, and with -D make DAMON the tiering mechanism.
 *
 *   damon-run [-D] [-s ID] [DAMON options] -- PROG [ARGS...]
 *
 * PROG runs in a process group of its own, its stdout passed through line
 * by line.  Its "@@ begin" line starts the measured window (PROG switches
 * NUMA balancing to the mode of -m right after printing it); its "@@ end"
 * line ends it.  damon-run then prints one more line:
 *
 *   @@ cpu scenario=ID mech=numab|damon|none secs=S user_ms=U sys_ms=S
 *          kdamond_ms=K promoted_bytes=P demoted_bytes=D
 *
 * user_ms and sys_ms: utime and stime (with those of reaped children) of
 * every process of PROG's group over the window, from /proc/PID/stat.
 * NUMA balancing works in the context of the tasks it scans: the scan
 * (task_numa_work() on return to user space), the hinting faults and the
 * promotions they trigger are all the workload's system time, together
 * with the workload's own system calls (the 1 s move_pages(2) probe).
 *
 * With -D, before PROG starts, two kdamonds are set up through
 * /sys/kernel/mm/damon/admin, both on the physical address space
 * (operations "paddr"), after the kernel's samples/damon/mtier.c:
 *
 *   kdamond 0: the slow node's physical range; migrate_hot to node 0
 *   kdamond 1: node 0's physical range; migrate_cold to the slow node
 *
 * and started on "@@ begin", at t=0 like NUMA balancing, stopped on
 * "@@ end".  PROG must run with -m 0.  kdamond_ms is the utime+stime of
 * both kdamond threads (all their work: sampling the accessed bits through
 * rmap, region adjustment, the migrations); promoted_bytes and
 * demoted_bytes are the schemes' sz_applied statistics.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "lab.h"

#define DAMON_ADMIN	"/sys/kernel/mm/damon/admin"
#define NR_KDAMONDS	2	/* 0 promotes node 1, 1 demotes node 0 */

static const char usage[] =
	"usage: damon-run [-D] [-s ID] [options] -- PROG [ARGS...]\n"
	"Runs PROG (a lab workload) and prints \"@@ cpu\" after its \"@@ end\".\n"
	"  -s ID      scenario id for error lines before PROG's \"@@ begin\"\n"
	"  -D         DAMON as the tiering mechanism (PROG must use -m 0)\n"
	"DAMON options (defaults after samples/damon/mtier.c):\n"
	"  -S US      sampling interval (5000)\n"
	"  -A US      aggregation interval (100000)\n"
	"  -a US      schemes' apply interval (1000000)\n"
	"  -Q MIB     size quota per second of each scheme (200)\n"
	"  -u BP      promote while node 0 is used below BP/10000 (9970)\n"
	"  -f BP      demote while node 0 is free below BP/10000 (50)\n"
	"  -r MAX     maximum number of regions per kdamond (1000)\n";

static const char *scenario = "?";
static bool use_damon;
static unsigned long sample_us = 5000;
static unsigned long aggr_us = 100000;
static unsigned long apply_us = 1000000;
static unsigned long quota_mib = 200;
static unsigned long used_bp = 9970;
static unsigned long free_bp = 50;
static unsigned long max_regions = 1000;

/* ---- sysfs ----------------------------------------------------------- */

static int vwrite_file(const char *val, const char *fmt, va_list ap)
{
	char path[512];
	int fd, ret = 0;
	ssize_t len = strlen(val);

	vsnprintf(path, sizeof(path), fmt, ap);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		lab_warn("open %s: %s", path, strerror(errno));
		return -1;
	}
	if (write(fd, val, len) != len) {
		lab_warn("write '%s' to %s: %s", val, path, strerror(errno));
		ret = -1;
	}
	close(fd);
	return ret;
}

/* Write @val to the file named by @fmt; 0 or -1 (with a warning). */
static int __attribute__((format(printf, 2, 3)))
wr(const char *val, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vwrite_file(val, fmt, ap);
	va_end(ap);
	return ret;
}

static int __attribute__((format(printf, 2, 3)))
wr_ul(unsigned long val, const char *fmt, ...)
{
	char buf[32];
	va_list ap;
	int ret;

	snprintf(buf, sizeof(buf), "%lu", val);
	va_start(ap, fmt);
	ret = vwrite_file(buf, fmt, ap);
	va_end(ap);
	return ret;
}

/* First line of the file named by @fmt into @buf, newline stripped. */
static int __attribute__((format(printf, 3, 4)))
rd(char *buf, size_t size, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Whether the file or directory named by @fmt exists. */
static bool __attribute__((format(printf, 1, 2))) has(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return exists(path);
}

/* ---- node ranges ----------------------------------------------------- */

struct range {
	unsigned long long start, end;	/* physical, [start, end) */
};

/*
 * The physical address range each node spans, from the zones of
 * /proc/zoneinfo ("Node N, zone NAME", "spanned N", "start_pfn: N").
 */
static int node_ranges(struct range *r, int nr_nodes)
{
	unsigned long long spanned = 0, pfn;
	char line[256];
	int node = -1, n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	for (n = 0; n < nr_nodes; n++)
		r[n].start = r[n].end = 0;
	if (!f) {
		lab_warn("/proc/zoneinfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone", &n) == 1) {
			node = n;
			spanned = 0;
		} else if (sscanf(line, " spanned %llu", &pfn) == 1) {
			spanned = pfn;
		} else if (sscanf(line, " start_pfn: %llu", &pfn) == 1 &&
			   node >= 0 && node < nr_nodes && spanned) {
			unsigned long long s = pfn * LAB_PAGE_SIZE;
			unsigned long long e = (pfn + spanned) * LAB_PAGE_SIZE;

			if (r[node].end == 0 || s < r[node].start)
				r[node].start = s;
			if (e > r[node].end)
				r[node].end = e;
		}
	}
	fclose(f);
	for (n = 0; n < nr_nodes; n++) {
		if (r[n].end <= r[n].start) {
			lab_warn("no memory range for node %d in /proc/zoneinfo", n);
			return -1;
		}
	}
	return 0;
}

/* ---- DAMON ----------------------------------------------------------- */

#define KD	DAMON_ADMIN "/kdamonds/%d"
#define CTX	KD "/contexts/0"
#define SCH	CTX "/schemes/0"

static int damon_state(int k, const char *cmd)
{
	return wr(cmd, KD "/state", k);
}

static bool damon_on(int k)
{
	char buf[16];

	return rd(buf, sizeof(buf), KD "/state", k) == 0 && !strcmp(buf, "on");
}

/*
 * kdamond @k: monitor @r with paddr; @promote: migrate_hot of accessed
 * (young) memory to node 0 while node 0 is used below used_bp, else
 * migrate_cold of unaccessed memory to node 1 while node 0 has less than
 * free_bp free.
 */
static int damon_setup_kdamond(int k, const struct range *r, bool promote)
{
	const char *filters;
	char buf[32];
	int err = 0;

	err |= wr_ul(1, KD "/contexts/nr_contexts", k);
	err |= wr("paddr", CTX "/operations", k);
	err |= wr_ul(sample_us, CTX "/monitoring_attrs/intervals/sample_us", k);
	err |= wr_ul(aggr_us, CTX "/monitoring_attrs/intervals/aggr_us", k);
	err |= wr_ul(1000000, CTX "/monitoring_attrs/intervals/update_us", k);
	/* Fixed intervals, no auto-tuning (aggrs 0), like the fixed scan knobs. */
	if (has(CTX "/monitoring_attrs/intervals/intervals_goal", k))
		err |= wr_ul(0, CTX "/monitoring_attrs/intervals/intervals_goal/aggrs", k);
	err |= wr_ul(10, CTX "/monitoring_attrs/nr_regions/min", k);
	err |= wr_ul(max_regions, CTX "/monitoring_attrs/nr_regions/max", k);
	err |= wr_ul(1, CTX "/targets/nr_targets", k);
	err |= wr_ul(1, CTX "/targets/0/regions/nr_regions", k);
	snprintf(buf, sizeof(buf), "%llu", r->start);
	err |= wr(buf, CTX "/targets/0/regions/0/start", k);
	snprintf(buf, sizeof(buf), "%llu", r->end);
	err |= wr(buf, CTX "/targets/0/regions/0/end", k);
	if (err)
		return -1;

	err |= wr_ul(1, CTX "/schemes/nr_schemes", k);
	err |= wr(promote ? "migrate_hot" : "migrate_cold", SCH "/action", k);
	err |= wr_ul(promote ? LAB_TOP_NODE : LAB_SLOW_NODE, SCH "/target_nid", k);
	err |= wr_ul(apply_us, SCH "/apply_interval_us", k);
	/* Any size, any age; accessed at least once per aggregation, or never. */
	err |= wr_ul(LAB_PAGE_SIZE, SCH "/access_pattern/sz/min", k);
	err |= wr("18446744073709551615", SCH "/access_pattern/sz/max", k);
	err |= wr_ul(promote ? 1 : 0, SCH "/access_pattern/nr_accesses/min", k);
	err |= wr(promote ? "4294967295" : "0", SCH "/access_pattern/nr_accesses/max", k);
	err |= wr_ul(0, SCH "/access_pattern/age/min", k);
	err |= wr("4294967295", SCH "/access_pattern/age/max", k);
	/* Quota: QUOTA MiB per second, hottest (or coldest) and oldest first. */
	err |= wr_ul(0, SCH "/quotas/ms", k);
	err |= wr_ul(quota_mib << 20, SCH "/quotas/bytes", k);
	err |= wr_ul(1000, SCH "/quotas/reset_interval_ms", k);
	err |= wr_ul(0, SCH "/quotas/weights/sz_permil", k);
	err |= wr_ul(100, SCH "/quotas/weights/nr_accesses_permil", k);
	err |= wr_ul(100, SCH "/quotas/weights/age_permil", k);
	/*
	 * The goal gates the quota: "temporal" uses all of it until the goal
	 * is met, then none ("consist", the default, ramps up from 1 byte).
	 */
	if (has(SCH "/quotas/goal_tuner", k))
		err |= wr("temporal", SCH "/quotas/goal_tuner", k);
	err |= wr_ul(1, SCH "/quotas/goals/nr_goals", k);
	err |= wr(promote ? "node_mem_used_bp" : "node_mem_free_bp",
		  SCH "/quotas/goals/0/target_metric", k);
	err |= wr_ul(promote ? used_bp : free_bp, SCH "/quotas/goals/0/target_value", k);
	err |= wr_ul(LAB_TOP_NODE, SCH "/quotas/goals/0/nid", k);
	/* DAMON's watermarks use system-wide free memory: not used. */
	err |= wr("none", SCH "/watermarks/metric", k);
	/* Only pages found accessed (promote) or not accessed (demote). */
	filters = has(SCH "/ops_filters", k) ? "ops_filters" : "filters";
	err |= wr_ul(1, SCH "/%s/nr_filters", k, filters);
	err |= wr("young", SCH "/%s/0/type", k, filters);
	err |= wr("Y", SCH "/%s/0/matching", k, filters);
	err |= wr(promote ? "Y" : "N", SCH "/%s/0/allow", k, filters);
	return err ? -1 : 0;
}

static int damon_setup(void)
{
	struct range r[LAB_NR_NODES];
	char buf[32];
	int k, n = 0;

	if (!exists(DAMON_ADMIN "/kdamonds/nr_kdamonds")) {
		lab_warn("no %s: kernel without CONFIG_DAMON_SYSFS?", DAMON_ADMIN);
		return -1;
	}
	if (node_ranges(r, LAB_NR_NODES))
		return -1;
	if (rd(buf, sizeof(buf), DAMON_ADMIN "/kdamonds/nr_kdamonds") == 0)
		n = atoi(buf);
	for (k = 0; k < n; k++)
		if (damon_on(k) && damon_state(k, "off"))
			return -1;
	if (wr_ul(NR_KDAMONDS, DAMON_ADMIN "/kdamonds/nr_kdamonds"))
		return -1;
	printf("# damon-run: node %d [%#llx, %#llx) node %d [%#llx, %#llx), "
	       "sample %lu us, aggr %lu us, apply %lu us, quota %lu MiB/s, "
	       "node %d used goal %lu bp, free goal %lu bp\n",
	       LAB_TOP_NODE, r[LAB_TOP_NODE].start, r[LAB_TOP_NODE].end,
	       LAB_SLOW_NODE, r[LAB_SLOW_NODE].start, r[LAB_SLOW_NODE].end,
	       sample_us, aggr_us, apply_us, quota_mib, LAB_TOP_NODE, used_bp,
	       free_bp);
	fflush(stdout);
	if (damon_setup_kdamond(0, &r[LAB_SLOW_NODE], true) ||
	    damon_setup_kdamond(1, &r[LAB_TOP_NODE], false))
		return -1;
	return 0;
}

static int damon_start(void)
{
	int k;

	for (k = 0; k < NR_KDAMONDS; k++)
		if (damon_state(k, "on"))
			return -1;
	return 0;
}

static long kdamond_pid(int k)
{
	char buf[32];

	if (rd(buf, sizeof(buf), KD "/pid", k))
		return -1;
	return atol(buf);
}

static unsigned long long scheme_stat(int k, const char *name)
{
	char buf[32];

	if (rd(buf, sizeof(buf), SCH "/stats/%s", k, name))
		return 0;
	return strtoull(buf, NULL, 10);
}

/*
 * A "#" line (prose, not parsed) with what scheme @k tried and applied:
 * tells a scheme that found nothing from one whose migrations failed.
 */
static void print_scheme_stats(int k)
{
	printf("# damon-run: kdamond %d: tried %llu regions %llu bytes, "
	       "filters passed %llu bytes, applied %llu regions %llu bytes, "
	       "quota exceeded %llu times\n", k,
	       scheme_stat(k, "nr_tried"), scheme_stat(k, "sz_tried"),
	       scheme_stat(k, "sz_ops_filter_passed"),
	       scheme_stat(k, "nr_applied"), scheme_stat(k, "sz_applied"),
	       scheme_stat(k, "qt_exceeds"));
}

/* ---- CPU time -------------------------------------------------------- */

struct cpu {
	unsigned long long user, sys;	/* clock ticks */
};

/*
 * utime, stime, cutime, cstime of /proc/@pid/stat; the process group in
 * *@pgrp.  Fields after the command name: 3 state, 4 ppid, 5 pgrp, ...,
 * 14 utime, 15 stime, 16 cutime, 17 cstime.
 */
static int proc_cpu(long pid, long *pgrp, struct cpu *c)
{
	unsigned long long ut, st, cut, cst;
	char path[64], buf[1024], *p;
	long grp;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu %llu %llu", &grp, &ut, &st, &cut, &cst) != 5)
		return -1;
	if (pgrp)
		*pgrp = grp;
	c->user = ut + cut;
	c->sys = st + cst;
	return 0;
}

/* CPU time of every process in process group @pgrp. */
static void group_cpu(long pgrp, struct cpu *sum)
{
	struct dirent *d;
	struct cpu c;
	long grp;
	DIR *dir = opendir("/proc");

	sum->user = sum->sys = 0;
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		if (proc_cpu(atol(d->d_name), &grp, &c) || grp != pgrp)
			continue;
		sum->user += c.user;
		sum->sys += c.sys;
	}
	closedir(dir);
}

static unsigned long long kdamonds_ticks(void)
{
	unsigned long long ticks = 0;
	struct cpu c;
	long pid;
	int k;

	for (k = 0; k < NR_KDAMONDS; k++) {
		pid = kdamond_pid(k);
		if (pid > 0 && !proc_cpu(pid, NULL, &c))
			ticks += c.user + c.sys;
	}
	return ticks;
}

/* ---- the measured window --------------------------------------------- */

struct window {
	bool open;
	char scenario[64];
	int mode;
	double t0;
	struct cpu cpu0;
};

/* Value of "key=" in an "@@ " line, copied into @buf. */
static bool field(const char *line, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			snprintf(buf, size, "%.*s", (int)strcspn(p, " \n"), p);
			return true;
		}
		p += klen;
	}
	return false;
}

static void window_begin(struct window *w, const char *line, pid_t child)
{
	char mode[8] = "";

	if (!field(line, "scenario", w->scenario, sizeof(w->scenario)))
		snprintf(w->scenario, sizeof(w->scenario), "%s", scenario);
	field(line, "mode", mode, sizeof(mode));
	w->mode = atoi(mode);
	if (use_damon && w->mode != 0)
		lab_warn("NUMA balancing mode %d with DAMON: not a DAMON-only run",
			 w->mode);
	if (use_damon && damon_start())
		lab_error(w->scenario, "damon-on");
	group_cpu(child, &w->cpu0);
	w->t0 = lab_now();
	w->open = true;
}

static void window_end(struct window *w, pid_t child)
{
	double secs = lab_now() - w->t0, ms_per_tick;
	unsigned long long kd = 0, promoted = 0, demoted = 0;
	struct cpu c;
	int k;

	group_cpu(child, &c);
	if (use_damon) {
		kd = kdamonds_ticks();
		for (k = 0; k < NR_KDAMONDS; k++)
			damon_state(k, "update_schemes_stats");
		promoted = scheme_stat(0, "sz_applied");
		demoted = scheme_stat(1, "sz_applied");
		for (k = 0; k < NR_KDAMONDS; k++) {
			print_scheme_stats(k);
			damon_state(k, "off");
		}
	}
	w->open = false;
	ms_per_tick = 1000.0 / sysconf(_SC_CLK_TCK);
	lab_emit("cpu scenario=%s mech=%s secs=%.1f user_ms=%.0f sys_ms=%.0f "
		 "kdamond_ms=%.0f promoted_bytes=%llu demoted_bytes=%llu",
		 w->scenario,
		 use_damon ? "damon" : w->mode ? "numab" : "none", secs,
		 ((double)c.user - w->cpu0.user) * ms_per_tick,
		 ((double)c.sys - w->cpu0.sys) * ms_per_tick, kd * ms_per_tick,
		 promoted, demoted);
}

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'S':
		return lab_parse_ulong(arg, 100, 10000000, &sample_us);
	case 'A':
		return lab_parse_ulong(arg, 100, 100000000, &aggr_us);
	case 'a':
		return lab_parse_ulong(arg, 0, 100000000, &apply_us);
	case 'Q':
		return lab_parse_ulong(arg, 1, 65536, &quota_mib);
	case 'u':
		return lab_parse_ulong(arg, 1, 10000, &used_bp);
	case 'f':
		return lab_parse_ulong(arg, 1, 10000, &free_bp);
	case 'r':
		return lab_parse_ulong(arg, 10, 100000, &max_regions);
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct window w = { .open = false };
	size_t cap = 0;
	char *line = NULL;
	int fds[2], opt, status;
	pid_t child;
	FILE *in;

	while ((opt = getopt(argc, argv, "+Ds:S:A:a:Q:u:f:r:h")) != -1) {
		if (opt == 'D')
			use_damon = true;
		else if (opt == 's')
			scenario = optarg;
		else if (opt == 'h' || opt == '?' || parse_opt(opt, optarg)) {
			fputs(usage, stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (aggr_us < sample_us) {
		lab_warn("aggregation interval %lu us < sampling interval %lu us",
			 aggr_us, sample_us);
		return 2;
	}
	if (use_damon && damon_setup()) {
		lab_error(scenario, "damon-setup");
		return 1;
	}

	if (pipe(fds)) {
		lab_warn("pipe: %s", strerror(errno));
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		lab_warn("fork: %s", strerror(errno));
		return 1;
	}
	if (child == 0) {
		setpgid(0, 0);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[optind], argv + optind);
		lab_warn("exec %s: %s", argv[optind], strerror(errno));
		_exit(127);
	}
	setpgid(child, child);	/* either side may win the race */
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (!in) {
		lab_warn("fdopen: %s", strerror(errno));
		return 1;
	}

	while (getline(&line, &cap, in) > 0) {
		const char *at = strstr(line, "@@ ");

		fputs(line, stdout);
		fflush(stdout);
		if (!at)
			continue;
		if (!strncmp(at, "@@ begin ", 9) && !w.open)
			window_begin(&w, at, child);
		else if (!strncmp(at, "@@ end ", 7) && w.open)
			window_end(&w, child);
	}
	free(line);
	fclose(in);
	if (use_damon) {
		int k;

		/* PROG stopped before its end line: leave DAMON off. */
		for (k = 0; k < NR_KDAMONDS; k++)
			if (damon_on(k))
				damon_state(k, "off");
	}
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
