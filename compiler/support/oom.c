/*
 * oom.c - the compiler's one answer to memory running out: remove the
 * temporary output files, say so, exit 2 (an I/O failure, SPEC section 4).
 * Never abort (a core dump and status 134 for a condition of the machine),
 * never 1 (that says the schema is wrong).
 *
 * Any thread may call it: write(2) and _exit(2) need no memory and no locks,
 * and _exit ends the other threads too.
 */
#include "pipeline.h"

#include <unistd.h>

void tagc_out_of_memory(void)
{
    static const char msg[] = "tagc: out of memory\n";
    tmpfiles_remove_all();
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    _exit(2);
}
