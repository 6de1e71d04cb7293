# SPDX-License-Identifier: GPL-2.0
# tsv.awk: read tab-separated tables by column name.  Load it before the
# program (awk -f tsv.awk -f prog.awk FILE...).  In every input file, lines
# starting with "#" are comments and the first other line is the header:
# it names the columns and is not passed on to the program.  Then
#   col("name")       the field of column "name" in the current line
#   set_col("name", v)  set that field to v (the line, $0, is rebuilt)
#   has_col("name")   whether the current file has that column
#   tsv_header()      the current file's header line, as read
# A column the file does not have is an error (exit 2), never an empty
# value, so that a renamed or missing column cannot pass unnoticed.

BEGIN { FS = OFS = "\t" }

FNR == 1 { _tsv_file++ }

/^#/ { next }

!(_tsv_file in _tsv_hdr) {
	_tsv_hdr[_tsv_file] = $0
	for (_tsv_i = 1; _tsv_i <= NF; _tsv_i++)
		_tsv_col[_tsv_file, $_tsv_i] = _tsv_i
	next
}

function has_col(name) {
	return (_tsv_file SUBSEP name) in _tsv_col
}

function _tsv_index(name) {
	if (!has_col(name)) {
		printf "%s: no column \"%s\" (header: %s)\n", FILENAME, name, _tsv_hdr[_tsv_file] > "/dev/stderr"
		_tsv_err = 1
		exit 2
	}
	return _tsv_col[_tsv_file, name]
}

function col(name) {
	return $(_tsv_index(name))
}

function set_col(name, value) {
	$(_tsv_index(name)) = value
}

function tsv_header() {
	return _tsv_hdr[_tsv_file]
}

# An END action that exits ends the program before the next one runs:
# after a column error, the program's own END does not print a result.
END {
	if (_tsv_err)
		exit 2
}
