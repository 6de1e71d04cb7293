# shellcheck shell=sh
# shellcheck disable=SC2154 # $here, $sdir: set by check.sh, which sources this
# SPDX-License-Identifier: GPL-2.0
# series-tests.sh: sourced by check.sh with $sdir set to a series directory.
# Tests that the series applies, is checkpatch clean, is what its tree
# exports, applies from one mbox, and that every prefix builds.

# The series' kernel, its base and its tree: scripts/kernels.tsv (lib.sh).
sname=$(basename "$sdir")
skernel=$(series_kernel "$sname") || { t "$sname: a series of scripts/kernels.tsv" false; return; }
sbase=$(kernel_col "$skernel" base)
stree=$(kernel_tree "$skernel")

t "$sname: base $sbase downloaded, verified and in git" "$here/base-tree.sh" "$sbase"
btree=$("$here/base-tree.sh" "$sbase" 2>/dev/null)
t "$sname: applies with git am on $sbase" "$here/series-tree.sh" "$sdir" "$btree" HEAD "$stree"
# Making the trees (git add of a whole kernel, git am) starts no git
# process that outlives it, such as a detached git gc --auto.  Only this
# series' trees count: the lab's kernels may be building meanwhile
# (check.sh), and a kernel build runs git in its tree.
no_git_left() {
	left=
	for p in $(pgrep -x git); do
		case $(readlink "/proc/$p/cwd") in
		"$btree" | "$btree"/* | "$btree"-* | "$stree" | "$stree"/*) left="$left $(tr '\0' ' ' <"/proc/$p/cmdline")" ;;
		esac
	done
	[ -z "$left" ] || { echo "still running:$left"; return 1; }
}
t "$sname: no git process is left running in the cache" no_git_left

# The base is a one-commit import without history, so checkpatch cannot
# look up the upstream commits that Fixes: tags name (UNKNOWN_COMMIT_ID); the
# next test checks those tags instead.
# A patch that says it is a prerequisite is marked for stable with Cc:
# stable and no Fixes:, as stable-kernel-rules.rst marks the patches of a
# series that others need; checkpatch's MISSING_FIXES_TAG heuristic takes
# every Cc: stable for a fix, so it is not asked of those patches.
for p in $(cat "$sdir/series"); do
	ignore=UNKNOWN_COMMIT_ID
	! grep -q 'carries no Fixes' "$sdir/$p" ||
		ignore=$ignore,MISSING_FIXES_TAG
	t "$sname: checkpatch --strict $p: 0 errors, 0 warnings" \
		sh -c 'cd "$1" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --ignore "$3" "$2" |
			tee /dev/stderr | grep -q "total: 0 errors, 0 warnings,"' - "$btree" "$sdir/$p" "$ignore"
done

# Fixes: tags in the kernel's format, naming the commit that introduced
# what each fixing patch fixes (2 and 3: c574bbe91703, 5: fc137c0ddab2),
# none on the prerequisites 1 and 4, which change nothing on their own;
# Cc: stable on the backport set 1-5 and nowhere else, for the stable
# trees from the oldest base a series is verified on (a series kernel of
# scripts/kernels.tsv), annotated as stable-kernel-rules.rst says
# ("# 6.12.x").
stable_from=$(kernels_awk 'col("kind") == "series" { print col("base") }' | sort -V | head -n 1 | cut -d. -f1,2).x
fixes_tags() {
	grep -H '^Fixes: ' "$sdir"/*.patch
	! grep -h '^Fixes: ' "$sdir"/*.patch | grep -Ev '^Fixes: [0-9a-f]{12} \("[^"]+"\)$' &&
		for n in 0002 0003; do
			grep -q '^Fixes: c574bbe91703 ("NUMA balancing: optimize page placement for memory tiering system")$' "$sdir/$n"-*.patch || return 1
		done &&
		grep -q '^Fixes: fc137c0ddab2 ("sched/numa: enhance vma scanning logic")$' "$sdir"/0005-*.patch &&
		! grep -q '^Fixes: ' "$sdir"/0001-*.patch "$sdir"/0004-*.patch &&
		[ "$(grep -l "^Cc: stable@vger.kernel.org # $stable_from\$" "$sdir"/*.patch | sed 's#.*/##; s/-.*//' | tr '\n' ' ')" = "0001 0002 0003 0004 0005 " ]
}
t "$sname: Fixes: in the kernel's format, on 2, 3 and 5, none on the prerequisites 1 and 4, Cc: stable # $stable_from on 1-5" fixes_tags

