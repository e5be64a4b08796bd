/*
 * gen_json_schema.c - `tagc --emit-json-schema DIR`: a JSON Schema (draft
 * 2020-12) per named type of the files named on the command line, describing
 * the JSON that the generated decoder accepts (docs/json-schema.md).
 *
 * DIR/<Type>.schema.json holds the type at its root ("$ref") and every named
 * type and anonymous struct it reaches in "$defs". With --strict,
 * DIR/<Type>.strict.schema.json describes strict mode as well (unknown keys
 * rejected, fields without omitempty required).
 *
 * What the decoder does, and how the schema says it:
 *   - null is accepted for every type (Go leaves the value alone): every
 *     "type" lists "null", enums list null;
 *   - keys are matched exactly, then case-insensitively (Go's folding, with
 *     the Kelvin sign and the long s): a pattern property per field;
 *   - integers by width (minimum/maximum), floats by range, the `string`
 *     option as a pattern, []byte as base64 text or an array of bytes,
 *     time.Time as RFC 3339 text, map keys by propertyNames.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

#define SCHEMA_DIALECT "https://json-schema.org/draft/2020-12/schema"

/* MARK: - Writing JSON */

/* A pretty-printing writer: two spaces per level, one member per line. */
typedef struct jw {
    strbuf *sb;
    int depth;
    bool first; /* nothing written yet in the current object or array */
} jw;

static void jw_newline(jw *w)
{
    sb_put(w->sb, "\n", 1);
    for (int i = 0; i < w->depth; i++)
        sb_put(w->sb, "  ", 2);
}

/* A JSON string: quotes, and escapes for '"', '\\' and control bytes; UTF-8 as is. */
static void json_string(strbuf *sb, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    sb_put(sb, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            sb_put(sb, esc, 2);
        } else if (*p == '\n') {
            sb_put(sb, "\\n", 2);
        } else if (*p == '\r') {
            sb_put(sb, "\\r", 2);
        } else if (*p == '\t') {
            sb_put(sb, "\\t", 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
            sb_put(sb, esc, 6);
        } else {
            sb_put(sb, (const char *)p, 1);
        }
    }
    sb_put(sb, "\"", 1);
}

/* Opens '{' or '['; returns what jw_end needs to restore. */
static bool jw_begin(jw *w, char open)
{
    sb_put(w->sb, &open, 1);
    bool saved = w->first;
    w->first = true;
    w->depth++;
    return saved;
}

static void jw_end(jw *w, char close, bool saved)
{
    w->depth--;
    if (!w->first)
        jw_newline(w);
    sb_put(w->sb, &close, 1);
    w->first = saved;
}

static void jw_key(jw *w, const char *key)
{
    if (!w->first)
        sb_put(w->sb, ",", 1);
    w->first = false;
    jw_newline(w);
    json_string(w->sb, key);
    sb_put(w->sb, ": ", 2);
}

static void jw_item(jw *w)
{
    if (!w->first)
        sb_put(w->sb, ",", 1);
    w->first = false;
    jw_newline(w);
}

/* key: "value" */
static void jw_key_str(jw *w, const char *key, const char *value)
{
    jw_key(w, key);
    json_string(w->sb, value);
}

/* key: value, the value's JSON text as given */
static void jw_key_raw(jw *w, const char *key, const char *text)
{
    jw_key(w, key);
    sb_puts(w->sb, text);
}

/* MARK: - Regular expressions (ECMA-262, the subset Python's re reads the same way) */

/* Appends c, escaped when it is an ECMA-262 syntax character. */
static void re_char(strbuf *sb, char c)
{
    if (strchr("\\^$.|?*+()[]{}/", c) && c != '\0')
        sb_put(sb, "\\", 1);
    sb_put(sb, &c, 1);
}

static void re_literal(strbuf *sb, const char *s)
{
    for (; *s; s++)
        re_char(sb, *s);
}

static bool is_ascii_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

static bool has_letter(const char *s)
{
    for (; *s; s++)
        if (is_ascii_letter((unsigned char)*s))
            return true;
    return false;
}

/* ASCII case-insensitive equality (of two ASCII names: Go's fold for them). */
static bool ascii_fold_eq(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (strlen(b) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y && !(is_ascii_letter(x) && (x | 0x20) == (y | 0x20)))
            return false;
    }
    return true;
}

/* The keys Go's case-insensitive match takes for the ASCII name s
 * (runtime tagc_json_key_fold_eq): each letter in either case, k also as
 * U+212A KELVIN SIGN, s also as U+017F LATIN SMALL LETTER LONG S. */
static void re_fold(strbuf *sb, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!is_ascii_letter(c)) {
            re_char(sb, *s);
            continue;
        }
        char lo = (char)(c | 0x20), up = (char)(c & ~0x20);
        sb_put(sb, "[", 1);
        sb_put(sb, &lo, 1);
        sb_put(sb, &up, 1);
        if (lo == 'k')
            sb_puts(sb, "\xe2\x84\xaa");
        else if (lo == 's')
            sb_puts(sb, "\xc5\xbf");
        sb_put(sb, "]", 1);
    }
}

