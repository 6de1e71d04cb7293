# SPDX-License-Identifier: GPL-2.0
# awk -v n=N -f hunk.awk PATCH: hunk N of the patch file PATCH (counted
# from 1 over all its files, in order), with its file's header: a patch
# of that hunk alone, for git apply.
/^diff --git / { in_hdr = 1; hdr = $0 "\n"; keep = 0; next }
in_hdr && /^@@ / { in_hdr = 0 }
in_hdr { hdr = hdr $0 "\n"; next }
/^@@ / {
	keep = (++h == n)
	if (keep)
		printf "%s", hdr
}
/^-- $/ { exit }
keep { print }
END { if (h < n) exit 1 }
