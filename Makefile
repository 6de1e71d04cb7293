# SPDX-License-Identifier: GPL-2.0
# NUMA tiering lab and the series "sched/numa: stop VMA scan filters from
# gating promotion".  `make help` lists the targets and variables.  Kernels
# and their bases are named in scripts/kernels.tsv only; scripts/kernels.sh
# answers for a series, the scripts keep the paths under $LAB_CACHE.

# The series of make demo and of make demo-stable (directories of series/).
DEMO_SERIES := mainline
STABLE_SERIES := queue-6.12
SERIES ?= $(DEMO_SERIES)
RESULTS ?= results
# Empty: the scenarios whose suites column (lab/scenarios.tsv) names the target.
SCENARIOS ?=
export SCENARIOS
# Empty: every category of make test (tests/tap.sh lists them).
CATEGORY ?=
FAST_CATEGORIES := $(shell sed -n 's/^fast_categories="\(.*\)"$$/\1/p' tests/tap.sh)

# What the scripts set for each other, not for users: every other variable
# a script reads is in make help (check.sh tests it).
INTERNAL_VARS := CHECK_FULL CROSS_COMPILE LAB_LOOSE_CONFIG LAB_SUITE LAB_TARGETS STUCK_ROOT

# The Debian packages the lab needs (make deps installs them as root).
DEPS := build-essential bc bison flex libelf-dev libssl-dev dwarves cpio \
	xz-utils gzip ccache git qemu-system-x86 busybox-static gnuplot-nox \
	sparse gcc-aarch64-linux-gnu b4 file libnuma-dev python3-ply python3-git shellcheck e2fsprogs \
	stress-ng trinity
# and make check-full alone (the series' documentation, scripts/htmldocs-check.sh).
DEPS_FULL := python3-sphinx python3-sphinx-rtd-theme python3-yaml

.PHONY: help deps demo demo-stable demo-damon scale walk-cost peer peer-doc stuck test check check-full tree export mbox kernels clean-results

help:
	@echo 'Targets:'
	@echo '  make help          this text'
	@echo '  make deps          install the Debian packages the lab needs (root)'
	@echo '  make demo          build series/$(DEMO_SERIES)'"'"'s kernel and its base, run the scenarios on'
	@echo '                     each, report in $(RESULTS)/latest/ (summary.tsv, report.md, top-tier.png)'
	@echo '  make demo-stable   the same for series/$(STABLE_SERIES), in $(RESULTS)/stable/latest/'
	@echo '  make demo-damon    the scenarios lab/expect-damon.tsv has rules for: NUMA balancing'
	@echo '                     (base kernel) vs DAMON (the peer kernel, NUMA balancing off) vs'
	@echo '                     series/$(DEMO_SERIES), with CPU cost; $(RESULTS)/damon/latest/'
	@echo '  make scale         scenario 5 over hot VMAs x threads, base vs series: table and'
	@echo '                     log-log plot in $(RESULTS)/scale/latest/'
	@echo '  make walk-cost     scenario 14, what walking PID-inactive VMAs costs, base vs series,'
	@echo '                     $$REPEAT runs each (default 5): $(RESULTS)/walk-cost/latest/walk-cost.md'
	@echo '  make peer          demo-damon, the same for scenarios 0-3 and 18 (damon-tlb), scale and'
	@echo '                     walk-cost into $(RESULTS)/NAME, then a page of each in doc/peer/NAME.md'
	@echo '  make peer-doc      doc/peer/ again from the latest runs in $(RESULTS)'
	@echo '  make stuck PID=N   on this machine, no guest: which memory of process N is on a lower'
	@echo '                     memory tier and what keeps it there (host/stuck.sh; SECS=N: trace, root)'
	@echo '  make test          the tests that need no kernel and no guest, in a few minutes (TAP)'
	@echo '  make check         make test, then the series on their bases, the lab and the kselftests'
	@echo '                     (TAP); ends with "N passed, N failed"'
	@echo '  make check-full    check plus the debug and KCSAN kernels, the build matrix and bisection points'
	@echo '  make tree          kernel git tree with series/$$(SERIES) applied as commits (git am)'
	@echo '  make export        export that tree back into series/$$(SERIES) (git format-patch)'
	@echo '  make mbox          one mbox of series/$$(SERIES) for git am / b4 am'
	@echo '  make kernels       build the kernels of demo and demo-stable'
	@echo '  make clean-results remove $(RESULTS)'
	@echo 'Variables (make VAR=value, or the environment):'
	@echo '  SERIES            series/ directory of tree, export, mbox (now: $(SERIES))'
	@echo '  SCENARIOS         scenarios of demo, demo-stable and demo-damon, e.g. "0 6.5":'
	@echo '                    "6" is 6.0-6.5 (lab/scenarios.tsv); empty (the default): the rows'
	@echo '                    whose suites column names the target (demo, check), check-full: all'
	@echo '  DAMON_SCENARIOS   the scenarios of demo-damon, taken before SCENARIOS'
	@echo '  LAB_SECS          seconds each scenario runs instead of its own'
	@echo '  REPEAT            runs of each kernel in demo, demo-stable, demo-damon and scale'
	@echo '                    (default 1) and walk-cost (default 5): the reports give the'
	@echo '                    median and range; interrupted, the same command goes on from'
	@echo '                    the run it stopped in'
	@echo '  LAB_CPU           1: demo and demo-stable account each workload'"'"'s CPU time (cpu.tsv)'
	@echo '  LAB_NOTIFIER      1: demo, demo-stable and walk-cost boot the notifier variant of each kernel'
	@echo '                    and count each workload'"'"'s MMU-notifier invalidations (notify.tsv)'
	@echo '  WALK_KERNELS      walk-cost: the kernels measured against the base (scripts/kernels.tsv),'
	@echo '                    default the series, e.g. "7.3.4-v6 7.3.4-series"'
	@echo '  SCALE_GRID        scale: NVMASxNTHREADS points, e.g. "64x8 512x64"'
	@echo '  SCALE_SECS        scale: measured seconds per point'
	@echo '  SCALE_HOT_MIB     scale: the hot set of every point, split evenly into its VMAs (default 256)'
	@echo '  CATEGORY          make test: only these categories ($(FAST_CATEGORIES))'
	@echo '  BLESS             make test: 1 writes the reports of tests/report/*/ into their expected/'
	@echo '  PID, SECS         make stuck: the process, and seconds of the scanner'"'"'s skip reasons to record'
	@echo '  RESULTS           where the runs write their results (now: $(RESULTS))'
	@echo '  KSRC              a kernel git tree to use as the base instead of Debian'"'"'s'
	@echo '  LAB_CACHE         downloads, trees, builds, check results'
	@echo '                    (default: $$XDG_CACHE_HOME/numab-lab, or ~/.cache/numab-lab)'
	@echo '  CCACHE_DIR        ccache of the kernel builds (default: $$LAB_CACHE/ccache)'
	@echo '  JOBS              make -j of the kernel builds (default: nproc)'
	@echo '  LAB_MIRROR, LAB_SECURITY_MIRROR  Debian archives (default: apt'"'"'s configuration)'
	@echo '  LAB_GUEST_TIMEOUT time limit of a guest in seconds'
	@echo '  LAB_KSFT_TIMEOUT  time limit of a kselftest guest in seconds'
	@echo '  LAB_KSFT_RERUNS   reruns of a kselftest that regressed once'
	@echo '  BUSYBOX           the static busybox of the guest (default: /bin/busybox)'

