#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh SRC OUT [FRAGMENT...]: configure tinyconfig + kconfig/lab.config
# (+ extra fragments) out of tree in OUT and build bzImage with ccache.
# Prints OUT/arch/x86/boot/bzImage.  The same command builds any tree.
# $LAB_TARGETS replaces bzImage,
# $LAB_LOOSE_CONFIG allows fragments to switch off what lab.config enables.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

src=${1:?usage: build-kernel.sh SRC OUT [FRAGMENT...]}
out=${2:?usage: build-kernel.sh SRC OUT [FRAGMENT...]}
shift 2
[ -f "$src/Makefile" ] && [ -f "$src/mm/mprotect.c" ] && [ -x "$src/scripts/kconfig/merge_config.sh" ] ||
	die "'$src' is not a kernel source tree (no Makefile, mm/ or scripts/kconfig/); check KSRC"
need ccache ccache
need flex flex
need bison bison
mkdir -p "$out"

frags="$here/../kconfig/lab.config $*"
# Reconfigure only when a fragment changed, so rebuilds stay incremental.
stamp=$out/.lab-config.sha
want=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	step "configuring $out (tinyconfig + $(for f in $frags; do basename "$f"; done | tr '\n' ' '))"
	make -s -C "$src" O="$out" tinyconfig >"$out/.config.log" 2>&1 ||
		{ tail -n 20 "$out/.config.log" >&2; die "make tinyconfig failed in $out"; }
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags >>"$out/.config.log" 2>&1 ||
		{ tail -n 20 "$out/.config.log" >&2; die "merge_config.sh failed in $out"; }
	make -s -C "$src" O="$out" olddefconfig >>"$out/.config.log" 2>&1 ||
		{ tail -n 20 "$out/.config.log" >&2; die "make olddefconfig failed in $out"; }
	# Every =y the fragments ask for must have survived olddefconfig.
	lost=$(for f in $frags; do sed -n 's/^\(CONFIG_[A-Z0-9_]*=y\)$/\1/p' "$f"; done |
		sort -u | while read -r opt; do grep -qx "$opt" "$out/.config" || echo "$opt"; done)
	# An option this tree's Kconfig does not define cannot survive and is
	# not required: Linux 6.12 has no NUMA_MIGRATION (its MIGRATION, also
	# in lab.config, is what NUMA balancing migrates with there).
	absent=
	if [ -z "${LAB_LOOSE_CONFIG:-}" ]; then
		for opt in $lost; do
			sym=${opt%=y}
			grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$src" || absent="$absent $opt"
		done
	fi
	if [ -n "$absent" ]; then
		step "not defined by $src, not required:$absent"
		lost=$(for opt in $lost; do case " $absent " in *" $opt "*) ;; *) echo "$opt" ;; esac; done)
	fi
	[ -z "$lost" ] || [ -n "${LAB_LOOSE_CONFIG:-}" ] ||
		die "$(echo $lost) from the config fragments did not survive olddefconfig in $src"
	printf '%s\n' "$want" >"$stamp"
fi

: "${CCACHE_DIR:=$LAB_CACHE/ccache}"
export CCACHE_DIR
jobs=${JOBS:-$(nproc)}
step "building $(basename "$out") from $src (-j$jobs; log: $out/build.log)"
start=$(date +%s)
# shellcheck disable=SC2086
if ! make -C "$src" O="$out" -j"$jobs" CC="ccache ${CROSS_COMPILE:-}gcc" ${LAB_TARGETS:-bzImage} >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
	die "kernel build failed in $out; see $out/build.log"
fi
step "built $(basename "$out") in $(( $(date +%s) - start )) s"
printf '%s\n' "$out/arch/x86/boot/bzImage"