static void re_digits(strbuf *sb, int lo, int hi)
{
    if (lo == hi)
        sb_printf(sb, "%d", lo);
    else if (lo == 0 && hi == 9)
        sb_puts(sb, "[0-9]");
    else
        sb_printf(sb, "[%d-%d]", lo, hi);
}

/* An alternation matching the decimal numbers 0..n written without leading zeros. */
static void re_upto(strbuf *sb, uint64_t n)
{
    char s[24];
    int k = snprintf(s, sizeof s, "%llu", (unsigned long long)n);
    bool any = false;
    sb_puts(sb, "(?:");
    if (k >= 2) { /* every shorter number */
        sb_puts(sb, "[0-9]");
        if (k >= 3)
            sb_printf(sb, "|[1-9][0-9]{1,%d}", k - 2);
        any = true;
    }
    for (int i = 0; i < k; i++) { /* as long as n: a prefix of n, then a smaller digit */
        int lo = i == 0 && k > 1 ? 1 : 0, hi = s[i] - '0' - 1;
        if (lo > hi)
            continue;
        if (any)
            sb_puts(sb, "|");
        any = true;
        sb_put(sb, s, (size_t)i);
        re_digits(sb, lo, hi);
        if (k - i - 1 > 0)
            sb_printf(sb, "[0-9]{%d}", k - i - 1);
    }
    if (any)
        sb_puts(sb, "|");
    sb_puts(sb, s);
    sb_puts(sb, ")");
}

/* The range of an integer kind. */
typedef struct int_range {
    bool is_signed;
    uint64_t max;     /* largest value */
    uint64_t neg_max; /* magnitude of the smallest value (signed) */
} int_range;

static bool int_kind(type_kind k, int_range *r)
{
    r->is_signed = true;
    r->neg_max = 0;
    switch (k) {
    case TK_INT8: r->max = INT8_MAX; break;
    case TK_INT16: r->max = INT16_MAX; break;
    case TK_INT32: r->max = INT32_MAX; break;
    case TK_INT64:
    case TK_DURATION: r->max = INT64_MAX; break;
    case TK_UINT8: r->is_signed = false; r->max = UINT8_MAX; break;
    case TK_UINT16: r->is_signed = false; r->max = UINT16_MAX; break;
    case TK_UINT32: r->is_signed = false; r->max = UINT32_MAX; break;
    case TK_UINT64: r->is_signed = false; r->max = UINT64_MAX; break;
    default: return false;
    }
    if (r->is_signed)
        r->neg_max = r->max + 1;
    return true;
}

/* How integer text is written where a pattern checks it. */
typedef struct int_syntax {
    bool plus;          /* a leading '+' (strconv.ParseInt of a map key) */
    bool leading_zeros; /* "007" */
    bool null;          /* the text "null" (inside a `string`-option value) */
} int_syntax;

/* ^...$ for the integers of range r, or (when en is an int enum) its values and 0. */
static void re_int(strbuf *sb, const int_range *r, const ast_decl *en, const int_syntax *sx)
{
    const char *zeros = sx->leading_zeros ? "0*" : "";
    sb_puts(sb, "^(?:");
    if (r->is_signed && sx->plus)
        sb_puts(sb, "\\+?");
    sb_puts(sb, zeros);
    if (!en) {
        re_upto(sb, r->max);
        if (r->is_signed) {
            sb_printf(sb, "|-%s", zeros);
            re_upto(sb, r->neg_max);
        }
    } else {
        /* 0 is a value of every int enum (Go's zero value); "-0" is 0 too */
        bool unsig = !r->is_signed;
        sb_puts(sb, "(?:0");
        for (enum_value *v = en->values; v; v = v->next)
            if (unsig || v->num > 0)
                sb_printf(sb, "|%llu", (unsigned long long)v->num);
        sb_puts(sb, ")");
        if (r->is_signed) {
            sb_printf(sb, "|-%s(?:0", zeros);
            for (enum_value *v = en->values; v; v = v->next)
                if (v->num < 0)
                    sb_printf(sb, "|%llu", 0ull - (unsigned long long)v->num);
            sb_puts(sb, ")");
        }
    }
    if (sx->null)
        sb_puts(sb, "|null");
    sb_puts(sb, ")$");
}

/* Go's base64.StdEncoding, not strict: padded quanta, \r and \n anywhere. */
static const char re_base64[] =
    "^[\\r\\n]*(?:(?:[A-Za-z0-9+/][\\r\\n]*){4})*"
    "(?:(?:[A-Za-z0-9+/][\\r\\n]*){2}=[\\r\\n]*=[\\r\\n]*|(?:[A-Za-z0-9+/][\\r\\n]*){3}=[\\r\\n]*)?$";

/* Go 1.19's time.Parse(time.RFC3339, s) as the runtime implements it: a
 * one-digit hour, ',' or '.' before the fraction, a fraction in place of the
 * seconds. (The day is not checked against the month.) */