deps:
	@scripts/deps.sh $(DEPS)

demo:
	@scripts/deps.sh --check $(DEPS)
	@k=$$(scripts/kernels.sh demo $(DEMO_SERIES)) && LAB_SUITE=demo scripts/lab-run.sh $(RESULTS) $$k

demo-stable:
	@scripts/deps.sh --check $(DEPS)
	@test -f series/$(STABLE_SERIES)/series || { echo 'make: error: series/$(STABLE_SERIES) does not exist yet' >&2; exit 1; }
	@k=$$(scripts/kernels.sh demo $(STABLE_SERIES)) && LAB_SUITE=demo scripts/lab-run.sh $(RESULTS)/stable $$k

# Not part of check: they run the guests for a long time.
demo-damon:
	@scripts/deps.sh --check $(DEPS)
	@scripts/damon-demo.sh $(RESULTS)/damon

scale:
	@scripts/deps.sh --check $(DEPS)
	@scripts/scale.sh $(RESULTS)/scale

walk-cost:
	@scripts/deps.sh --check $(DEPS)
	@scripts/walk-cost.sh $(RESULTS)/walk-cost

peer:
	@scripts/deps.sh --check $(DEPS)
	@scripts/peer.sh $(RESULTS) doc/peer

peer-doc:
	@scripts/peer.sh --doc-only $(RESULTS) doc/peer

PID ?=
SECS ?=
stuck:
	@test -n "$(PID)" || { echo 'make: error: make stuck PID=N: the process to look at' >&2; exit 1; }
	@host/stuck.sh $(if $(SECS),-t $(SECS)) $(PID)

test:
	@scripts/deps.sh $(DEPS)
	@tests/fast.sh $(foreach c,$(CATEGORY),-t $(c))

check:
	@scripts/deps.sh $(DEPS)
	@scripts/check.sh

check-full:
	@scripts/deps.sh $(DEPS) $(DEPS_FULL)
	@CHECK_FULL=1 scripts/check.sh

tree:
	@k=$$(scripts/kernels.sh kernel $(SERIES)) && scripts/kernel.sh --tree "$$k"

export:
	@t=$$(scripts/kernels.sh tree $(SERIES)) && scripts/export-series.sh "$$t" series/$(SERIES)

mbox:
	@m=$$(scripts/kernels.sh mbox $(SERIES)) && scripts/mbox.sh series/$(SERIES) "$$m"

kernels:
	@for s in $(DEMO_SERIES) $(STABLE_SERIES); do \
		[ -f series/$$s/series ] || continue; \
		k=$$(scripts/kernels.sh demo $$s) || exit 1; \
		for n in $$k; do scripts/kernel.sh $$n || exit 1; done; \
	done

clean-results:
	rm -rf $(RESULTS)
