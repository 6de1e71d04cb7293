// SPDX-License-Identifier: GPL-2.0
/*
 * skipstat - attribute the memory that NUMA balancing skips.
 *
 * Reads sched:sched_skip_vma_numa events as text, from tracefs' trace_pipe
 * (streaming, until SIGTERM/SIGINT or EOF) or from a file or stdin, and
 * prints per process and skip reason how many events there were, how many
 * distinct VMAs (by vm_start/vm_end) they named and how many bytes those
 * VMAs span:
 *
 *   @@ skip scenario=S comm=C pid=P reason=R events=N vmas=N bytes=N event_bytes=N
 *
 * bytes sums vm_end - vm_start over distinct VMAs, event_bytes over all
 * events.  With the "record-tgid" trace option on, events of all threads
 * are counted under the thread group id; otherwise under the thread's pid.
 * comm is the first one recorded for that id ("<...>" if the trace never
 * had one); characters that would break the key=value format become '_'.
 *
 * Memory is bounded: fixed-size open-addressing tables.  The closing
 * "# skipstat" line counts events that did not fit ("dropped"), event lines
 * that did not parse ("malformed") and events the kernel lost ("lost",
 * from "[LOST n EVENTS]" lines): if any is non-zero the counts above are
 * lower bounds.
 *
 * A lab program marks the trace when its measured run begins
 * (LAB_TRACE_BEGIN, lab.h): everything is counted from the last such mark,
 * so the skips of a set-up do not count.  "begins" counts the marks.
 *
 * The event's text (include/trace/events/sched.h):
 *   <comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <timestamp>: sched_skip_vma_numa:
 *     numa_scan_offset=%lX vm_start=%lX vm_end=%lX reason=%s
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

#define TRACE_PIPE	"/sys/kernel/tracing/trace_pipe"
#define EVENT_MARKER	" sched_skip_vma_numa: "
#define BEGIN_MARKER	" tracing_mark_write: " LAB_TRACE_BEGIN

#define COMM_LEN	32	/* TASK_COMM_LEN is 16; room for odd input */
#define REASON_LEN	32

#define ROW_SLOTS	2048	/* power of two */
#define MAX_ROWS	(ROW_SLOTS / 2)
#define VMA_SLOTS	(1u << 18)	/* power of two, ~6 MiB */
#define MAX_VMAS	(VMA_SLOTS / 4 * 3)

#define LINE_MAX_LEN	4096

struct event {
	char comm[COMM_LEN];
	int id;			/* tgid if the trace has it, else pid */
	char reason[REASON_LEN];
	unsigned long vm_start;
	unsigned long vm_end;
};

/* One output line: an (id, reason) key, the comm and the counters. */
struct row {
	bool used;
	char comm[COMM_LEN];
	int id;
	char reason[REASON_LEN];
	unsigned long long events;
	unsigned long long vmas;
	unsigned long long bytes;
	unsigned long long event_bytes;
};

/* A distinct VMA seen for one row. */
struct vma_key {
	bool used;
	unsigned int row;
	unsigned long start;
	unsigned long end;
};

static struct row rows[ROW_SLOTS];
static unsigned int nr_rows;
static struct vma_key vmas[VMA_SLOTS];
static unsigned int nr_vmas;

static struct {
	unsigned long long lines;
	unsigned long long events;
	unsigned long long lost;	/* reported lost by the kernel */
	unsigned long long malformed;	/* event lines we could not parse */
	unsigned long long dropped;	/* did not fit our tables */
	unsigned long long begins;	/* runs begun: counted from the last */
} totals;

static volatile sig_atomic_t stop_requested;

/* ---- tables ---------------------------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* FNV-1a */
	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

#define HASH_INIT	0xcbf29ce484222325ULL

/*
 * The trace prints "<...>" for a comm it has not recorded (yet): a process
 * is its id, and its row takes the first real comm that shows up.
 */
static bool comm_unknown(const char *comm)
{
	return !strcmp(comm, "<...>");
}

static struct row *find_row(const struct event *ev)
{
	uint64_t h = HASH_INIT;
	unsigned int i;

	h = hash_bytes(h, &ev->id, sizeof(ev->id));
	h = hash_bytes(h, ev->reason, strlen(ev->reason));
	for (i = h & (ROW_SLOTS - 1);; i = (i + 1) & (ROW_SLOTS - 1)) {
		struct row *r = &rows[i];

		if (!r->used)
			break;
		if (r->id != ev->id || strcmp(r->reason, ev->reason))
			continue;
		if (comm_unknown(r->comm) && !comm_unknown(ev->comm))
			snprintf(r->comm, sizeof(r->comm), "%s", ev->comm);
		return r;
	}
	if (nr_rows == MAX_ROWS)
		return NULL;
	nr_rows++;
	rows[i].used = true;
	rows[i].id = ev->id;
	snprintf(rows[i].comm, sizeof(rows[i].comm), "%s", ev->comm);
	snprintf(rows[i].reason, sizeof(rows[i].reason), "%s", ev->reason);
	return &rows[i];
}

