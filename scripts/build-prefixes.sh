#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-prefixes.sh TREE CONFIG: for the base and every prefix of the series
# in TREE (made by series-tree.sh), rebuild the objects of the .c files the
# series touches with W=1 in config CONFIG, and fail on a build error or on
# a warning that the base does not have.  CONFIG is lab, sparse (lab with
# C=1: sparse on every rebuilt object), arm64 (cross-built with
# kconfig/arm64.config) or kconfig/CONFIG.config merged on top of lab.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

tree=${1:?usage: build-prefixes.sh TREE CONFIG}
cfg=${2:?usage: build-prefixes.sh TREE CONFIG}
frag=
check=
case $cfg in
lab) ;;
sparse)
	need sparse sparse
	check=C=1
	;;
arm64)
	need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
	ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
	export ARCH CROSS_COMPILE
	frag=$here/../kconfig/arm64.config
	;;
*) frag=$here/../kconfig/$cfg.config ;;
esac
[ -z "$frag" ] || [ -f "$frag" ] || die "no config fragment $frag"
base=$(cat "$(git -C "$tree" rev-parse --absolute-git-dir)/lab-base") ||
	die "$tree: not made by series-tree.sh"
commits=$(git -C "$tree" rev-list --reverse "$base..HEAD")
objs=$(git -C "$tree" diff --name-only "$base" HEAD -- '*.c' ':(exclude)tools/' | sed 's/\.c$/.o/')

name=$(basename "$tree")
wt=$LAB_CACHE/trees/.prefix-$name
out=$LAB_CACHE/build/prefix-$name-$cfg
git -C "$tree" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$tree" worktree prune
git -C "$tree" worktree add -q -f --detach "$wt" "$base"
trap 'git -C "$tree" worktree remove --force "$wt" 2>/dev/null' EXIT INT TERM

# warnings LOG: the W=1 (and sparse) warnings of LOG without line numbers,
# sorted.
warnings() {
	grep -E 'warning:|error:' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/; s#^.*/(kernel|mm|include)/#\1/#' | sort -u
}

i=0
status=0
# The configs that turn a feature off, and the objects they do not build.
feature_off=
case $cfg in no-*) feature_off=yes ;; esac
outside=
for c in "$base" $commits; do
	git -C "$wt" checkout -q --detach "$c"
	label=$(git -C "$wt" log -1 --format='%h %s' "$c")
	[ $i -eq 0 ] && label="base: $label"
	# Objects this config does not build are left out: those kbuild has no
	# rule for, and in the configs that turn a feature off (no-*), those the
	# base itself cannot compile (mm/mempolicy.o with NUMA=n: kbuild
	# compiles any .c named on the command line, built by the config or not).
	want=
	for o in $objs; do
		case " $outside " in *" $o "*) continue ;; esac
		[ -f "$wt/${o%.o}.c" ] && want="$want $o"
	done
	mkdir -p "$out"
	for o in $want; do rm -f "$out/$o"; done
	LAB_LOOSE_CONFIG=1 LAB_TARGETS="prepare" "$here/build-kernel.sh" "$wt" "$out" $frag >/dev/null 2>&1 ||
		die "configuring $cfg at $label failed; see $out/build.log"
	log=$out/objects.$i.log
	# make fails whenever this config has no rule for one of the objects;
	# what matters is judged object by object below.
	# shellcheck disable=SC2086
	make -C "$wt" O="$out" CC="ccache ${CROSS_COMPILE:-}gcc" W=1 $check -k -j"${JOBS:-$(nproc)}" $want >"$log" 2>&1 || :
	built=
	for o in $want; do
		if [ -f "$out/$o" ]; then
			built="$built $o"
		elif grep -q "No rule to make target '$o'" "$log"; then
			:
		elif [ $i -eq 0 ] && [ -n "$feature_off" ]; then
			outside="$outside $o"
			printf 'skip %s: %s is not built in config %s (the base does not compile it)\n' "$label" "$o" "$cfg"
		else
			grep -E 'error' "$log" | head -n 20
			printf 'FAIL %s: %s does not build\n' "$label" "$o"
			status=1
		fi
	done
	warnings "$log" >"$out/warnings.$i"
	if [ $i -gt 0 ]; then
		new=$(comm -13 "$out/warnings.0" "$out/warnings.$i")
		if [ -n "$new" ]; then
			printf 'FAIL %s: new W=1 warnings:\n%s\n' "$label" "$new"
			status=1
		fi
	fi
	printf '%s %s: built%s\n' "$([ $status -eq 0 ] && echo ok || echo FAIL)" "$label" "$built"
	i=$((i + 1))
done
exit $status
