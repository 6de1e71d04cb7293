// SPDX-License-Identifier: GPL-2.0
/*
 * s13-text - scenario 13: program text in the page cache of a disk
 * filesystem, on the slow node, run by NPROC processes: the text of a
 * static binary started NPROC times (-x, big-text), or of a shared
 * library whose segments NPROC processes map as the dynamic loader does
 * (-l, libbig-text.so).  The hot set is the text the first of them runs,
 * measured in its address space.
 *
 * On 7.3.4 a text mapping is a read-only file VMA, which task_numa_work()
 * skips (NUMAB_SKIP_SHARED_RO).  Were it scanned, its folios are mapped by
 * several processes (folio_can_map_prot_numa()), and they are file-LRU
 * folios mapped executable, which migrate_misplaced_folio_prepare()
 * refuses to migrate.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lab.h"

static const char usage[] =
	"Scenario 13: the text of a file on a disk filesystem, its page cache\n"
	"on the slow node, run by NPROC processes.  One of:\n"
	"  -x FILE      a static binary (big-text), started NPROC times\n"
	"  -l FILE      a shared library (libbig-text.so): NPROC processes\n"
	"               map its PT_LOAD segments as the loader does and run\n"
	"               its text\n"
	"  -p NPROC     processes (default 2)\n"
	"Defaults: -s 13 -m 2 -t 30.\n";

static const char *binary, *library;
static unsigned long nr_procs = 2;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'x':
		binary = arg;
		return 0;
	case 'l':
		library = arg;
		return 0;
	case 'p':
		return lab_parse_ulong(arg, 1, LAB_MAX_PROCS - 1, &nr_procs);
	}
	return -1;
}

#define MAX_PHDRS	16

/*
 * Map the PT_LOAD segments of the ELF file @fd as ld.so does: one
 * reservation for the whole image, then each segment MAP_PRIVATE and
 * MAP_FIXED at its place in it, with the protection its flags give.  The
 * executable segment goes into @text.
 */
static int map_library(int fd, struct lab_region *text)
{
	const unsigned long mask = LAB_PAGE_SIZE - 1;
	unsigned long lo = ULONG_MAX, hi = 0;
	Elf64_Phdr ph[MAX_PHDRS];
	Elf64_Ehdr eh;
	char *base;
	int i;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(*ph) || eh.e_phnum > MAX_PHDRS ||
	    pread(fd, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(*ph))) {
		lab_warn("%s: not a 64-bit ELF file", library);
		return -1;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr & ~mask;
		if (ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = (ph[i].p_vaddr + ph[i].p_memsz + mask) & ~mask;
	}
	if (hi <= lo) {
		lab_warn("%s: no PT_LOAD segment", library);
		return -1;
	}
	base = mmap(NULL, hi - lo, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED) {
		lab_warn("mmap: %s", strerror(errno));
		return -1;
	}
	text->addr = NULL;
	for (i = 0; i < eh.e_phnum; i++) {
		unsigned long start = ph[i].p_vaddr & ~mask;
		size_t len = ph[i].p_vaddr + ph[i].p_filesz - start;
		int prot = (ph[i].p_flags & PF_R ? PROT_READ : 0) |
			   (ph[i].p_flags & PF_W ? PROT_WRITE : 0) |
			   (ph[i].p_flags & PF_X ? PROT_EXEC : 0);
		char *p;

		if (ph[i].p_type != PT_LOAD || !len)
			continue;
		p = mmap(base + start - lo, len, prot, MAP_PRIVATE | MAP_FIXED,
			 fd, ph[i].p_offset & ~mask);
		if (p == MAP_FAILED) {
			lab_warn("mmap %s: %s", library, strerror(errno));
			return -1;
		}
		if (prot & PROT_EXEC) {
			text->addr = p;
			text->len = (len + mask) & ~mask;
		}
	}
	if (!text->addr) {
		lab_warn("%s: no executable segment", library);
		return -1;
	}
	return 0;
}

/* A library user: map it, run its text once, say where, run it on. */
static void run_library(int ready, double deadline)
{
	struct lab_region text = { NULL, 0 };
	int fd = open(library, O_RDONLY);

	if (fd < 0) {
		lab_warn("open %s: %s", library, strerror(errno));
		_exit(1);
	}
	if (map_library(fd, &text))
		_exit(1);
	close(fd);
	_exit(lab_run_text_until(text.addr, text.len, ready, deadline) ? 1 : 0);
}

int main(int argc, char **argv)
{
	pid_t children[LAB_MAX_PROCS] = { 0 };
	unsigned long range[2], first[2] = { 0 };
	struct lab_region hot;
	struct lab_probe probe;
	struct lab_opts o;
	struct lab_run run;
	unsigned long i;
	int status = 1;

	lab_opts_init(&o, "13", 2, 30, 0);
	lab_parse_args(&o, argc, argv, usage, "x:l:p:", parse_opt);
	if (!binary == !library) {
		lab_warn("give one of -x FILE and -l FILE (-h: usage)");
		return 2;
	}
	if (lab_opts_apply(&o))
		return 1;
	if (lab_cache_file_on_node(binary ? binary : library, o.node)) {
		lab_error(o.scenario, "alloc");
		return 1;
	}

	for (i = 0; i < nr_procs; i++) {
		children[i] = lab_spawn_text_user(binary,
						  library ? run_library : NULL,
						  o.secs + 60, range);
		if (children[i] < 0 || !range[1]) {
			lab_error(o.scenario, "start");
			goto out;
		}
		if (!i)
			memcpy(first, range, sizeof(first));
	}
	hot.addr = (void *)first[0];
	hot.len = first[1];
	if (lab_probe_init(&probe, &hot, 1, 1024)) {
		lab_error(o.scenario, "alloc");
		goto out;
	}
	probe.pid = children[0];
	if (lab_check_placement(o.scenario, &probe, o.node))
		goto out;

	if (lab_run_begin(&run, &o, binary ? "binary" : "library", &probe,
			  children, nr_procs))
		goto out;
	while (lab_run_tick(&run))
		usleep(100 * 1000);
	lab_run_end(&run);
	status = 0;
out:
	for (i = 0; i < nr_procs; i++)
		if (children[i] > 0)
			lab_stop_child(children[i]);
	return status;
}
