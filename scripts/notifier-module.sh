#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# notifier-module.sh KERNEL: build the notifier variant of lab kernel
# KERNEL (scripts/kernels.tsv; scripts/kernel.sh KERNEL
# kconfig/notifier.config, in $LAB_CACHE/build/KERNEL-notifier), check that
# its .config can load the module, build lab/notifier's module against it
# with kbuild (make -C TREE O=BUILD M=DIR modules, DIR a copy of
# lab/notifier in $LAB_CACHE/notifier/KERNEL: nothing is built in the
# repository) and print the .ko.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: notifier-module.sh KERNEL"
name=${1:?$usage}
[ $# -eq 1 ] || die "$usage"
kernel_check "$name"
frag=$here/../kconfig/notifier.config
src=$here/../lab/notifier

"$here/kernel.sh" "$name" "$frag" >/dev/null || die "building the notifier variant of $name failed"
build=$("$here/kernel.sh" --build "$name" "$frag")
for opt in MODULES MODULE_UNLOAD MMU_NOTIFIER; do
	grep -qx "CONFIG_$opt=y" "$build/.config" ||
		die "$build/.config has no CONFIG_$opt=y (kconfig/notifier.config)"
done
# The tree kernel.sh built it from (an out-of-tree build's link to it).
tree=$(cd "$build/source" && pwd -P) || die "$build/source: no link to the kernel tree"

# What kernel.sh does to the build directory waits for this.
exec 9>"$LAB_CACHE/build/$name.lock"
flock 9
cc="ccache ${CROSS_COMPILE:-}gcc"
# What the bzImage build leaves out: the modules' linker script
# (scripts/module.lds) and the rest of make modules_prepare.
make -C "$tree" O="$build" CC="$cc" modules_prepare >"$build/modules_prepare.log" 2>&1 ||
	{ tail -n 20 "$build/modules_prepare.log" >&2; die "make modules_prepare failed in $build"; }
# kbuild resolves an external module's symbols from the kernel's
# Module.symvers, which make modules writes; the lab builds bzImage only,
# so no module of the tree is built (the kvm ones are not wanted), and
# vmlinux's exports (vmlinux.symvers, written with vmlinux) are all of it.
[ -s "$build/vmlinux.symvers" ] || die "$build/vmlinux.symvers: missing; is $build built?"
cmp -s "$build/vmlinux.symvers" "$build/Module.symvers" ||
	cp "$build/vmlinux.symvers" "$build/Module.symvers"

dir=$LAB_CACHE/notifier/$name
mkdir -p "$dir"
# A copy only when it changed: kbuild rebuilds by the sources' times.
for f in Kbuild numab_notifier.c; do
	cmp -s "$src/$f" "$dir/$f" || cp "$src/$f" "$dir/$f"
done
# The compiler of build-kernel.sh: kbuild compares its version text.
if ! make -C "$tree" O="$build" M="$dir" CC="$cc" modules >"$dir/build.log" 2>&1; then
	grep -E 'error|Error|WARNING' "$dir/build.log" | head -n 20 >&2
	die "building lab/notifier against $build failed; see $dir/build.log"
fi
# Warnings are bugs here, as in the guest programs (-Werror).
! grep -E 'warning:|WARNING:' "$dir/build.log" >&2 ||
	die "lab/notifier builds with warnings against $build (above; $dir/build.log)"
[ -s "$dir/numab_notifier.ko" ] || die "$dir/numab_notifier.ko: not built"
printf '%s\n' "$dir/numab_notifier.ko"
