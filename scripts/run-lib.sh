# shellcheck shell=sh
# shellcheck disable=SC2154 # $here: set by the script that sources this
# SPDX-License-Identifier: GPL-2.0
# Shared by damon-demo.sh and scale.sh (POSIX sh, sourced after lib.sh):
# build the guest, boot kernels with extra guest arguments, publish a run.

# peer_guest: build the guest programs and the initramfs; sets $initrd.
peer_guest() {
	guest=$LAB_CACHE/guest
	step "building the guest programs"
	make -s -C "$here/../lab/guest" O="$guest/bin" >&2 || die "building lab/guest failed"
	"$here/mkinitramfs.sh" "$guest/initrd.gz" "$guest/bin" "$here/../lab/guest/init.sh"
	initrd=$guest/initrd.gz
}

# peer_known KERNEL...: every name is a line of kernels.tsv.
peer_known() {
	for k in "$@"; do
		awk -F'\t' -v n="$k" '$1 == n { f = 1 } END { exit !f }' "$here/kernels.tsv" ||
			die "unknown kernel '$k' (known: $(awk -F'\t' '!/^#/{printf "%s ", $1}' "$here/kernels.tsv"))"
	done
}

# peer_run RUNDIR KERNEL KIND GUEST_ARGS...: build KERNEL, boot it with
# GUEST_ARGS, parse its console into RUNDIR as rows of kind KIND.
peer_run() {
	_dir=$1 _k=$2 _kind=$3
	shift 3
	_bz=$("$here/kernel.sh" "$_k") || die "building kernel $_k failed"
	"$here/run-guest.sh" "$_bz" "$initrd" "$_dir/$_k.console" "$@"
	awk -f "$here/parse-console.awk" -v kernel="$_k" -v kind="$_kind" -v dir="$_dir" "$_dir/$_k.console" ||
		die "$_k: the guest's results are unusable (see $_dir/$_k.console)"
	printf '%s\n' "$_k" >>"$_dir/kernels"
	# The kernel version the guest reported, for the report's header.
	sed -n 's/^.*@@ boot kernel=\([^ ]*\).*/\1/p' "$_dir/$_k.console" | head -n 1 |
		awk -v k="$_k" -v OFS='\t' '{ print k, $1 }' >>"$_dir/uname.tsv"
}

# peer_publish RUNDIR RESULTS: move RUNDIR to RESULTS/<date>, point
# RESULTS/latest at it; prints the final directory.
peer_publish() {
	_final=$2/$(date +%Y%m%d-%H%M%S)
	mv "$1" "$_final"
	ln -sfn "$(basename "$_final")" "$2/latest"
	printf '%s\n' "$_final"
}

# peer_versions: what the runs are made of, for the reports.
peer_versions() {
	awk -F'\t' '$1 == "7.3.4" { printf "Linux 7.3.4 (Debian %s %s)\n", $2, $3 }' "$here/bases.tsv"
	printf 'series/mainline: %s patches, repository commit %s\n' \
		"$(series_patches "$here/../series/mainline" | wc -l)" \
		"$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
	printf 'QEMU: %s, TCG, 2 vCPUs; host: %s CPUs\n' \
		"$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p')" "$(nproc)"
}
