#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# share-panels.sh PNG TITLE COLUMNS WIDTH DATADIR: top-tier share over time,
# one panel per line of stdin ("PANEL<tab>PANEL TITLE"), one curve per file
# DATADIR/PANEL@CURVE.dat ("t share" lines, the curve titled CURVE), in
# COLUMNS columns of WIDTH pixels.  Writes PNG, its gnuplot script beside
# it (.gp) and gnuplot's messages (.log).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage="usage: share-panels.sh PNG TITLE COLUMNS WIDTH DATADIR"
png=${1:?$usage}
title=${2:?$usage}
cols=${3:?$usage}
width=${4:?$usage}
data=${5:?$usage}
panels=$(cat)
n=$(printf '%s\n' "$panels" | grep -c .) || die "no panels to plot in $png"
rows=$(( (n + cols - 1) / cols ))
tab=$(printf '\t')
{
	printf 'set terminal pngcairo size %d,%d font ",9"\n' $((cols * width)) $((rows * 260))
	printf 'set output "%s"\n' "$png"
	printf 'set multiplot layout %d,%d title "%s"\n' "$rows" "$cols" "$title"
	printf 'set yrange [0:105]\nset xlabel "s"\nset ylabel "top tier %%"\nset key bottom right\nset grid\n'
	printf '%s\n' "$panels" | while IFS=$tab read -r panel ptitle; do
		printf 'set title "%s"\n' "$ptitle"
		printf 'plot '
		sep=
		for f in "$data/$panel"@*.dat; do
			k=${f##*@}
			printf '%s"%s" using 1:2 with lines lw 2 title "%s"' "$sep" "$f" "${k%.dat}"
			sep=', '
		done
		printf '\n'
	done
	printf 'unset multiplot\n'
} >"${png%.png}.gp"
gnuplot "${png%.png}.gp" 2>"${png%.png}.log" || die "gnuplot failed; see ${png%.png}.log"
