# SPDX-License-Identifier: GPL-2.0
# NUMA tiering lab and the series "sched/numa: stop VMA scan filters from
# gating promotion".  `make help` lists the targets.

LAB_CACHE ?= $(HOME)/.cache/numab-lab
export LAB_CACHE
SERIES ?= mainline
RESULTS ?= results
SCENARIOS ?= 0 1 2 3 4 5 6 7 8
export SCENARIOS

# The Debian packages the lab needs (make deps installs them as root).
DEPS := build-essential bc bison flex libelf-dev libssl-dev dwarves cpio \
	xz-utils gzip ccache git qemu-system-x86 busybox-static gnuplot-nox \
	sparse gcc-aarch64-linux-gnu b4 file libnuma-dev python3-ply python3-git shellcheck

# series directory -> kernel base and the lab kernels built from them.
base_of = $(if $(filter queue-6.12,$(1)),6.12.118,7.3.4)
kernel_of = $(if $(filter queue-6.12,$(1)),6.12.118-queue,7.3.4-series)
TREE = $(LAB_CACHE)/trees/$(call kernel_of,$(SERIES))

# Kernels for the demo: each base, and its series once it exists.
DEMO_KERNELS := 7.3.4-base $(if $(wildcard series/mainline/series),7.3.4-series)
STABLE_KERNELS := $(if $(wildcard series/queue-6.12/series),6.12.118-base 6.12.118-queue)

.PHONY: help deps demo demo-stable demo-damon scale peer peer-doc check check-full tree export mbox kernels clean-results

help:
	@echo 'make deps         install the Debian packages the lab needs (root)'
	@echo 'make demo         build base and patched kernels, run scenarios 0-8 on each,'
	@echo '                  report in $(RESULTS)/latest/ (summary.tsv, report.md, top-tier.png)'
	@echo 'make demo-stable  the same for 6.12.118 vs 6.12.118 + series/queue-6.12'
	@echo 'make demo-damon   scenarios 0-5: NUMA balancing (7.3.4-base) vs DAMON (7.3.4-damon,'
	@echo '                  NUMA balancing off) vs 7.3.4-series, with CPU cost; $(RESULTS)/damon/latest/'
	@echo 'make scale        scenario 5 over hot VMAs x threads, base vs series: table and'
	@echo '                  log-log plot in $(RESULTS)/scale/latest/ (SCALE_GRID, SCALE_SECS)'
	@echo 'make peer         demo-damon and scale, then doc/peer/ (the README'"'"'s DAMON and scale results)'
	@echo 'make peer-doc     doc/peer/ again from the latest demo-damon and scale results'
	@echo 'make check        the test suite; ends with "N passed, N failed"'
	@echo 'make check-full   check plus the debug kernels, the build matrix and bisection points'
	@echo 'make tree         kernel git tree with series/$$(SERIES) applied as commits (git am)'
	@echo 'make export       export that tree back into series/$$(SERIES) (git format-patch)'
	@echo 'make mbox         one mbox of series/$$(SERIES) for git am / b4 am'
	@echo 'Variables: SERIES=mainline|queue-6.12 SCENARIOS="0 1 ..." KSRC=/your/linux LAB_CACHE=$(LAB_CACHE)'

deps:
	@scripts/deps.sh $(DEPS)

demo:
	@scripts/deps.sh --check $(DEPS)
	@scripts/lab-run.sh $(RESULTS) $(DEMO_KERNELS)

demo-stable:
	@scripts/deps.sh --check $(DEPS)
	@test -n "$(STABLE_KERNELS)" || { echo 'make: series/queue-6.12 does not exist yet' >&2; exit 1; }
	@scripts/lab-run.sh $(RESULTS)/stable $(STABLE_KERNELS)

# Not part of check: about 20 (demo-damon) and 40 (scale) minutes of guests.
demo-damon:
	@scripts/deps.sh --check $(DEPS)
	@scripts/damon-demo.sh $(RESULTS)/damon

scale:
	@scripts/deps.sh --check $(DEPS)
	@scripts/scale.sh $(RESULTS)/scale

peer:
	@scripts/deps.sh --check $(DEPS)
	@scripts/peer.sh $(RESULTS) doc/peer

peer-doc:
	@scripts/peer.sh --doc-only $(RESULTS) doc/peer

check:
	@scripts/deps.sh $(DEPS)
	@scripts/check.sh

check-full:
	@scripts/deps.sh $(DEPS)
	@CHECK_FULL=1 scripts/check.sh

tree:
	@scripts/series-tree.sh series/$(SERIES) "$$(scripts/base-tree.sh $(call base_of,$(SERIES)))" HEAD $(TREE)
	@echo "$(TREE)"

export:
	@scripts/export-series.sh $(TREE) series/$(SERIES)

mbox:
	@scripts/mbox.sh series/$(SERIES) $(LAB_CACHE)/$(SERIES).mbox

kernels:
	@for k in $(DEMO_KERNELS) $(STABLE_KERNELS); do scripts/kernel.sh $$k || exit 1; done

clean-results:
	rm -rf $(RESULTS)

# The kernels of make demo (and of make check's lab run); the stable
# queue has its own run (make demo-stable, make check-full).
print-demo-kernels:
	@echo $(DEMO_KERNELS)