static const char re_time_go119[] =
    "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01]?[0-9]|2[0-3]):[0-5][0-9]:"
    "(?:[0-5][0-9](?:[.,][0-9]+)?|[.,][0-9]+)(?:Z|[+-][0-9]{2}:[0-9]{2})$";
/* Go 1.20 and later: the seconds always there, a zone hour up to 24 and
 * minute up to 60 (docs/profiles.md). */
static const char re_time[] =
    "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01]?[0-9]|2[0-3]):[0-5][0-9]:"
    "[0-5][0-9](?:[.,][0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-4]):(?:[0-5][0-9]|60))$";

/* The `string` option: the content of the JSON string. */
static const char re_quoted_string[] =
    "^(?:\"(?:[^\"\\\\\\x00-\\x1f]|\\\\[\"\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*\"|null)$";
static const char re_quoted_float[] =
    "^(?:-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|null)$";
static const char re_quoted_bool[] = "^(?:true|false|null)$";

/* A hex digit of a \u escape, in either case. */
static void re_hex(strbuf *sb, unsigned d)
{
    static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
    if (d < 10)
        sb_put(sb, &lo[d], 1);
    else
        sb_printf(sb, "[%c%c]", lo[d], up[d]);
}

static void re_u_escape(strbuf *sb, unsigned u)
{
    sb_puts(sb, "\\\\u");
    for (int shift = 12; shift >= 0; shift -= 4)
        re_hex(sb, (u >> shift) & 15);
}

/* Every JSON string text whose value is the UTF-8 text s (quotes included):
 * each character as itself, as a short escape, or as a \u escape. */
static void re_json_text(strbuf *sb, const char *s)
{
    static const char shorts[] = "\"\"\\\\//\bb\ff\nn\rr\tt";
    sb_puts(sb, "\"");
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned cp = *p;
        int n = 1;
        if (cp >= 0xf0 && p[1] && p[2] && p[3]) {
            cp = (cp & 7) << 18 | (p[1] & 63u) << 12 | (p[2] & 63u) << 6 | (p[3] & 63u);
            n = 4;
        } else if (cp >= 0xe0 && p[1] && p[2]) {
            cp = (cp & 15) << 12 | (p[1] & 63u) << 6 | (p[2] & 63u);
            n = 3;
        } else if (cp >= 0xc0 && p[1]) {
            cp = (cp & 31) << 6 | (p[1] & 63u);
            n = 2;
        }
        sb_puts(sb, "(?:");
        if (cp >= 0x20 && cp != '"' && cp != '\\') { /* as itself */
            if (n == 1)
                re_char(sb, (char)cp);
            else
                sb_put(sb, (const char *)p, (size_t)n);
            sb_puts(sb, "|");
        }
        for (size_t i = 0; i + 1 < sizeof shorts; i += 2) {
            if ((unsigned char)shorts[i] == cp) {
                sb_puts(sb, "\\\\");
                re_char(sb, shorts[i + 1]);
                sb_puts(sb, "|");
            }
        }
        if (cp >= 0x10000) { /* a surrogate pair */
            re_u_escape(sb, 0xd800 + ((cp - 0x10000) >> 10));
            re_u_escape(sb, 0xdc00 + ((cp - 0x10000) & 0x3ff));
        } else {
            re_u_escape(sb, cp);
        }
        sb_puts(sb, ")");
        p += n;
    }
    sb_puts(sb, "\"");
}

/* MARK: - The types a schema describes */

/* A $defs entry: a named type, or an anonymous struct. */
typedef struct def {
    const char *key;
    const ast_decl *decl;
    ast_type *anon;
} def;

typedef struct ctx {
    const ast_program *prog;
    struct pool *pool;
    bool strict;
    jw w;
    def *defs;
    size_t ndefs, capdefs;
} ctx;

static const char *decl_key(const ctx *c, const ast_decl *d)
{
    /* the Go name, unless another type of the program has it too */
    for (const ast_file *f = c->prog->files; f; f = f->next)
        for (const ast_decl *o = f->decls; o; o = o->next)
            if (o != d && strcmp(o->name, d->name) == 0)
                return d->c_name;
    return d->name;
}

static const def *find_def(const ctx *c, const ast_decl *d, const ast_type *anon)
{
    for (size_t i = 0; i < c->ndefs; i++)
        if (d ? c->defs[i].decl == d : c->defs[i].anon == anon)
            return &c->defs[i];
    return NULL;
}

static void add_def(ctx *c, const ast_decl *d, ast_type *anon)
{
    if (c->ndefs == c->capdefs) {
        size_t cap = c->capdefs ? c->capdefs * 2 : 16;
        def *n = realloc(c->defs, cap * sizeof *n);
        if (!n) {
            tagc_out_of_memory();
        }
        c->defs = n;
        c->capdefs = cap;
    }
    def *e = &c->defs[c->ndefs++];
    e->decl = d;
    e->anon = anon;
    if (d)
        e->key = decl_key(c, d);
    else
        e->key = anon->c_name ? anon->c_name : pool_printf(c->pool, "anonymous_%zu", c->ndefs);
}

