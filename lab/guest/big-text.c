// SPDX-License-Identifier: GPL-2.0
/*
 * big-text - the "real binary" of scenario 13: a static program with
 * 8 MiB of text (big-text.S) that runs code on every page of it in a loop.
 *
 *   big-text NAME SECS READY_FD
 *
 * It takes the process name NAME, that of the program that started it, so
 * that the lab counts it among the scenario's processes.  After its first
 * pass over the text it writes the text's address range (two unsigned
 * longs: start, length) to the file descriptor READY_FD and closes it; it
 * stops after SECS seconds.
 */
#include <stdlib.h>
#include <sys/prctl.h>

#include "lab.h"

extern const char lab_text[], lab_text_end[];

int main(int argc, char **argv)
{
	if (argc != 4) {
		lab_warn("usage: big-text NAME SECS READY_FD");
		return 2;
	}
	prctl(PR_SET_NAME, argv[1]);
	return lab_run_text_until(lab_text, lab_text_end - lab_text,
				  atoi(argv[3]), lab_now() + atof(argv[2])) ? 1 : 0;
}
