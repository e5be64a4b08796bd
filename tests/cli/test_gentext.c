/*
 * test_gentext.c - the generators' text helpers against simple references:
 * c_literal (its eight-bytes-at-a-time test of plain bytes), the formatter's
 * cache of parsed formats (sb_vprintf_cached) against the C library's
 * snprintf, pool_cat, and gen_name_order's sort against qsort.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static unsigned next_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 16;
}

/* A generator with nothing but its text machinery set up. */
static gen *gen_for_text(strbuf *out)
{
    gen *g = calloc(1, sizeof *g);
    cr_assert_not_null(g);
    sb_init(out);
    g->out = out;
    g->pool = pool_new();
    g->fmts = fmt_cache_new();
    return g;
}

static void gen_for_text_free(gen *g)
{
    sb_free(g->out);
    pool_free(g->pool);
    fmt_cache_free(g->fmts);
    free(g->memo);
    free(g);
}

/* MARK: - c_literal */

/* A byte at a time, as the C standard has it. */
static void reference_literal(const unsigned char *s, size_t n, char *out)
{
    char *d = out;
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            *d++ = '\\';
            *d++ = (char)c;
        } else if (c < 0x20 || c > 0x7e || c == '?') {
            d += sprintf(d, "\\%03o", c);
        } else {
            *d++ = (char)c;
        }
    }
    *d++ = '"';
    *d = '\0';
}

Test(gentext, c_literal_matches_reference)
{
    strbuf out;
    gen *g = gen_for_text(&out);
    unsigned seed = 7;
    /* alphabets: plain names, names with the bytes that need escapes, any byte */
    static const char plainish[] = "abcdefghijklmnopqrstuvwxyz_0123456789 ~!{}";
    static const char special[] = "\"\\?:\x1f\x7f\x80\xff\t a_0";
    for (int iter = 0; iter < 30000; iter++) {
        unsigned char s[48];
        size_t n = next_rand(&seed) % 41;
        int kind = iter % 3;
        for (size_t i = 0; i < n; i++) {
            unsigned r = next_rand(&seed);
            if (kind == 0)
                s[i] = (unsigned char)plainish[r % (sizeof plainish - 1)];
            else if (kind == 1)
                s[i] = r % 8 ? (unsigned char)plainish[r % (sizeof plainish - 1)]
                             : (unsigned char)special[r % (sizeof special - 1)];
            else
                s[i] = (unsigned char)r;
        }
        char want[48 * 4 + 3];
        reference_literal(s, n, want);
        cr_assert_str_eq(c_literal(g, (const char *)s, n), want);
    }
    gen_for_text_free(g);
}

/* MARK: - The cache of parsed formats */

static void cached_printf(strbuf *sb, fmt_cache *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf_cached(sb, c, fmt, ap);
    va_end(ap);
}

/* n random printable bytes, '%' excepted. */
static void random_text(char *out, size_t n, unsigned *seed)
{
    for (size_t i = 0; i < n; i++) {
        char c = (char)(' ' + next_rand(seed) % 95);
        out[i] = c == '%' ? '#' : c;
    }
    out[n] = '\0';
}

/* Formats with every conversion of the fast path, and some it hands to
 * vsnprintf (%x, widths), each kept at its address while the cache lives:
 * the cache is keyed by address, as for string literals. */
enum { NFMT = 600 };

