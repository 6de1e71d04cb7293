#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-guest.sh BZIMAGE INITRD LOG [KERNEL_ARGS...]: boot the two-tier lab
# machine under QEMU (TCG) and write its serial console to LOG.  Node 0 is
# DRAM with the CPUs; node 1 is a CPU-less, slower node that ACPI HMAT places
# in a lower memory tier.  Ends within $LAB_GUEST_TIMEOUT seconds; succeeds
# only when the guest printed "@@ done".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

kernel=${1:?usage: run-guest.sh BZIMAGE INITRD LOG [KERNEL_ARGS...]}
initrd=${2:?usage: run-guest.sh BZIMAGE INITRD LOG [KERNEL_ARGS...]}
log=${3:?usage: run-guest.sh BZIMAGE INITRD LOG [KERNEL_ARGS...]}
shift 3
need qemu-system-x86_64 qemu-system-x86
[ -f "$kernel" ] || die "$kernel: no such kernel image"
[ -f "$initrd" ] || die "$initrd: no such initramfs"
timeout=${LAB_GUEST_TIMEOUT:-1200}

set -- console=ttyS0 panic=-1 oops=panic loglevel=4 "$@"
step "booting $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") (timeout ${timeout}s, console: $log)"
timeout -k 10 "$timeout" qemu-system-x86_64 \
	-machine q35,hmat=on -accel tcg -cpu max -smp 2 -m 2G \
	-object memory-backend-ram,id=m0,size=1G \
	-object memory-backend-ram,id=m1,size=1G \
	-numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0 \
	-numa node,nodeid=1,memdev=m1,initiator=0 \
	-numa dist,src=0,dst=1,val=20 \
	-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=100 \
	-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=20G \
	-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=300 \
	-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=5G \
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
