/*
 * oom.h - out of memory, in any thread of the compiler (oom.c): removes the
 * temporary output files, prints "tagc: out of memory" and exits 2.
 */
#ifndef TAGC_OOM_H
#define TAGC_OOM_H

_Noreturn void tagc_out_of_memory(void);

#endif /* TAGC_OOM_H */
