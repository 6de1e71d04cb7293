// SPDX-License-Identifier: GPL-2.0
/*
 * numab_notifier - what a process' page-table changes cost a secondary MMU.
 *
 * A secondary MMU (KVM's stage-2 tables, a device that shares a process'
 * address space) mirrors the CPU page tables of an mm and is told of every
 * change through MMU notifiers.  NUMA balancing's change_protection()
 * starts an MMU_NOTIFY_PROTECTION_VMA invalidation for every populated
 * range it walks, before it looks at a PTE, and KVM zaps its mappings of
 * the range for each; x86's flush_tlb_mm_range() tells secondary TLBs of
 * every flush.  The lab's guest runs under TCG and has no KVM: this module
 * stands in for one and counts what it would be told.
 *
 * On load (pid=N) it registers two MMU notifiers on the mm of process N
 * (the kernel refuses a single subscription with both kinds of callback):
 *
 *   - invalidate_range_start: calls and bytes (range->end - range->start)
 *     by range->event (enum mmu_notifier_event);
 *   - arch_invalidate_secondary_tlbs: calls and bytes of the TLB flushes
 *     of a range ("tlb"), and calls of those of the whole address space
 *     (end == TLB_FLUSH_ALL, as flush_tlb_mm() and the batched flushes of
 *     reclaim and migration ask: "tlb_all", no bytes).
 *
 * /sys/kernel/debug/numab_notifier/stats, read-only: a header line, then
 * one row per event, tab-separated:
 *
 *   event	calls	bytes
 *   unmap	0	0
 *   ...
 *   tlb	0	0
 *   tlb_all	0	0
 *
 * The counters run from the load on; a reader takes differences.  When the
 * process exits, its mm calls .release and the counters stop; rmmod
 * unregisters both notifiers (mmu_notifier_unregister() waits for
 * callbacks that are running) and drops the mm.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>

static int pid;
module_param(pid, int, 0444);
MODULE_PARM_DESC(pid, "the process whose mm is watched");

/* The rows of the stats file: the events of enum mmu_notifier_event. */
static const char *const event_names[] = {
	[MMU_NOTIFY_UNMAP]		= "unmap",
	[MMU_NOTIFY_CLEAR]		= "clear",
	[MMU_NOTIFY_PROTECTION_VMA]	= "protection_vma",
	[MMU_NOTIFY_PROTECTION_PAGE]	= "protection_page",
	[MMU_NOTIFY_SOFT_DIRTY]		= "soft_dirty",
	[MMU_NOTIFY_RELEASE]		= "release",
	[MMU_NOTIFY_MIGRATE]		= "migrate",
	[MMU_NOTIFY_EXCLUSIVE]		= "exclusive",
};

#define NR_EVENTS	ARRAY_SIZE(event_names)
/* Then: an event this table does not name, and the two TLB rows. */
#define ROW_OTHER	NR_EVENTS
#define ROW_TLB		(NR_EVENTS + 1)
#define ROW_TLB_ALL	(NR_EVENTS + 2)
#define NR_ROWS		(NR_EVENTS + 3)

struct counter {
	atomic64_t calls;
	atomic64_t bytes;
};

static struct counter counters[NR_ROWS];
static struct mm_struct *watched_mm;
static struct dentry *debugfs_dir;
static bool released;

static void count(unsigned int row, unsigned long bytes)
{
	atomic64_inc(&counters[row].calls);
	atomic64_add(bytes, &counters[row].bytes);
}

/*
 * Neither callback sleeps or fails, so invalidations that may not block
 * (the OOM reaper's) are counted like the others.
 */
static int numab_invalidate_range_start(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	unsigned int row = range->event;

	if (row >= NR_EVENTS)
		row = ROW_OTHER;
	count(row, range->end - range->start);
	return 0;
}

/* x86's TLB_FLUSH_ALL: the end of a flush of the whole address space. */
#define FLUSH_ALL	ULONG_MAX

static void numab_secondary_tlbs(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long start,
				 unsigned long end)
{
	if (end == FLUSH_ALL)
		count(ROW_TLB_ALL, 0);
	else
		count(ROW_TLB, end - start);
}

/* The process exits (exit_mmap()): nothing to tear down, no more calls. */
static void numab_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	WRITE_ONCE(released, true);
}

static const struct mmu_notifier_ops range_ops = {
	.release		= numab_release,
	.invalidate_range_start	= numab_invalidate_range_start,
};

static const struct mmu_notifier_ops tlb_ops = {
	.release			= numab_release,
	.arch_invalidate_secondary_tlbs	= numab_secondary_tlbs,
};

static struct mmu_notifier range_mn = { .ops = &range_ops };
static struct mmu_notifier tlb_mn = { .ops = &tlb_ops };

static int stats_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_puts(m, "event\tcalls\tbytes\n");
	for (i = 0; i < NR_ROWS; i++) {
		const char *name = i < NR_EVENTS ? event_names[i] :
				   i == ROW_OTHER ? "other" :
				   i == ROW_TLB ? "tlb" : "tlb_all";

		seq_printf(m, "%s\t%lld\t%lld\n", name ? name : "other",
			   (long long)atomic64_read(&counters[i].calls),
			   (long long)atomic64_read(&counters[i].bytes));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static struct mm_struct *pid_mm(int nr)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *p;

	p = find_get_pid(nr);
	if (!p)
		return NULL;
	task = get_pid_task(p, PIDTYPE_PID);
	put_pid(p);
	if (!task)
		return NULL;
	/* NULL for a kernel thread or a process that is exiting. */
	mm = get_task_mm(task);
	put_task_struct(task);
	return mm;
}

static int __init numab_notifier_init(void)
{
	struct mm_struct *mm;
	int err;

	if (pid <= 0) {
		pr_err("numab_notifier: give the process, pid=N\n");
		return -EINVAL;
	}
	mm = pid_mm(pid);
	if (!mm) {
		pr_err("numab_notifier: no process %d with an mm\n", pid);
		return -ESRCH;
	}
	/* Each registration takes a reference on mm_count until unregistered. */
	err = mmu_notifier_register(&range_mn, mm);
	if (err)
		goto out;
	err = mmu_notifier_register(&tlb_mn, mm);
	if (err) {
		mmu_notifier_unregister(&range_mn, mm);
		goto out;
	}
	watched_mm = mm;
	debugfs_dir = debugfs_create_dir("numab_notifier", NULL);
	debugfs_create_file("stats", 0444, debugfs_dir, NULL, &stats_fops);
	pr_info("numab_notifier: watching the mm of process %d\n", pid);
out:
	/*
	 * The mm_users reference of get_task_mm() goes: the process may exit
	 * now, which is the release callback's business.
	 */
	mmput(mm);
	return err;
}

static void __exit numab_notifier_exit(void)
{
	/* Unregistering calls .release too, if the process had not exited. */
	bool exited = READ_ONCE(released);

	debugfs_remove(debugfs_dir);
	/* Also after the process exited: the mm_count references keep it. */
	mmu_notifier_unregister(&tlb_mn, watched_mm);
	mmu_notifier_unregister(&range_mn, watched_mm);
	pr_info("numab_notifier: done with process %d%s\n", pid,
		exited ? " (it had exited)" : "");
}

module_init(numab_notifier_init);
module_exit(numab_notifier_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Count the MMU-notifier invalidations and TLB flushes of a process' mm");
