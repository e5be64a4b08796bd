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

/*
 * Names a generated C name must not take, so that the header compiles as C11
 * and C++ (up to C++20) after any standard header: a name found here gets a
 * trailing '_' (docs/mapping.md, "Names"). Three tables, each sorted (bsearch).
 */

/* C keywords up to C23, with C11's <stdbool.h>, <stdalign.h>, <assert.h> and
 * <threads.h> macros that C23 made keywords. */
static const char *const c_keywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex", "_Decimal128", "_Decimal32",
    "_Decimal64", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    "alignas", "alignof", "auto", "bool", "break", "case", "char", "const", "constexpr",
    "continue", "default", "do", "double", "else", "enum", "extern", "false", "float", "for",
    "goto", "if", "inline", "int", "long", "nullptr", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "static_assert", "struct", "switch", "thread_local", "true",
    "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void", "volatile", "while",
};

/* C++ keywords up to C++20 that C lacks (the <iso646.h> names are macros in C). */
static const char *const cxx_keywords[] = {
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const_cast", "consteval",
    "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_cast", "template", "this",
    "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
};

/* What standard headers define that a generated name could spell: object-like
 * macros (errno, complex, stdin, NULL, EOF, the <stdint.h>, <float.h> and
 * <stdatomic.h> constants of three words and more), typedefs, function-like
 * macros, and gcc's predefined macros in GNU modes (linux, unix, i386). */
static const char *const std_names[] = {
    "ATOMIC_BOOL_LOCK_FREE", "ATOMIC_FLAG_INIT", "ATOMIC_INT_LOCK_FREE", "ATOMIC_LLONG_LOCK_FREE",
    "ATOMIC_LONG_LOCK_FREE", "ATOMIC_POINTER_LOCK_FREE", "ATOMIC_VAR_INIT", "CLOCKS_PER_SEC",
    "DBL_DECIMAL_DIG", "DBL_HAS_SUBNORM", "DBL_MANT_DIG", "DBL_MAX_10_EXP", "DBL_MAX_EXP",
    "DBL_MIN_10_EXP", "DBL_MIN_EXP", "DBL_TRUE_MIN", "EOF", "FE_ALL_EXCEPT", "FE_DFL_ENV",
    "FLT_DECIMAL_DIG", "FLT_EVAL_METHOD", "FLT_HAS_SUBNORM", "FLT_MANT_DIG", "FLT_MAX_10_EXP",
    "FLT_MAX_EXP", "FLT_MIN_10_EXP", "FLT_MIN_EXP", "FLT_TRUE_MIN", "INT_FAST16_MAX",
    "INT_FAST16_MIN", "INT_FAST32_MAX", "INT_FAST32_MIN", "INT_FAST64_MAX", "INT_FAST64_MIN",
    "INT_FAST8_MAX", "INT_FAST8_MIN", "INT_LEAST16_MAX", "INT_LEAST16_MIN", "INT_LEAST32_MAX",
    "INT_LEAST32_MIN", "INT_LEAST64_MAX", "INT_LEAST64_MIN", "INT_LEAST8_MAX", "INT_LEAST8_MIN",
    "LDBL_DECIMAL_DIG", "LDBL_HAS_SUBNORM", "LDBL_MANT_DIG", "LDBL_MAX_10_EXP", "LDBL_MAX_EXP",
    "LDBL_MIN_10_EXP", "LDBL_MIN_EXP", "LDBL_TRUE_MIN", "MB_LEN_MAX", "NULL", "ONCE_FLAG_INIT",
    "SIG_ATOMIC_MAX", "SIG_ATOMIC_MIN", "TSS_DTOR_ITERATIONS", "UINT_FAST16_MAX",
    "UINT_FAST32_MAX", "UINT_FAST64_MAX", "UINT_FAST8_MAX", "UINT_LEAST16_MAX", "UINT_LEAST32_MAX",
    "UINT_LEAST64_MAX", "UINT_LEAST8_MAX", "assert", "atomic_bool", "atomic_char", "atomic_flag",
    "atomic_int", "atomic_llong", "atomic_long", "atomic_uint", "atomic_ullong", "atomic_ulong",
    "clock_t", "complex", "div_t", "errno", "fpos_t", "i386", "imaginary", "int16_t", "int32_t",
    "int64_t", "int8_t", "int_fast16_t", "int_fast32_t", "int_fast64_t", "int_fast8_t",
    "int_least16_t", "int_least32_t", "int_least64_t", "int_least8_t", "intmax_t", "intptr_t",
    "jmp_buf", "ldiv_t", "linux", "lldiv_t", "math_errhandling", "max_align_t", "mbstate_t",
    "memory_order", "noreturn", "nullptr_t", "offsetof", "once_flag", "ptrdiff_t", "setjmp",
    "sig_atomic_t", "size_t", "stderr", "stdin", "stdout", "time_t", "uint16_t", "uint32_t",
    "uint64_t", "uint8_t", "uint_fast16_t", "uint_fast32_t", "uint_fast64_t", "uint_fast8_t",
    "uint_least16_t", "uint_least32_t", "uint_least64_t", "uint_least8_t", "uintmax_t",
    "uintptr_t", "unix", "unreachable", "va_arg", "va_copy", "va_end", "va_list", "va_start",
    "wctype_t", "wint_t",
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

enum { RESERVED_MAX_LEN = 24 }; /* "ATOMIC_POINTER_LOCK_FREE" */

static bool in_table(const char *name, const char *const *table, size_t n)
{
    return bsearch(&name, table, n, sizeof table[0], cmp_str) != NULL;
}

#define IN_TABLE(name, t) in_table(name, t, sizeof t / sizeof t[0])

bool c_is_reserved(const char *name)
{
    for (size_t n = 0; name[n]; n++) /* longer names need no search */
        if (n == RESERVED_MAX_LEN)
            return false;
    return IN_TABLE(name, c_keywords) || IN_TABLE(name, cxx_keywords) || IN_TABLE(name, std_names);
}

char *c_safe_name(struct pool *p, char *name)
{
    return c_is_reserved(name) ? pool_printf(p, "%s_", name) : name;
}

char *c_member_name(struct pool *p, const char *go_name)
{
    return c_safe_name(p, c_snake_name(p, go_name));
}