# The committed patches are exactly what the tree exports (never
# hand-edited), byte for byte, whatever the user's git configuration says.
roundtrip() {
	tmp=$(mktemp -d)
	mkdir "$tmp/home"
	printf '[format]\n\tcc = someone@example.org\n\tsignature = sig\n\tnumbered = false\n[diff]\n\tnoprefix = true\n[core]\n\tabbrev = 20\n' \
		>"$tmp/home/.gitconfig"
	cp -r "$sdir" "$tmp/$sname"
	[ ! -f "$sdir.cover" ] || cp "$sdir.cover" "$tmp/$sname.cover"
	[ ! -f "$sdir.conf" ] || cp "$sdir.conf" "$tmp/$sname.conf"
	[ ! -f "$sdir.results" ] || cp "$sdir.results" "$tmp/$sname.results"
	# export-series.sh records what it exported as the tree's series; put
	# the record of the committed series back, or the next user of the
	# tree (the lab run) would re-make it.
	rec=$(git -C "$stree" rev-parse --absolute-git-dir)/lab-series
	cp "$rec" "$tmp/lab-series" &&
		HOME=$tmp/home "$here/export-series.sh" "$stree" "$tmp/$sname" &&
		cp "$tmp/lab-series" "$rec" &&
		diff -r "$sdir" "$tmp/$sname"
	rc=$?
	rm -rf "$tmp"
	return $rc
}
t "$sname: the tree exports back to exactly the committed patches" roundtrip

# Threaded as git send-email sends it: every patch replies to the cover
# letter (to the first patch without one), and no two share a Message-ID.
threaded() {
	# shellcheck disable=SC2046 # patch file names are words
	(cd "$sdir" && awk '
		FNR == 1 { hdr = 1; n++ }
		hdr && /^$/ { hdr = 0 }
		hdr && tolower($1) == "message-id:" { id[n] = $2; if (seen[$2]++) { print FILENAME ": Message-ID used twice"; bad = 1 } }
		hdr && tolower($1) == "in-reply-to:" { reply[n] = $2; file[n] = FILENAME }
		END {
			if (id[1] == "") { print "no Message-ID"; exit 1 }
			for (i = 2; i <= n; i++)
				if (reply[i] != id[1]) { print file[i] ": In-Reply-To " reply[i] ", not " id[1]; bad = 1 }
			exit bad
		}' $([ ! -f 0000-cover-letter.patch ] || echo 0000-cover-letter.patch) $(series_patches .)) &&
		echo "$(series_patches "$sdir" | wc -l) patches reply to one Message-ID"
}
t "$sname: every patch replies to the first message of the series" threaded

# The base-commit: line names the commit make tree makes of the base, the
# one bases.tsv pins (mktree.sh makes it reproducibly and checks it).
base_commit_line() {
	want=$(base_col "$sbase" commit)
	got=$(sed -n 's/^base-commit: //p' "$sdir"/*.patch | sort -u)
	echo "base-commit: $got, pinned for $sbase: $want, in the tree: $(git -C "$btree" rev-parse HEAD)"
	[ "$got" = "$want" ] && [ "$(git -C "$btree" rev-parse HEAD)" = "$want" ]
}
t "$sname: base-commit is the reproducible commit of base $sbase" base_commit_line

# One mbox applies with git am and with b4 am.
# A fresh worktree each time, removed whatever the outcome, so that no
# earlier run's leftovers decide this one.  It checks out only the files
# the mbox touches (a sparse checkout: the index is the whole base), which
# is all git am reads and writes; a whole kernel would take 15-20 s.
mbox_applies() {
	wt=$(mktemp -d "$LAB_CACHE/trees/.mbox-$sname.XXXXXX") || return 1
	# shellcheck disable=SC2046 # one pattern a path
	git -C "$btree" worktree add -q -f --no-checkout --detach "$wt" HEAD &&
		git -C "$wt" sparse-checkout set --no-cone \
			$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' "$1" | sort -u) &&
		git -C "$wt" read-tree -mu HEAD &&
		git -C "$wt" -c user.name=lab -c user.email=lab@localhost am -q "$1" &&
		echo "applied $(git -C "$wt" rev-list --count HEAD ^"$(git -C "$btree" rev-parse HEAD)") commits"
	rc=$?
	git -C "$btree" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$btree" worktree prune
	return $rc
}
mbox_file_applies() {
	"$here/mbox.sh" "$sdir" "$(series_mbox "$sname")" && mbox_applies "$(series_mbox "$sname")"
}
t "$sname: one mbox applies with git am" mbox_file_applies
if command -v b4 >/dev/null 2>&1; then
	b4_mbox() {
		d=$(mktemp -d)
		"$here/mbox.sh" "$sdir" "$d/in.mbox" >/dev/null &&
			mkdir -p "$d/out" &&
			(cd "$d" && b4 --offline-mode am -m in.mbox -o out -n series 2>&1) &&
			mbox_applies "$d/out/series.mbx"
		rc=$?
		rm -rf "$d"
		return $rc
	}
	t "$sname: b4 am of the mbox gives a series that git am applies" b4_mbox
fi

# make check-full: the prefixes of mainline with the lab config, the other
# configs, sparse and the arm64 cross build, and those of the stable queue
# with the lab config and NUMA_BALANCING=n (none fits in make check's hour
# beside the lab run's two kernels; see tests/README.md).
case $sname in
mainline) cfgs="${CHECK_FULL:+lab no-numa-balancing no-numa no-thp sparse arm64}" ;;
*) cfgs="${CHECK_FULL:+lab no-numa-balancing}" ;;
esac
for cfg in $cfgs; do
	t "$sname: every prefix builds the touched objects, config $cfg, no new warnings" \
		"$here/build-prefixes.sh" "$stree" "$cfg"
done
