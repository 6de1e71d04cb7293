/* SPDX-License-Identifier: GPL-2.0 */
/*
 * big-text.S - 8 MiB of program text for scenario 13: 2048 pages, each
 * starting with a function that returns at once, so that running the
 * text (lab_run_text()) executes code on every page of it.  Assembled
 * into the static binary big-text and into the library libbig-text.so.
 */
	.text
	.globl	lab_text
	.globl	lab_text_end
	.p2align 12
lab_text:
	.rept	2048
	ret
	.p2align 12
	.endr
lab_text_end:

	.section .note.GNU-stack, "", @progbits
