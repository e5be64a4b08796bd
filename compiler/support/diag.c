/*
 * diag.c - gcc-form diagnostics: "file:line:col: error: message", then the
 * source line and a caret under the column.
 *
 * The echoed line is made safe to print: control characters and invalid
 * UTF-8 become '?', and a very long line is cut to a window around the column,
 * so a hostile input can neither garble the terminal nor flood the output.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "utf8.h"

enum {
    ECHO_MAX = 200,    /* longest line echoed whole */
    ECHO_BEFORE = 80,  /* bytes shown before the column when cut */
    ECHO_WINDOW = 160, /* bytes shown in all when cut */
};

void diag_init(diag *dg, FILE *out)
{
    dg->out = out ? out : stderr;
    dg->errors = 0;
    dg->warnings = 0;
}

/* Finds line `line` (1-based) of f's source; returns its start and sets *len
 * (without the newline or a trailing '\r'). NULL if the file has no such line. */
static const char *find_line(const ast_file *f, int line, size_t *len)
{
    const char *s = f->source, *end = f->source + f->source_len;
    for (int n = 1; n < line; n++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            return NULL;
        s = nl + 1;
    }
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    if (e > s && e[-1] == '\r')
        e--;
    *len = (size_t)(e - s);
    return s;
}

/* Moves p back to the start of a UTF-8 character (at most 3 bytes). */
static size_t char_start(const unsigned char *s, size_t p)
{
    for (int i = 0; i < 3 && p > 0 && (s[p] & 0xC0) == 0x80; i++)
        p--;
    return p;
}

/* Prints s[from, to) made safe, and into caret the padding that puts a caret
 * under byte `col0` (0-based, may be == to). */
static void echo_line(FILE *out, const unsigned char *s, size_t from, size_t to, size_t col0,
                      const char *prefix, const char *suffix)
{
    char pad[ECHO_WINDOW * 2 + 16];
    size_t np = 0;
    fputs(prefix, out);
    for (size_t i = 0; i < strlen(prefix); i++)
        pad[np++] = ' ';
    size_t i = from;
    while (i < to) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, to - i, &cp);
        bool before = i < col0;
        if (n == 0 || cp < 0x20 || cp == 0x7F) {
            bool tab = n == 1 && cp == '\t';
            fputc(tab ? '\t' : '?', out);
            if (before && np < sizeof pad)
                pad[np++] = tab ? '\t' : ' ';
            n = n ? n : 1;
        } else {
            fwrite(s + i, 1, n, out);
            if (before && np < sizeof pad)
                pad[np++] = ' ';
        }
        i += n;
    }
    fputs(suffix, out);
    fputc('\n', out);
    fwrite(pad, 1, np, out);
    fputs("^\n", out);
}

static void show_source(FILE *out, src_loc loc)
{
    if (!loc.file || !loc.file->source || loc.line < 1 || loc.col < 1)
        return;
    size_t len;
    const char *line = find_line(loc.file, loc.line, &len);
    if (!line)
        return;
    const unsigned char *s = (const unsigned char *)line;
    size_t col0 = (size_t)loc.col - 1;
    if (col0 > len)
        col0 = len;
    if (len <= ECHO_MAX) {
        echo_line(out, s, 0, len, col0, "    ", "");
        return;
    }
    size_t from = col0 > ECHO_BEFORE ? char_start(s, col0 - ECHO_BEFORE) : 0;
    size_t to = from + ECHO_WINDOW < len ? char_start(s, from + ECHO_WINDOW) : len;
    if (to < col0)
        to = col0;
    echo_line(out, s, from, to, col0, from > 0 ? "    ..." : "    ", to < len ? "..." : "");
}

static void vreport(diag *dg, src_loc loc, const char *kind, const char *fmt, va_list ap)
{
    FILE *out = dg->out ? dg->out : stderr;
    if (loc.file)
        fprintf(out, "%s:%d:%d: %s: ", loc.file->display ? loc.file->display : loc.file->path,
                loc.line, loc.col, kind);
    else
        fprintf(out, "tagc: %s: ", kind);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    show_source(out, loc);
}

void diag_error(diag *dg, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(dg, loc, "error", fmt, ap);
    va_end(ap);
    dg->errors++;
}

void diag_warning(diag *dg, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(dg, loc, "warning", fmt, ap);
    va_end(ap);
    dg->warnings++;
}

void diag_note(diag *dg, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(dg, loc, "note", fmt, ap);
    va_end(ap);
}

void diag_error_file(diag *dg, const char *path, const char *fmt, ...)
{
    FILE *out = dg->out ? dg->out : stderr;
    va_list ap;
    va_start(ap, fmt);
    fprintf(out, "%s: error: ", path);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    va_end(ap);
    dg->errors++;
}