static void collect_type(ctx *c, ast_type *t);

static void collect_fields(ctx *c, const ast_type *st)
{
    for (size_t i = 0; i < st->wire_count; i++)
        if (st->wire[i].json_name)
            collect_type(c, st->wire[i].field->type);
}

static void collect_decl(ctx *c, const ast_decl *d)
{
    if (find_def(c, d, NULL))
        return;
    add_def(c, d, NULL);
    if (decl_is_closed_enum(d))
        return;
    if (d->type->kind == TK_STRUCT)
        collect_fields(c, d->type);
    else
        collect_type(c, d->type);
}

/* Every named type and anonymous struct the JSON of t reaches, each once. */
static void collect_type(ctx *c, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED:
        collect_decl(c, t->decl);
        break;
    case TK_SLICE:
    case TK_ARRAY:
    case TK_PTR:
        collect_type(c, t->elem);
        break;
    case TK_MAP:
        collect_type(c, t->key);
        collect_type(c, t->elem);
        break;
    case TK_STRUCT:
        if (!find_def(c, NULL, t)) {
            add_def(c, NULL, t);
            collect_fields(c, t);
        }
        break;
    default:
        break;
    }
}

/* "#/$defs/<key>", a URI fragment holding a JSON pointer. */
static void ref_to(strbuf *sb, const char *key, const char *prop)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *parts[2] = {key, prop};
    sb_puts(sb, "#/$defs");
    for (int i = 0; i < 2 && parts[i]; i++) {
        sb_puts(sb, i ? "/properties/" : "/");
        for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++) {
            if (*p == '~')
                sb_puts(sb, "~0");
            else if (*p == '/')
                sb_puts(sb, "~1");
            else if (is_ascii_letter(*p) || (*p >= '0' && *p <= '9') || strchr("-._!$&'()*+,;=:@", *p))
                sb_put(sb, (const char *)p, 1);
            else {
                char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
                sb_put(sb, esc, 3);
            }
        }
    }
}

static void jw_ref(ctx *c, const char *key, const char *prop)
{
    strbuf r;
    sb_init(&r);
    ref_to(&r, key, prop);
    bool s = jw_begin(&c->w, '{');
    jw_key_str(&c->w, "$ref", r.data);
    jw_end(&c->w, '}', s);
    sb_free(&r);
}

/* key: "pattern" built in sb */
static void jw_key_pattern(jw *w, const char *key, strbuf *sb)
{
    jw_key_str(w, key, sb->data);
}

static void int_bounds(jw *w, const int_range *r)
{
    if (r->is_signed) {
        jw_key(w, "minimum");
        if (r->neg_max == (uint64_t)INT64_MAX + 1)
            sb_puts(w->sb, "-9223372036854775808");
        else
            sb_printf(w->sb, "-%llu", (unsigned long long)r->neg_max);
    } else {
        jw_key_raw(w, "minimum", "0");
    }
    jw_key(w, "maximum");
    sb_printf(w->sb, "%llu", (unsigned long long)r->max);
}

/* "enum": [...] of a string enum's texts: "" first (the zero value), then the declared ones. */
static void string_enum_list(ctx *c, const ast_decl *en)
{
    strbuf *sb = c->w.sb;
    jw_key(&c->w, "enum");
    sb_puts(sb, "[\"\"");
    for (enum_value *v = en->values; v; v = v->next) {
        bool dup = v->str[0] == '\0';
        for (enum_value *u = en->values; u != v && !dup; u = u->next)
            dup = strcmp(u->str, v->str) == 0;
        if (dup)
            continue;
        sb_puts(sb, ", ");
        json_string(sb, v->str);
    }
    sb_puts(sb, ", null]");
}

static void int_enum_list(ctx *c, const ast_decl *en)
{
    strbuf *sb = c->w.sb;
    bool unsig = en->type->kind >= TK_UINT8 && en->type->kind <= TK_UINT64;
    jw_key(&c->w, "enum");
    sb_puts(sb, "[0");
    for (enum_value *v = en->values; v; v = v->next) {
        bool dup = v->num == 0;
        for (enum_value *u = en->values; u != v && !dup; u = u->next)
            dup = u->num == v->num;
        if (dup)
            continue;
        if (unsig)
            sb_printf(sb, ", %llu", (unsigned long long)v->num);
        else
            sb_printf(sb, ", %lld", (long long)v->num);
    }
    sb_puts(sb, ", null]");
}

static void schema_type(ctx *c, ast_type *t);

/* An open enum (the default, as in Go) takes any value of its type: that
 * type's schema, with the constants as "examples" (an annotation). */
