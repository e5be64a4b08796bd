/*
 * names.c - Go identifiers to C identifiers.
 *
 * A word starts at an upper-case letter that follows a lower-case letter or a
 * digit ("userId" -> user_id, "Sha256Sum" -> sha256_sum), and at the last
 * upper-case letter of a run that is followed by a lower-case one ("HTTPCode"
 * -> http_code, "APIKey" -> api_key). Digits stay with the word before them
 * ("V2" -> v2). Underscores already present are kept, never doubled.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pipeline.h"

static bool is_up(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_low(char c) { return c >= 'a' && c <= 'z'; }
static bool is_dig(char c) { return c >= '0' && c <= '9'; }

/* Go's common initialisms (golint), longest first where one starts another. */
static const char *const initialisms[] = {
    "ACL", "API", "ASCII", "CPU", "CSS", "DNS", "EOF", "GUID", "HTML", "HTTPS", "HTTP", "ID",
    "IP", "JSON", "LHS", "QPS", "RAM", "RHS", "RPC", "SLA", "SMTP", "SQL", "SSH", "TCP",
    "TLS", "TTL", "UDP", "UID", "UI", "UUID", "URI", "URL", "VM", "XML", "XMPP", "XSRF", "XSS",
};

/* The length of the initialism at s (within n bytes), or 0. */
static size_t initialism_at(const char *s, size_t n)
{
    size_t best = 0;
    for (size_t i = 0; i < sizeof initialisms / sizeof initialisms[0]; i++) {
        size_t len = strlen(initialisms[i]);
        if (len <= n && len > best && strncmp(s, initialisms[i], len) == 0)
            best = len;
    }
    return best;
}

/* True when the capitals s[0..n) are two or more initialisms ("URLHTTPS"). */
static bool splits_into_initialisms(const char *s, size_t n)
{
    size_t i = 0, parts = 0;
    while (i < n) {
        size_t len = initialism_at(s + i, n - i);
        if (len == 0)
            return false;
        i += len;
        parts++;
    }
    return parts > 1;
}

char *c_snake_name(struct pool *p, const char *go_name)
{
    size_t n = strlen(go_name);
    char *out = pool_alloc_uninit(p, 2 * n + 1); /* at most one '_' per letter */
    size_t o = 0;
    size_t run_end = 0; /* within a run of capitals made of initialisms: where it ends */
    for (size_t i = 0; i < n; i++) {
        char c = go_name[i];
        if (is_up(c) && (i == 0 || !is_up(go_name[i - 1]))) {
            size_t e = i; /* a new run of capitals: [i, e) without a final capital that starts a word */
            while (e < n && is_up(go_name[e]))
                e++;
            if (e < n && is_low(go_name[e]) && !(go_name[e] == 's' && (e + 1 == n || !is_low(go_name[e + 1]))))
                e--;
            /* two initialisms take four capitals at least: most runs are shorter */
            run_end = e - i >= 4 && splits_into_initialisms(go_name + i, e - i) ? e : 0;
        }
        if (is_up(c) && i > 0 && o > 0 && out[o - 1] != '_') {
            char prev = go_name[i - 1];
            char next = go_name[i + 1]; /* '\0' at the end */
            /* a plural of capitals ("URLs", "IDs") stays one word */
            bool plural = next == 's' && (i + 2 >= n || !is_low(go_name[i + 2]));
            bool split = is_low(prev) || is_dig(prev) || (is_up(prev) && is_low(next) && !plural);
            if (!split && run_end && i < run_end && is_up(prev)) {
                size_t start = i; /* split where an initialism of the run begins */
                while (start > 0 && is_up(go_name[start - 1]))
                    start--;
                for (size_t k = start; k < i;) {
                    size_t len = initialism_at(go_name + k, run_end - k);
                    k += len ? len : 1;
                    if (k == i)
                        split = true;
                }
            }
            if (split)
                out[o++] = '_';
        }
        if (c == '_' && o > 0 && out[o - 1] == '_')
            continue;
        out[o++] = is_up(c) ? (char)(c - 'A' + 'a') : c;
    }
    out[o] = '\0';
    return out;
}

char *c_upper_name(struct pool *p, const char *snake)
{
    char *out = pool_strdup(p, snake);
    for (char *s = out; *s; s++)
        if (is_low(*s))
            *s = (char)(*s - 'a' + 'A');
    return out;
}

/* C keywords, and names that headers define as macros or types, which a
 * struct member must not be called. Sorted, for bsearch. */
static const char *const reserved[] = {
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
    "_Noreturn", "_Static_assert", "_Thread_local",
    "alignas", "alignof", "asm", "auto", "bool", "break", "case", "char", "const",
    "constexpr", "continue", "default", "do", "double", "else", "enum", "errno", "extern",
    "false", "float", "for", "goto", "i386", "if", "inline", "int", "int16_t", "int32_t",
    "int64_t", "int8_t", "linux", "long", "noreturn", "nullptr", "register", "restrict",
    "return", "short", "signed", "size_t", "sizeof", "static", "static_assert", "struct",
    "switch", "thread_local", "true", "typedef", "typeof", "uint16_t", "uint32_t",
    "uint64_t", "uint8_t", "union", "unix", "unsigned", "void", "volatile", "while",
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

enum { RESERVED_MAX_LEN = 14 }; /* "_Static_assert" */

bool c_is_reserved(const char *name)
{
    for (size_t n = 0; name[n]; n++) /* longer names need no search */
        if (n == RESERVED_MAX_LEN)
            return false;
    return bsearch(&name, reserved, sizeof reserved / sizeof reserved[0], sizeof reserved[0],
                   cmp_str) != NULL;
}

char *c_member_name(struct pool *p, const char *go_name)
{
    char *s = c_snake_name(p, go_name);
    return c_is_reserved(s) ? pool_printf(p, "%s_", s) : s;
}