Test(gentext, cached_formats_match_snprintf)
{
    static const char *const shapes[] = {
        "%s%%s%s%%zu%s%%.*s%s%%d%s%%%%%s%%c%s%%lld%s%%s%s",
        "%s%%s%s%%zu%s%%.*s%s%%d%s%%%%%s%%c%s%%lld%s%%s%s", /* the same shape twice as often */
        "%s%%s%s%%zu%s%%.*s%s%%d%s%%%%%s%%c%s%%llx%s%%s%s", /* %llx: vsnprintf's */
        "%s%%s%s%%zu%s%%.*s%s%%5d%s%%%%%s%%c%s%%lld%s%%s%s", /* a width: vsnprintf's */
    };
    unsigned seed = 3;
    char *fmts[NFMT];
    for (int i = 0; i < NFMT; i++) {
        char lit[9][24];
        for (int k = 0; k < 9; k++)
            random_text(lit[k], next_rand(&seed) % 20, &seed);
        fmts[i] = malloc(400);
        cr_assert_not_null(fmts[i]);
        snprintf(fmts[i], 400, shapes[i % 4], lit[0], lit[1], lit[2], lit[3], lit[4], lit[5],
                 lit[6], lit[7], lit[8]);
    }
    fmt_cache *c = fmt_cache_new();
    for (int iter = 0; iter < 20000; iter++) {
        const char *fmt = fmts[next_rand(&seed) % NFMT]; /* each seen again and again */
        char s1[48], s2[48];
        random_text(s1, next_rand(&seed) % 41, &seed);
        random_text(s2, next_rand(&seed) % 41, &seed);
        int prec = (int)(next_rand(&seed) % 41) - 5; /* negative: no precision */
        size_t z = (size_t)seed * 2654435761u;
        int d = iter == 1 ? INT_MIN : (int)(seed % 2000000001u) - 1000000000;
        long long ll = -(long long)seed * 1000003;
        const char *s3 = iter % 7 ? s1 : NULL; /* NULL: "(null)", as glibc */
        char want[1000];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(want, sizeof want, fmt, s1, z, prec, s2, d, 'x', ll, s3);
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, "head:");
        cached_printf(&sb, c, fmt, s1, z, prec, s2, d, 'x', ll, s3);
#pragma GCC diagnostic pop
        cr_assert_eq(sb.len, 5 + strlen(want));
        cr_assert_str_eq(sb.data + 5, want, "format %s", fmt);
        sb_free(&sb);
    }
    fmt_cache_free(c);
    for (int i = 0; i < NFMT; i++)
        free(fmts[i]);
}

/* MARK: - pool_cat */

Test(gentext, pool_cat_joins)
{
    struct pool *p = pool_new();
    cr_assert_str_eq(pool_cat(p, ""), "");
    cr_assert_str_eq(pool_cat(p, "v->", "a"), "v->a");
    cr_assert_str_eq(pool_cat(p, "a", "", "b", "cd", "", "e", "f", "g"), "abcdefg");
    pool_free(p);
}

/* MARK: - gen_name_order */

typedef struct ref_name {
    const char *name;
    size_t idx;
} ref_name;

static int ref_cmp(const void *a, const void *b)
{
    const ref_name *x = a, *y = b;
    size_t lx = strlen(x->name), ly = strlen(y->name);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    int c = memcmp(x->name, y->name, lx);
    if (c != 0)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx; /* repeated names: declared order */
}

Test(gentext, name_order_matches_qsort)
{
    unsigned seed = 11;
    for (int iter = 0; iter < 300; iter++) {
        size_t n = iter < 40 ? (size_t)iter : next_rand(&seed) % 200;
        char names[200][8];
        const char *ptrs[200];
        ref_name ref[200];
        for (size_t i = 0; i < n; i++) {
            size_t len = next_rand(&seed) % 4; /* short: repeats and equal lengths are common */
            for (size_t k = 0; k < len; k++)
                names[i][k] = (char)("ab\x7f\xc3"[next_rand(&seed) % 4]);
            names[i][len] = '\0';
            ptrs[i] = names[i];
            ref[i] = (ref_name){names[i], i};
        }
        qsort(ref, n, sizeof *ref, ref_cmp);
        strbuf want;
        sb_init(&want);
        if (n > 16)
            sb_puts(&want, "static const uint16_t t[] = {\n");
        else
            sb_puts(&want, "static const uint16_t t[] = {");
        for (size_t i = 0; i < n; i++) {
            if (n > 16 && i % 16 == 0)
                sb_puts(&want, "    ");
            sb_printf(&want, "%s%zu", i % 16 > 0 ? ", " : "", ref[i].idx);
            if (n > 16 && (i % 16 == 15 || i + 1 == n))
                sb_puts(&want, ",\n");
        }
        sb_puts(&want, "};\n");
        strbuf out;
        gen *g = gen_for_text(&out);
        gen_name_order(g, "t", ptrs, n);
        cr_assert_str_eq(out.data, want.data, "%zu names", n);
        gen_for_text_free(g);
        sb_free(&want);
    }
}
