# shellcheck shell=sh
# shellcheck disable=SC2154 # $scripts, $top, $logs, refused(): set by the runner, which sources this
# SPDX-License-Identifier: GPL-2.0
# tree.sh: the fast tier's tests of the series workflow of the README
# (make tree, edit and commit there, make export) on scratch trees: a
# tree holding work is never made again, a changed base is honoured, an
# export round-trips byte for byte, and bad names are refused before
# anything is fetched.

# The workflow does not depend on the kernel: the trees here are of a
# small base repository (checking out a kernel tree five times would cost
# minutes), with a series of two patches and a cover letter that the
# scripts under test export themselves.
tt_name=fixture
# gitc ARGS: git with a fixed identity and date.
gitc() {
	GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org GIT_AUTHOR_DATE="2026-01-02T03:04:05Z" \
		GIT_COMMITTER_NAME="A U Thor" GIT_COMMITTER_EMAIL=author@example.org \
		GIT_COMMITTER_DATE="2026-01-02T03:04:05Z" git "$@"
}
# tt_setup: in a scratch directory $tt, the base repository $tt/base, the
# series $tt/$tt_name (with its cover and conf) and a tree made from it,
# $tt/t.
tt_setup() {
	tt=$(mktemp -d) || return 1
	tt_base=$tt/base
	git init -q -b master "$tt_base" && mkdir "$tt_base/mm" &&
		printf 'int a;\n' >"$tt_base/mm/a.c" && printf 'int b;\n' >"$tt_base/mm/b.c" &&
		git -C "$tt_base" add -A && gitc -C "$tt_base" commit -qm base &&
		git -C "$tt_base" worktree add -q "$tt/w" && git -C "$tt/w" rev-parse HEAD >"$tt_base/.git/worktrees/w/lab-base" &&
		printf 'int a = 1;\n' >"$tt/w/mm/a.c" && gitc -C "$tt/w" commit -qam "mm: set a" &&
		printf 'int c;\n' >"$tt/w/mm/c.c" && git -C "$tt/w" add mm/c.c && gitc -C "$tt/w" commit -qm "mm: add c" &&
		mkdir "$tt/$tt_name" && : >"$tt/$tt_name/series" &&
		printf 'mm: a and c\n\nTwo patches.\n' >"$tt/$tt_name.cover" &&
		printf 'subject-prefix: PATCH v2\n' >"$tt/$tt_name.conf" &&
		"$scripts/export-series.sh" "$tt/w" "$tt/$tt_name" >/dev/null &&
		"$scripts/series-tree.sh" "$tt/$tt_name" "$tt_base" HEAD "$tt/t" >/dev/null
}
tt_cleanup() {
	rm -rf "$tt"
}
# tt_change_series: the scratch series changes (the first patch's date),
# as after a git pull or a git checkout of series/.
tt_change_series() {
	sed -i 's/^Date: .*/Date: Thu, 1 Jan 2026 00:00:00 +0000/' "$tt/$tt_name/$(series_patches "$tt/$tt_name" 1)"
}
# tt_state: what a user's work in the tree is: its commits and its diff.
tt_state() {
	git -C "$tt/t" rev-parse HEAD && git -C "$tt/t" diff
}

# keeps_work uncommitted|committed: with work of that kind in the tree, a
# changed series makes the next make tree refuse with one line and the
# work is still there.
keeps_work() {
	tt_setup || { tt_cleanup; return 1; }
	echo '/* work */' >>"$tt/t/mm/b.c"
	[ "$1" = uncommitted ] || git -C "$tt/t" -c user.name=lab -c user.email=lab@localhost commit -qam work
	before=$(tt_state)
	tt_change_series
	refused "$1" "$scripts/series-tree.sh" "$tt/$tt_name" "$tt_base" HEAD "$tt/t" &&
		[ "$(tt_state)" = "$before" ] || { echo "the work in the tree is gone"; false; }
	rc=$?
	tt_cleanup
	return $rc
}
t "make tree refuses to make a tree with uncommitted work again, and keeps the work" keeps_work uncommitted
t "make tree refuses to make a tree with committed work again, and keeps the work" keeps_work "commits it was not made with"