static void open_enum(ctx *c, const ast_decl *en)
{
    jw *w = &c->w;
    bool s = jw_begin(w, '{');
    jw_key_str(w, "$comment", en->enum_kind == ENUM_STRING
                                  ? "open enum (as in Go): any string; its constants are the examples"
                                  : "open enum (as in Go): any integer of its type; its constants are the examples");
    jw_key(w, "examples");
    bool sa = jw_begin(w, '[');
    bool unsig = ty_is_unsigned_int(en->type->kind);
    for (enum_value *v = en->values; v; v = v->next) {
        jw_item(w);
        if (en->enum_kind == ENUM_STRING)
            json_string(w->sb, v->str);
        else if (unsig)
            sb_printf(w->sb, "%llu", (unsigned long long)v->num);
        else
            sb_printf(w->sb, "%lld", (long long)v->num);
    }
    jw_end(w, ']', sa);
    jw_key(w, "allOf");
    sa = jw_begin(w, '[');
    jw_item(w);
    schema_type(c, en->type);
    jw_end(w, ']', sa);
    jw_end(w, '}', s);
}

static bool is_bytes(const ast_type *t)
{
    return t->kind == TK_SLICE && t->elem->kind == TK_UINT8;
}

/* A value with the `string` option: its JSON text inside a JSON string. */
static void schema_quoted(ctx *c, ast_type *t)
{
    jw *w = &c->w;
    if (t->kind == TK_PTR)
        t = t->elem;
    ast_type *u = ty_under(t);
    const ast_decl *en = ty_enum(t);
    bool s = jw_begin(w, '{');
    jw_key_raw(w, "type", "[\"string\", \"null\"]");
    strbuf re;
    sb_init(&re);
    int_range r;
    if (u->kind == TK_STRING && en) {
        /* one of the enum's texts, "" or null, as any JSON string text */
        sb_puts(&re, "^(?:\"\"|null");
        for (enum_value *v = en->values; v; v = v->next) {
            sb_puts(&re, "|");
            re_json_text(&re, v->str);
        }
        sb_puts(&re, ")$");
    } else if (u->kind == TK_NUMBER) {
        /* Go 1.19 keeps text that starts like a number unchecked; or a quoted number; or null */
        sb_puts(&re, "^(?:[-0-9][\\s\\S]*|\"-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\"|null)$");
    } else if (u->kind == TK_STRING)
        sb_puts(&re, re_quoted_string);
    else if (u->kind == TK_BOOL)
        sb_puts(&re, re_quoted_bool);
    else if (ty_is_float(u->kind))
        sb_puts(&re, re_quoted_float);
    else if (int_kind(u->kind, &r)) {
        int_syntax sx = {.plus = false, .leading_zeros = false, .null = true};
        re_int(&re, &r, en && en->enum_kind == ENUM_INT ? en : NULL, &sx);
    }
    jw_key_pattern(w, "pattern", &re);
    sb_free(&re);
    jw_end(w, '}', s);
}

/* The schema of map keys, or nothing when every key is accepted. */
static void map_keys(ctx *c, ast_type *kt)
{
    jw *w = &c->w;
    ast_type *u = ty_under(kt);
    const ast_decl *en = ty_enum(kt);
    int_range r;
    if (en && en->enum_kind == ENUM_STRING) {
        jw_key(w, "propertyNames");
        bool s = jw_begin(w, '{');
        string_enum_list(c, en);
        jw_end(w, '}', s);
    } else if (int_kind(u->kind, &r)) {
        /* strconv.ParseInt / ParseUint: a sign (signed only), leading zeros */
        int_syntax sx = {.plus = true, .leading_zeros = true, .null = false};
        strbuf re;
        sb_init(&re);
        re_int(&re, &r, en && en->enum_kind == ENUM_INT ? en : NULL, &sx);
        jw_key(w, "propertyNames");
        bool s = jw_begin(w, '{');
        jw_key_pattern(w, "pattern", &re);
        jw_end(w, '}', s);
        sb_free(&re);
    } else if (ty_is_float(u->kind)) {
        jw_key_str(w, "$comment", "float keys (Go 1.27): any text strconv.ParseFloat reads, or null; "
                                  "not checked here");
    }
}

/* Whether wire field j comes before i in the decoder's folding order: declared
 * order, or under Go 1.27 breadth first, `case:strict` fields never folded
 * (gen_json.c's fold order). */
static bool fold_before(const ctx *c, const ast_type *st, size_t j, size_t i)
{
    const wire_field *a = &st->wire[j], *b = &st->wire[i];
    if (c->prog->go != GO_1_27)
        return j < i;
    if (a->field->tags.json_case_strict)
        return false;
    return a->path_len != b->path_len ? a->path_len < b->path_len : j < i;
}

/* Whether the wire field at index i gets a case-insensitive pattern: an ASCII
 * name with a letter, that no field before it in the folding order matches
 * case-insensitively (the decoder gives such keys to the first). */
static bool folds(const ctx *c, const ast_type *st, size_t i)
{
    const char *name = st->wire[i].json_name;
    if (!is_ascii(name) || !has_letter(name))
        return false;
    if (c->prog->go == GO_1_27 && st->wire[i].field->tags.json_case_strict)
        return false;
    for (size_t j = 0; j < st->wire_count; j++) {
        const char *o = st->wire[j].json_name;
        if (j != i && o && fold_before(c, st, j, i) && is_ascii(o) && ascii_fold_eq(o, name))
            return false;
    }
    return true;
}

