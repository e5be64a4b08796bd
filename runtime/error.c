/*
 * error.c - error codes, their messages, and tagc_error: where a decode failed
 * and which value it was decoding. The path is built while the failure unwinds:
 * each level prepends its part, so a successful decode never pays for it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tagc.h"

const char *tagc_strerror(int code)
{
    switch (code) {
#define TAGC_XX_CASE(name, value, msg) \
    case value:                        \
        return msg;
        TAGC_ERROR_MAP(TAGC_XX_CASE)
#undef TAGC_XX_CASE
    default:
        return "unknown error";
    }
}

void tagc_error_clear(tagc_error *err)
{
    err->code = 0;
    err->offset = 0;
    err->line = 0;
    err->column = 0;
    err->path[0] = '\0';
    err->message[0] = '\0';
}

int tagc_error_set(tagc_error *err, int code, size_t offset, const char *fmt, ...)
{
    va_list ap;
    err->code = code;
    err->offset = offset;
    err->path[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

/* Room kept for the root "$" that tagc_error_finish prepends. */
#define ROOT_ROOM 2
/* When a path is too long it keeps its outermost parts, "...", and this much of
 * its innermost ones: $.iface[0][0]...[0][0]. */
#define TAIL_KEEP 96

/* The start of the last part of s[0..n) (parts start with '.' or '['). */
static size_t last_part(const char *s, size_t n)
{
    while (n > 0 && s[n - 1] != '.' && s[n - 1] != '[')
        n--;
    return n > 0 ? n - 1 : 0;
}

/* Prepends part (n bytes) to the path. Parts come innermost first, as the
 * failure unwinds; when they no longer fit, the inner ones that fit are kept
 * after a "..." and the outer ones before it, dropping the middle. */
static void path_prepend(tagc_error *err, const char *part, size_t n)
{
    char *path = err->path;
    size_t have = strlen(path);
    const size_t room = TAGC_PATH_MAX - 1 - ROOT_ROOM;
    if (have + n <= room) {
        memmove(path + n, path, have + 1);
        memcpy(path, part, n);
        return;
    }
    char *mark = strstr(path, "...");
    if (!mark) { /* the first overflow: keep the innermost parts, behind the mark */
        size_t cut = 0;
        while (have - cut > TAIL_KEEP) {
            const char *next = path + cut + 1;
            while (*next && *next != '.' && *next != '[')
                next++;
            cut = (size_t)(next - path);
        }
        memmove(path + 3, path + cut, have - cut + 1);
        memcpy(path, "...", 3);
        have = strlen(path);
        mark = path;
    }
    while (have + n > room && mark > path) { /* drop the innermost of the outer parts */
        size_t from = last_part(path, (size_t)(mark - path));
        memmove(path + from, mark, strlen(mark) + 1);
        mark = path + from;
        have = strlen(path);
    }
    if (have + n > room)
        return; /* a part too long to show */
    memmove(path + n, path, have + 1);
    memcpy(path, part, n);
}

static bool is_ident(const char *key, size_t len)
{
    if (len == 0 || (key[0] >= '0' && key[0] <= '9'))
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = key[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

void tagc_error_push_key(tagc_error *err, const char *key, size_t len)
{
    char part[TAGC_PATH_MAX];
    size_t n = 0;
    if (is_ident(key, len)) {
        if (len + 1 >= sizeof part)
            len = sizeof part - 2;
        part[n++] = '.';
        memcpy(part + n, key, len);
        n += len;
    } else {
        /* ["key"], with quotes, backslashes and controls escaped */
        part[n++] = '[';
        part[n++] = '"';
        for (size_t i = 0; i < len && n + 8 < sizeof part; i++) {
            unsigned char c = (unsigned char)key[i];
            if (c == '"' || c == '\\') {
                part[n++] = '\\';
                part[n++] = (char)c;
            } else if (c < 0x20) {
                n += (size_t)snprintf(part + n, sizeof part - n, "\\u%04x", c);
            } else {
                part[n++] = (char)c;
            }
        }
        part[n++] = '"';
        part[n++] = ']';
    }
    path_prepend(err, part, n);
}

void tagc_error_push_index(tagc_error *err, size_t index)
{
    char part[32];
    int n = snprintf(part, sizeof part, "[%zu]", index);
    path_prepend(err, part, (size_t)n);
}

void tagc_error_finish(tagc_error *err, const char *src, size_t len)
{
    size_t have = strlen(err->path);
    memmove(err->path + 1, err->path, have + 1); /* room for it is always kept */
    err->path[0] = '$';
    size_t end = err->offset < len ? err->offset : len;
    uint32_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < end; i++) {
        if (src[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    }
    err->line = line;
    err->column = (uint32_t)(err->offset - line_start + 1);
}