/* Returns 1 if the VMA is new for @row, 0 if seen, -1 if the table is full. */
static int add_vma(unsigned int row, unsigned long start, unsigned long end)
{
	uint64_t h = HASH_INIT;
	unsigned int i;

	h = hash_bytes(h, &row, sizeof(row));
	h = hash_bytes(h, &start, sizeof(start));
	h = hash_bytes(h, &end, sizeof(end));
	for (i = h & (VMA_SLOTS - 1);; i = (i + 1) & (VMA_SLOTS - 1)) {
		struct vma_key *v = &vmas[i];

		if (!v->used)
			break;
		if (v->row == row && v->start == start && v->end == end)
			return 0;
	}
	if (nr_vmas == MAX_VMAS)
		return -1;
	nr_vmas++;
	vmas[i] = (struct vma_key){ true, row, start, end };
	return 1;
}

static void account(const struct event *ev)
{
	unsigned long len = ev->vm_end - ev->vm_start;
	struct row *r = find_row(ev);

	totals.events++;
	if (!r) {
		totals.dropped++;
		return;
	}
	r->events++;
	r->event_bytes += len;
	switch (add_vma(r - rows, ev->vm_start, ev->vm_end)) {
	case 1:
		r->vmas++;
		r->bytes += len;
		break;
	case -1:
		totals.dropped++;
		break;
	}
}

/* ---- parsing --------------------------------------------------------- */

/*
 * Cut the last blank-separated token off the string [s, *end): returns it
 * NUL-terminated and moves *end to its start; NULL if none is left.
 */
static char *pop_token(char *s, char **end)
{
	char *p = *end, *tok_end;

	while (p > s && isspace((unsigned char)p[-1]))
		p--;
	tok_end = p;
	while (p > s && !isspace((unsigned char)p[-1]))
		p--;
	if (p == tok_end)
		return NULL;
	*tok_end = '\0';
	*end = p;
	return p;
}

static bool is_cpu_token(const char *tok)
{
	size_t len = strlen(tok);

	return len >= 3 && tok[0] == '[' && tok[len - 1] == ']' &&
	       strspn(tok + 1, "0123456789") == len - 2;
}

static bool parse_int(const char *s, int *val)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT32_MAX)
		return false;
	*val = v;
	return true;
}

