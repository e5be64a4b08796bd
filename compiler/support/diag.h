/*
 * diag.h - diagnostics in gcc's form, for every pass of the compiler.
 *
 *   schemas/user.tagc:12:5: error: unknown type "Strng"
 *       Name Strng `json:"name"`
 *            ^
 */
#ifndef TAGC_DIAG_H
#define TAGC_DIAG_H

#include <stdio.h>
#include "ast.h"

typedef struct diag {
    FILE *out;  /* where diagnostics go (stderr) */
    int errors; /* how many errors were reported */
    int warnings;
} diag;

void diag_init(diag *dg, FILE *out);

/* Reports an error at loc: the gcc-form line, the source line, a caret. */
void diag_error(diag *dg, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A warning at loc: reported like an error, not counted as one (dg->warnings). */
void diag_warning(diag *dg, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A note attached to the previous error (e.g. "previous declaration is here"). */
void diag_note(diag *dg, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* An error about a file as a whole, with no line (e.g. it cannot be read). */
void diag_error_file(diag *dg, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* TAGC_DIAG_H */
