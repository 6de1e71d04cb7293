#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-guest.sh [-d DISK] BZIMAGE INITRD LOG [KERNEL_ARGS...]: boot the lab
# machine under QEMU (TCG) and write its serial console to LOG.  Two DRAM
# sockets and a slow tier: node 0 (CPU 0) and node 1 (CPU 1) are DRAM,
# node 2 is a CPU-less, slower node that ACPI HMAT places in a lower memory
# tier, as seen from both CPUs.  DISK (mkdisk.sh) is its virtio disk, with
# snapshot=on: the guest's writes are dropped when it ends.  Ends within
# $LAB_GUEST_TIMEOUT seconds; succeeds only when the guest printed "@@ done".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: run-guest.sh [-d DISK] BZIMAGE INITRD LOG [KERNEL_ARGS...]"
disk=
if [ "${1:-}" = -d ]; then
	disk=${2:?$usage}
	shift 2
fi
kernel=${1:?$usage}
initrd=${2:?$usage}
log=${3:?$usage}
shift 3
need qemu-system-x86_64 qemu-system-x86
[ -f "$kernel" ] || die "$kernel: no such kernel image"
[ -f "$initrd" ] || die "$initrd: no such initramfs"
[ -z "$disk" ] || [ -f "$disk" ] || die "$disk: no such disk image"
timeout=${LAB_GUEST_TIMEOUT:-1200}

# hmat_lb INITIATOR TARGET LATENCY_NS BANDWIDTH: the HMAT entries of one
# initiator-target pair.
hmat_lb() {
	printf -- '-numa hmat-lb,initiator=%s,target=%s,hierarchy=memory,data-type=%s ' \
		"$1" "$2" "access-latency,latency=$3" "$1" "$2" "access-bandwidth,bandwidth=$4"
}

set -- console=ttyS0 panic=-1 oops=panic loglevel=4 "$@"
# Two sockets of one core each, one per DRAM node: with QEMU's default
# of one socket, the two cores of one package (one LLC) lie on two
# nodes, and x86's topology_sane() WARNs at every boot.
step "booting $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") (timeout ${timeout}s, console: $log)"
# shellcheck disable=SC2046 # hmat_lb's options are words of their own
timeout -k 10 "$timeout" qemu-system-x86_64 \
	-machine q35,hmat=on -accel tcg -cpu max -smp 2,sockets=2,cores=1,threads=1 -m 3G \
	-object memory-backend-ram,id=m0,size=1G \
	-object memory-backend-ram,id=m1,size=1G \
	-object memory-backend-ram,id=m2,size=1G \
	-numa node,nodeid=0,cpus=0,memdev=m0,initiator=0 \
	-numa node,nodeid=1,cpus=1,memdev=m1,initiator=1 \
	-numa node,nodeid=2,memdev=m2,initiator=0 \
	-numa dist,src=0,dst=1,val=20 \
	-numa dist,src=0,dst=2,val=30 \
	-numa dist,src=1,dst=2,val=30 \
	$(hmat_lb 0 0 100 20G) $(hmat_lb 0 1 150 15G) $(hmat_lb 0 2 300 5G) \
	$(hmat_lb 1 1 100 20G) $(hmat_lb 1 0 150 15G) $(hmat_lb 1 2 300 5G) \
	${disk:+-drive "file=$disk,if=virtio,format=raw,snapshot=on"} \
	-display none -nographic -no-reboot -monitor none -serial stdio \
	-kernel "$kernel" -initrd "$initrd" -append "$*" </dev/null 2>&1 |
	tr -d '\r' | tee "$log" | sed -n 's/^@@ \(begin\|end\|error\|boot\) /  \1 /p' >&2 || true

if grep -q '^@@ done' "$log"; then
	exit 0
fi
why="the guest stopped before '@@ done'"
grep -q 'Kernel panic' "$log" && why="the guest kernel panicked"
[ "$(wc -c <"$log")" -gt 0 ] || why="the guest printed nothing"
# shellcheck disable=SC2154 # $prog: set by lib.sh
printf '%s: last console lines:\n' "$prog" >&2
tail -n 25 "$log" | sed 's/^/  | /' >&2
die "$why (timeout ${timeout}s; full console in $log)"