# remade WHAT: an untouched tree is made again when its series changed
# (WHAT: series) or its base (WHAT: base).
remade() {
	tt_setup || { tt_cleanup; return 1; }
	ref=$(git -C "$tt_base" rev-parse HEAD)
	if [ "$1" = base ]; then
		# A different base: one more (empty) commit on it.
		ref=$(git -C "$tt_base" commit-tree -p HEAD -m "another base" "HEAD^{tree}")
	else
		# A tree made before trees recorded their HEAD is judged by
		# what its commits change.
		[ "$1" != "series, no HEAD recorded" ] || rm "$(git -C "$tt/t" rev-parse --absolute-git-dir)/lab-head"
		tt_change_series
	fi
	"$scripts/series-tree.sh" "$tt/$tt_name" "$tt_base" "$ref" "$tt/t" &&
		git -C "$tt/t" merge-base --is-ancestor "$ref" HEAD &&
		[ "$(git -C "$tt/t" log --reverse --format=%aD "$ref..HEAD" | head -n 1)" = \
			"$(sed -n 's/^Date: //p' "$tt/$tt_name/$(series_patches "$tt/$tt_name" 1)")" ] ||
		{ echo "the tree was not made again from the changed $1"; false; }
	rc=$?
	tt_cleanup
	return $rc
}
t "make tree makes an untouched tree again when its series changed" remade series
t "make tree makes an untouched tree again when its base changed (KSRC)" remade base
t "make tree makes an untouched tree again when its series changed and it has no HEAD record" \
	remade "series, no HEAD recorded"

# export_edit: edit and commit in the tree, export: only the edited
# patch and the cover letter's diffstat change; a second export changes
# nothing.
export_edit() {
	tt_setup || { tt_cleanup; return 1; }
	cp -r "$tt/$tt_name" "$tt/before"
	last=$(series_patches "$tt/$tt_name" | tail -n 1)
	# A file the patch creates: an added line is one more "+" line there.
	file=$(awk '/^diff --git / { f = substr($4, 3) } /^new file mode/ { print f; exit }' "$tt/$tt_name/$last")
	echo '/* an edit */' >>"$tt/t/$file"
	git -C "$tt/t" -c user.name=lab -c user.email=lab@localhost commit -q --amend --no-edit -a &&
		"$scripts/export-series.sh" "$tt/t" "$tt/$tt_name" && cp -r "$tt/$tt_name" "$tt/once" &&
		"$scripts/export-series.sh" "$tt/t" "$tt/$tt_name" || { tt_cleanup; return 1; }
	diff -r "$tt/once" "$tt/$tt_name" || { echo "a second export changed the series"; tt_cleanup; return 1; }
	changed=$(diff -rq "$tt/before" "$tt/$tt_name" | sed 's#.*/\([^/]*\) differ$#\1#' | sort | tr '\n' ' ')
	echo "changed: $changed"
	cover_lines=$(diff "$tt/before/0000-cover-letter.patch" "$tt/$tt_name/0000-cover-letter.patch" 2>/dev/null |
		grep '^[<>]' | grep -Ev '^[<>]  [^ ]+ +\| +[0-9]+ [+-]*$|^[<>]  [0-9]+ files? changed')
	patch_lines=$(diff "$tt/before/$last" "$tt/$tt_name/$last" | grep '^[<>]' |
		grep -Ev '^[<>]  [^ ]+ +\| +[0-9]+ [+-]*$|^[<>]  [0-9]+ files? changed|^[<>] (index|new file mode|@@) ')
	tt_cleanup
	[ "$changed" = "0000-cover-letter.patch $last " ] || [ "$changed" = "$last " ] ||
		{ echo "want only $last (and the cover's diffstat) changed"; return 1; }
	[ -z "$cover_lines" ] || { echo "cover letter: $cover_lines"; return 1; }
	[ "$patch_lines" = "> +/* an edit */" ] || { echo "$last: $patch_lines"; return 1; }
}
t "make export after an edit changes only its hunks; a second export changes nothing" export_edit

# make_refused TEXT [VAR=VALUE...] TARGET...: make in the repository with
# an empty cache refuses with one line containing TEXT, writes nothing
# into the repository and fetches nothing into the cache.
make_refused() {
	want=$1
	shift
	c=$(mktemp -d)
	before=$(git -C "$top" status --porcelain)
	refused "$want" env LAB_CACHE="$c" make -s -C "$top" "$@"
	rc=$?
	left=$(find "$c" -type f)
	rm -rf "$c"
	[ -z "$left" ] || { echo "fetched: $left"; rc=1; }
	[ "$(git -C "$top" status --porcelain)" = "$before" ] || { echo "the repository changed"; rc=1; }
	return $rc
}
t "bad input: make export of an unknown series is refused, nothing written" \
	make_refused "unknown series" export SERIES=no-such-series
t "bad input: make tree of an unknown series is refused before any download" \
	make_refused "unknown series" tree SERIES=no-such-series
t "bad input: make tree with a KSRC that is no kernel tree says so in one line" \
	make_refused "is not a kernel source tree" KSRC=/ tree