static char *skip_blanks(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Move @end back over blanks, not past @s. */
static char *trim_end(char *s, char *end)
{
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

/*
 * The line prefix "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <ts>:",
 * parsed from the right: comm may hold blanks and dashes, the pid is what
 * follows its last dash.
 */
static bool parse_prefix(char *s, struct event *ev)
{
	char *end = s + strlen(s), *tok, *dash, *open;
	int pid, tgid = -1;
	size_t i;

	tok = pop_token(s, &end);		/* timestamp */
	if (!tok || tok[strlen(tok) - 1] != ':')
		return false;
	tok = pop_token(s, &end);		/* flags, unless irq-info is off */
	if (tok && !is_cpu_token(tok))
		tok = pop_token(s, &end);
	if (!tok || !is_cpu_token(tok))
		return false;

	end = trim_end(s, end);
	if (end > s && end[-1] == ')') {	/* "(  tgid)" or "(-------)" */
		open = memrchr(s, '(', end - s);
		if (!open)
			return false;
		end[-1] = '\0';
		if (!parse_int(skip_blanks(open + 1), &tgid))
			tgid = -1;
		end = trim_end(s, open);
	}
	*end = '\0';

	s = skip_blanks(s);
	dash = strrchr(s, '-');
	if (!dash || dash == s || !parse_int(dash + 1, &pid))
		return false;
	*dash = '\0';

	snprintf(ev->comm, sizeof(ev->comm), "%s", s);
	for (i = 0; ev->comm[i]; i++)
		if (!isgraph((unsigned char)ev->comm[i]) || ev->comm[i] == '=')
			ev->comm[i] = '_';
	ev->id = tgid > 0 ? tgid : pid;
	return true;
}

static bool parse_hex_field(const char *s, const char *key, unsigned long *val)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return false;
	p += strlen(key);
	errno = 0;
	*val = strtoul(p, &end, 16);
	return !errno && end != p && (!*end || isspace((unsigned char)*end));
}

static bool parse_fields(const char *s, struct event *ev)
{
	const char *p = strstr(s, "reason=");
	size_t len;

	if (!parse_hex_field(s, " vm_start=", &ev->vm_start) ||
	    !parse_hex_field(s, " vm_end=", &ev->vm_end) ||
	    ev->vm_end < ev->vm_start || !p)
		return false;
	p += strlen("reason=");
	len = strcspn(p, " \t\r\n");
	if (!len || len >= sizeof(ev->reason))
		return false;
	memcpy(ev->reason, p, len);
	ev->reason[len] = '\0';
	return true;
}

/* Forget everything counted so far but the lines read. */
static void forget_counts(void)
{
	memset(rows, 0, sizeof(rows));
	nr_rows = 0;
	memset(vmas, 0, sizeof(vmas));
	nr_vmas = 0;
	totals.events = 0;
	totals.lost = 0;
	totals.malformed = 0;
	totals.dropped = 0;
}

static void parse_line(char *line)
{
	char *marker, *lost;
	struct event ev;

	totals.lines++;
	if (strstr(line, BEGIN_MARKER)) {
		forget_counts();
		totals.begins++;
		return;
	}
	lost = strstr(line, "[LOST ");
	if (lost) {
		totals.lost += strtoull(lost + 6, NULL, 10);
		return;
	}
	marker = strstr(line, EVENT_MARKER);
	if (!marker)
		return;
	*marker = '\0';
	if (!parse_prefix(line, &ev) ||
	    !parse_fields(marker + strlen(EVENT_MARKER) - 1, &ev)) {
		totals.malformed++;
		return;
	}
	account(&ev);
}

/* ---- input ----------------------------------------------------------- */

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * Feed the lines of @fd to parse_line() until EOF, or until a stop was
 * requested and what the kernel had buffered is drained.  poll() with a
 * timeout keeps a stop request from waiting on a read that never returns.
 */
static int read_lines(int fd)
{
	static char buf[64 * 1024];
	size_t len = 0;
	bool draining = false;
	ssize_t n;

	for (;;) {
		char *line, *nl;

		if (stop_requested && !draining) {
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
			draining = true;
		}
		if (!draining) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (poll(&pfd, 1, 200) <= 0)
				continue;
		}

		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				if (draining)
					break;
				continue;
			}
			perror("skipstat: read");
			return -1;
		}
		len += n;
		buf[len] = '\0';

		line = buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			parse_line(line);
			line = nl + 1;
		}
		len -= line - buf;
		memmove(buf, line, len);
		if (len >= LINE_MAX_LEN) {	/* no newline in sight: drop it */
			totals.lines++;
			totals.malformed++;
			len = 0;
		}
	}
	if (len) {
		buf[len] = '\0';
		parse_line(buf);
	}
	return 0;
}

/* ---- output ---------------------------------------------------------- */

static int compare_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->used != y->used)
		return x->used ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->reason, y->reason);
}

static void report(const char *scenario)
{
	unsigned int i;

	/* The VMA table refers to rows by index: it is not used after this. */
	qsort(rows, ROW_SLOTS, sizeof(rows[0]), compare_rows);
	for (i = 0; i < nr_rows; i++)
		printf("@@ skip scenario=%s comm=%s pid=%d reason=%s events=%llu "
		       "vmas=%llu bytes=%llu event_bytes=%llu\n",
		       scenario, rows[i].comm, rows[i].id, rows[i].reason,
		       rows[i].events, rows[i].vmas, rows[i].bytes,
		       rows[i].event_bytes);
	printf("# skipstat scenario=%s lines=%llu events=%llu lost=%llu "
	       "malformed=%llu dropped=%llu begins=%llu\n", scenario,
	       totals.lines, totals.events, totals.lost, totals.malformed,
	       totals.dropped, totals.begins);
	fflush(stdout);
}

static void usage(int code)
{
	fprintf(stderr,
		"usage: skipstat [-s SCENARIO] [FILE]\n"
		"Summarize sched_skip_vma_numa trace events per process and reason.\n"
		"FILE defaults to " TRACE_PIPE " (read until SIGTERM,\n"
		"SIGINT or EOF); '-' reads stdin.\n");
	exit(code);
}

int main(int argc, char **argv)
{
	const char *scenario = "-", *path = TRACE_PIPE;
	struct sigaction sa = { .sa_handler = on_stop };
	int opt, fd;

	while ((opt = getopt(argc, argv, "s:h")) != -1) {
		switch (opt) {
		case 's':
			scenario = optarg;
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(2);
		}
	}
	if (argc - optind > 1)
		usage(2);
	if (optind < argc)
		path = argv[optind];

	/* No SA_RESTART: a stop request must interrupt a blocking read. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	if (fd < 0) {
		fprintf(stderr, "skipstat: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (read_lines(fd))
		return 1;
	report(scenario);
	return 0;
}