/* ^fold(name)$, but not the exact names of the other fields that fold to it
 * (an exact name goes to its own field first). */
static void fold_pattern(strbuf *re, const ast_type *st, size_t i)
{
    const char *name = st->wire[i].json_name;
    bool any = false;
    sb_puts(re, "^");
    for (size_t j = 0; j < st->wire_count; j++) {
        const char *o = st->wire[j].json_name;
        if (j == i || !o || !is_ascii(o) || !ascii_fold_eq(o, name))
            continue;
        sb_puts(re, any ? "|" : "(?!(?:");
        any = true;
        re_literal(re, o);
    }
    if (any)
        sb_puts(re, ")$)");
    re_fold(re, name);
    sb_puts(re, "$");
}

static void field_schema(ctx *c, const wire_field *wf)
{
    if (wf->json_string)
        schema_quoted(c, wf->field->type);
    else
        schema_type(c, wf->field->type);
}

/* A struct's object: its keys by wire name, then case-insensitively. */
static void schema_struct(ctx *c, const ast_type *st, const char *key)
{
    jw *w = &c->w;
    bool s = jw_begin(w, '{');
    jw_key_raw(w, "type", "[\"object\", \"null\"]");
    bool any = false, any_fold = false;
    for (size_t i = 0; i < st->wire_count; i++) {
        if (!st->wire[i].json_name)
            continue;
        any = true;
        any_fold |= folds(c, st, i);
    }
    if (any) {
        jw_key(w, "properties");
        bool sp = jw_begin(w, '{');
        for (size_t i = 0; i < st->wire_count; i++) {
            const wire_field *wf = &st->wire[i];
            if (!wf->json_name)
                continue;
            jw_key(w, wf->json_name);
            field_schema(c, wf);
        }
        jw_end(w, '}', sp);
    }
    if (any_fold) {
        jw_key(w, "patternProperties");
        bool sp = jw_begin(w, '{');
        for (size_t i = 0; i < st->wire_count; i++) {
            if (!st->wire[i].json_name || !folds(c, st, i))
                continue;
            strbuf re;
            sb_init(&re);
            fold_pattern(&re, st, i);
            jw_key(w, re.data);
            jw_ref(c, key, st->wire[i].json_name);
            sb_free(&re);
        }
        jw_end(w, '}', sp);
    }
    if (c->strict) {
        if (!st->json_unknown) /* else unknown members are kept, strict or not */
            jw_key_raw(w, "additionalProperties", "false");
        /* every field without omitempty, unless a nil embedded pointer hides it:
         * under its exact name ("required"), or under any key that matches it
         * case-insensitively (then: not "an object all of whose keys fail to match") */
        bool any_req = false, any_all = false, saved_all = false;
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < st->wire_count; i++) {
                const wire_field *wf = &st->wire[i];
                if (!wf->json_name || wire_json_omittable(wf))
                    continue;
                bool behind_ptr = false;
                for (size_t j = 0; j + 1 < wf->path_len; j++)
                    behind_ptr |= wf->path[j]->type->kind == TK_PTR;
                if (behind_ptr || folds(c, st, i) != (pass == 1))
                    continue;
                if (pass == 0) {
                    if (!any_req)
                        jw_key(w, "required");
                    sb_puts(w->sb, any_req ? ", " : "[");
                    any_req = true;
                    json_string(w->sb, wf->json_name);
                    continue;
                }
                if (!any_all) {
                    jw_key(w, "allOf");
                    saved_all = jw_begin(w, '[');
                    any_all = true;
                }
                strbuf re;
                sb_init(&re);
                fold_pattern(&re, st, i);
                jw_item(w);
                sb_puts(w->sb, "{\"not\": {\"type\": \"object\", \"propertyNames\": {\"not\": {\"pattern\": ");
                json_string(w->sb, re.data);
                sb_puts(w->sb, "}}}}");
                sb_free(&re);
            }
            if (pass == 0 && any_req)
                sb_puts(w->sb, "]");
        }
        if (any_all)
            jw_end(w, ']', saved_all);
    }
    jw_end(w, '}', s);
}

/* A //tagc:codec type: the JSON types of its declared wire shape, and only
 * those (null too only when declared: Go hands null to UnmarshalJSON). */
static void codec_schema(ctx *c, const type_codec *cd)
{
    jw *w = &c->w;
    jw_key_str(w, "$comment", pool_printf(c->pool, "a C codec (//tagc:codec): wire %s", cd->wire_text));
    if (cd->wire == CW_ANY)
        return;
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = { { CW_STRING, "string" }, { CW_NUMBER, "number" }, { CW_INTEGER, "integer" },
                  { CW_BOOLEAN, "boolean" }, { CW_OBJECT, "object" }, { CW_ARRAY, "array" },
                  { CW_NULL, "null" } };
    strbuf list;
    sb_init(&list);
    sb_puts(&list, "[");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!(cd->wire & names[i].bit))
            continue;
        if (names[i].bit == CW_INTEGER && (cd->wire & CW_NUMBER))
            continue; /* "number" takes in integers */
        if (list.len > 1)
            sb_puts(&list, ", ");
        sb_puts(&list, "\"");
        sb_puts(&list, names[i].name);
        sb_puts(&list, "\"");
    }
    sb_puts(&list, "]");
    jw_key_raw(w, "type", pool_strndup(c->pool, list.data, list.len));
    sb_free(&list);
}

