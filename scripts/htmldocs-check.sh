#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# htmldocs-check.sh KERNEL RESULTS: build the documentation directories
# that KERNEL's series touches (Documentation/DIR/..., SPHINXDIRS=DIR)
# with Debian's Sphinx, in KERNEL's tree and in its base's, into
# RESULTS/htmldocs/{base,series}/, and fail when the series' build warns
# where the base's does not: each warning line, its tree's path taken
# off, that the base's build lacks is printed.  Exit status 0: no new
# warning; 1: new warnings; 2: a build failed or nothing to build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
script_help "$@"

usage="usage: htmldocs-check.sh KERNEL RESULTS"
seriesk=${1:?$usage}
results=${2:?$usage}
basek=$(series_base "$seriesk")
series=$(kernel_col "$seriesk" series)
sdir=$(series_dir "${series%:*}")
# shellcheck disable=SC2046 # patch file names are words
dirs=$(cd "$sdir" && sed -n 's|^diff --git a/Documentation/\([^/]*\)/.*\.rst .*|\1|p' \
	$(series_patches . "$(kernel_patches "$seriesk")") | sort -u | tr '\n' ' ')
[ -n "$dirs" ] || { echo "series of $seriesk touches no Documentation/*/*.rst"; exit 2; }
command -v sphinx-build >/dev/null || die "no sphinx-build; install python3-sphinx (make deps)"
out=$results/htmldocs
rm -rf "$out"
for k in "$basek" "$seriesk"; do
	tree=$("$here/kernel.sh" --tree "$k")
	d=$out/$(kernel_col "$k" kind)
	mkdir -p "$d"
	step "htmldocs of $k: SPHINXDIRS=${dirs% } (log: $d/build.log)"
	# Debian's Sphinx runs on Debian's python3, whatever else is on PATH;
	# no bytecode is written into the tree.
	PATH=/usr/bin:$PATH PYTHONDONTWRITEBYTECODE=1 make -C "$tree" O="$d/build" SPHINXDIRS="${dirs% }" htmldocs >"$d/build.log" 2>&1 ||
		{ tail -n 20 "$d/build.log" >&2; echo "htmldocs of $k failed; see $d/build.log"; exit 2; }
	grep -i 'warning' "$d/build.log" | sed "s|$tree/||g; s|$d/build/||g" | sort -u >"$d/warnings"
done
new=$(comm -13 "$out/base/warnings" "$out/series/warnings")
if [ -n "$new" ]; then
	printf 'new warnings with the series (%s):\n%s\n' "$seriesk" "$new"
	exit 1
fi
echo "htmldocs of ${dirs% }: no warning on $seriesk that $basek does not have" \
	"($(wc -l <"$out/base/warnings") on $basek, $(wc -l <"$out/series/warnings") on $seriesk)"