static void schema_type(ctx *c, ast_type *t)
{
    jw *w = &c->w;
    int_range r;
    if (t->kind == TK_NAMED) {
        const def *d = find_def(c, t->decl, NULL);
        jw_ref(c, d ? d->key : t->decl->name, NULL);
        return;
    }
    if (t->kind == TK_STRUCT) {
        const def *d = find_def(c, NULL, t);
        jw_ref(c, d ? d->key : t->c_name, NULL);
        return;
    }
    if (t->kind == TK_PTR) { /* null is accepted everywhere already */
        const ast_type *u = ty_under(t->elem);
        if (u->kind != TK_CODEC || (u->decl->codec->wire & CW_NULL)) {
            schema_type(c, t->elem);
            return;
        }
        /* but by a codec only when it says so: a pointer's nil is Go's, not the codec's */
        bool s = jw_begin(w, '{');
        jw_key(w, "anyOf");
        bool sa = jw_begin(w, '[');
        jw_item(w);
        schema_type(c, t->elem);
        jw_item(w);
        sb_puts(w->sb, "{\"type\": \"null\"}");
        jw_end(w, ']', sa);
        jw_end(w, '}', s);
        return;
    }
    bool s = jw_begin(w, '{');
    switch (t->kind) {
    case TK_BOOL:
        jw_key_raw(w, "type", "[\"boolean\", \"null\"]");
        break;
    case TK_FLOAT32:
        /* strconv.ParseFloat(s, 32): an error from where the value rounds to infinity */
        jw_key_raw(w, "type", "[\"number\", \"null\"]");
        jw_key_raw(w, "exclusiveMinimum", "-340282356779733661637539395458142568448");
        jw_key_raw(w, "exclusiveMaximum", "340282356779733661637539395458142568448");
        break;
    case TK_FLOAT64:
        jw_key_raw(w, "type", "[\"number\", \"null\"]");
        jw_key_raw(w, "minimum", "-1.7976931348623157e308");
        jw_key_raw(w, "maximum", "1.7976931348623157e308");
        break;
    case TK_STRING:
        jw_key_raw(w, "type", "[\"string\", \"null\"]");
        break;
    case TK_TIME:
        jw_key_str(w, "$comment", "time.Time");
        jw_key_raw(w, "type", "[\"string\", \"null\"]");
        jw_key_str(w, "format", "date-time");
        jw_key_str(w, "pattern", c->prog->go == GO_1_19 ? re_time_go119 : re_time);
        break;
    case TK_RAW:
        jw_key_str(w, "$comment", "json.RawMessage: any JSON value");
        break;
    case TK_NUMBER: /* a number, or a string whose text is one */
        jw_key_str(w, "$comment", "json.Number");
        jw_key_raw(w, "anyOf", "[{\"type\": \"number\"}, {\"type\": \"string\", \"pattern\": "
                               "\"^-?(?:0|[1-9][0-9]*)(?:\\\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$\"}, "
                               "{\"type\": \"null\"}]");
        break;
    case TK_ANY:
        jw_key_str(w, "$comment", "interface{}: any JSON value");
        break;
    case TK_CODEC:
        codec_schema(c, t->decl->codec);
        break;
    case TK_SLICE:
        if (is_bytes(t)) {
            /* base64 text, or (as Go also takes) an array of byte values */
            jw_key_str(w, "$comment", "[]byte");
            jw_key(w, "anyOf");
            bool sa = jw_begin(w, '[');
            jw_item(w);
            bool so = jw_begin(w, '{');
            jw_key_str(w, "type", "string");
            jw_key_str(w, "contentEncoding", "base64");
            jw_key_str(w, "pattern", re_base64);
            jw_end(w, '}', so);
            jw_item(w);
            so = jw_begin(w, '{');
            jw_key_str(w, "type", "array");
            jw_key(w, "items");
            schema_type(c, t->elem);
            jw_end(w, '}', so);
            jw_item(w);
            sb_puts(w->sb, "{\"type\": \"null\"}");
            jw_end(w, ']', sa);
            break;
        }
        jw_key_raw(w, "type", "[\"array\", \"null\"]");
        jw_key(w, "items");
        schema_type(c, t->elem);
        break;
    case TK_ARRAY:
        jw_key_str(w, "$comment",
                   pool_printf(c->pool, "[%lld]: Go drops extra elements and zeroes missing ones",
                               (long long)t->array_len));
        jw_key_raw(w, "type", "[\"array\", \"null\"]");
        jw_key(w, "items");
        schema_type(c, t->elem);
        break;
    case TK_MAP:
        jw_key_raw(w, "type", "[\"object\", \"null\"]");
        map_keys(c, t->key);
        jw_key(w, "additionalProperties");
        schema_type(c, t->elem);
        break;
    default:
        if (int_kind(t->kind, &r)) {
            if (t->kind == TK_DURATION)
                jw_key_str(w, "$comment", "time.Duration: nanoseconds");
            jw_key_raw(w, "type", "[\"integer\", \"null\"]");
            int_bounds(w, &r);
        }
        break;
    }
    jw_end(w, '}', s);
}

static void schema_def(ctx *c, const def *d)
{
    jw *w = &c->w;
    if (d->anon) {
        schema_struct(c, d->anon, d->key);
        return;
    }
    const ast_decl *decl = d->decl;
    if (decl_is_closed_enum(decl)) {
        bool s = jw_begin(w, '{');
        jw_key_str(w, "$comment", "closed enum (//tagc:closed): only these values decode");
        if (decl->enum_kind == ENUM_STRING)
            string_enum_list(c, decl);
        else
            int_enum_list(c, decl);
        jw_end(w, '}', s);
    } else if (decl->enum_kind != ENUM_NONE) {
        open_enum(c, decl);
    } else if (decl->type->kind == TK_STRUCT) {
        schema_struct(c, decl->type, d->key);
    } else {
        schema_type(c, decl->type);
    }
}

/* MARK: - Files */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The whole schema document of the named type d. */
static void schema_document(ctx *c, const ast_decl *d, strbuf *out)
{
    c->ndefs = 0;
    collect_decl(c, d);
    c->w = (jw){.sb = out, .depth = 0, .first = true};
    jw *w = &c->w;
    bool s = jw_begin(w, '{');
    jw_key_str(w, "$schema", SCHEMA_DIALECT);
    jw_key_str(w, "title", d->name);
    jw_key_str(w, "description",
               pool_printf(c->pool, "%s.%s of %s: the JSON tagc's generated decoder accepts%s",
                           d->file->package, d->name, base_name(d->file->path),
                           c->strict ? " in strict mode" : ""));
    strbuf r;
    sb_init(&r);
    ref_to(&r, c->defs[0].key, NULL);
    jw_key_str(w, "$ref", r.data);
    sb_free(&r);
    jw_key(w, "$defs");
    bool sd = jw_begin(w, '{');
    for (size_t i = 0; i < c->ndefs; i++) {
        jw_key(w, c->defs[i].key);
        schema_def(c, &c->defs[i]);
    }
    jw_end(w, '}', sd);
    jw_end(w, '}', s);
    sb_puts(out, "\n");
}

static char *schema_path(struct pool *p, const char *dir, const char *name, bool strict)
{
    size_t dn = strlen(dir);
    const char *sep = dn > 0 && dir[dn - 1] == '/' ? "" : "/";
    return pool_printf(p, "%s%s%s%s.schema.json", dir, sep, name, strict ? ".strict" : "");
}

void gen_json_schema_text(const ast_program *prog, const ast_decl *d, bool strict, strbuf *out)
{
    ctx c = {.prog = prog, .pool = pool_new(), .strict = strict};
    schema_document(&c, d, out);
    free(c.defs);
    pool_free(c.pool);
}

int gen_json_schemas(const ast_program *prog, const char *dir, bool strict, const char *depfile,
                     diag *dg)
{
    struct stat st;
    if (!(stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) && mkdir(dir, 0777) != 0) {
        diag_error_file(dg, dir, "cannot create directory");
        return -1;
    }
    ctx c = {.prog = prog, .pool = pool_new()};
    size_t n = 0;
    for (const ast_file *f = prog->files; f; f = f->next)
        for (const ast_decl *d = f->decls; d && f->is_root; d = d->next)
            n++;
    const char **targets = calloc(n * 2 + 1, sizeof *targets);
    int ntargets = 0, rc = 0;
    if (!targets) {
        tagc_out_of_memory();
    }
    for (const ast_file *f = prog->files; f && rc == 0; f = f->next) {
        if (!f->is_root)
            continue;
        for (const ast_decl *d = f->decls; d && rc == 0; d = d->next) {
            for (int variant = 0; variant < (strict ? 2 : 1) && rc == 0; variant++) {
                const char *path = schema_path(c.pool, dir, d->name, variant == 1);
                for (int i = 0; i < ntargets; i++) {
                    if (strcmp(targets[i], path) == 0) {
                        diag_error_file(dg, path, "two types named %s would both be written here",
                                        d->name);
                        rc = -1;
                    }
                }
                if (rc != 0)
                    break;
                c.strict = variant == 1;
                strbuf out;
                sb_init(&out);
                schema_document(&c, d, &out);
                rc = emit_file(path, out.data, out.len, dg);
                sb_free(&out);
                targets[ntargets++] = path;
            }
        }
    }
    if (rc == 0 && depfile)
        rc = write_depfile(depfile, targets, ntargets, prog, dg);
    free(targets);
    free(c.defs);
    pool_free(c.pool);
    return rc;
}
