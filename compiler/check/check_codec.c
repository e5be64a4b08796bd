/*
 * check_codec.c - `//tagc:codec`: C functions of the user's read and write a
 * named type, as Go's MarshalJSON/UnmarshalJSON do for a Go type.
 *
 *   //tagc:codec ctype=tagc_time json=gh_timestamp_json msgpack=gh_timestamp_msgpack wire=string|integer
 *   type Timestamp struct{ time.Time }
 *
 * Settings, KEY=VALUE separated by blanks (a VALUE with blanks in double quotes):
 *   ctype    the C type that holds a value (required): "tagc_time", "struct ts"
 *   wire     what JSON values it reads and writes (required): string, integer,
 *            number, boolean, object, array, null, or any; several joined by '|'
 *   json     prefix of `int P_read(tagc_json_dec *, T *)` and
 *            `void P_write(tagc_buf *, const T *, const tagc_json_opts *)`
 *   msgpack  prefix of `int P_read(tagc_mp_dec *, T *)` and
 *            `void P_write(tagc_buf *, const T *)`
 *   include  a header the generated one includes first (for ctype): "ts.h" or <ts.h>
 *   equal    `bool F(const T *, const T *)` for the generated _equal (default: the bytes)
 *   zero     `bool F(const T *)`, Go's IsZero for omitzero (default: all bytes zero)
 * The type's declaration becomes a TK_CODEC: the generated code of every use
 * (fields, slices, maps, pointers, arrays) calls the type's own _read_json and
 * the like, which call the user's functions (gen_codec.c).
 */
#include <string.h>

#include "check.h"

static bool is_ident(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* A C type name: identifiers and blanks ("struct gh_ts", "unsigned long"). */
static bool is_ctype(const char *s)
{
    bool any = false;
    for (; *s; s++) {
        if (*s == ' ')
            continue;
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
        any = true;
    }
    return any;
}

static const struct {
    const char *name;
    unsigned bits;
} shapes[] = {
    { "string", CW_STRING },   { "integer", CW_INTEGER }, { "number", CW_NUMBER | CW_INTEGER },
    { "boolean", CW_BOOLEAN }, { "object", CW_OBJECT },   { "array", CW_ARRAY },
    { "null", CW_NULL },       { "any", CW_ANY },
};

/* The CW_* bits of "string|integer"; 0 when a part is not a shape. */
static unsigned parse_wire(const char *s)
{
    unsigned bits = 0;
    while (*s) {
        const char *bar = strchr(s, '|');
        size_t n = bar ? (size_t)(bar - s) : strlen(s);
        unsigned one = 0;
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
            if (strlen(shapes[i].name) == n && !strncmp(shapes[i].name, s, n))
                one = shapes[i].bits;
        if (!one)
            return 0;
        bits |= one;
        s += n + (bar != NULL);
        if (bar && !*s)
            return 0;
    }
    return bits;
}

/* Reads the settings of text (after "codec") into c; false after an error. */
static bool parse_settings(checker *ck, const ast_directive *dv, const char *text, type_codec *c)
{
    const char *s = text;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s)
            return true;
        const char *key = s;
        while (*s && *s != '=' && *s != ' ' && *s != '\t')
            s++;
        size_t klen = (size_t)(s - key);
        if (*s != '=') {
            check_error(ck, dv->loc, "//tagc:codec: expected KEY=VALUE, found \"%.*s\"", (int)klen, key);
            return false;
        }
        s++;
        const char *val;
        size_t vlen;
        if (*s == '"') {
            val = ++s;
            while (*s && *s != '"')
                s++;
            if (!*s) {
                check_error(ck, dv->loc, "//tagc:codec: unterminated \" in the value of %.*s",
                            (int)klen, key);
                return false;
            }
            vlen = (size_t)(s - val);
            s++;
        } else {
            val = s;
            while (*s && *s != ' ' && *s != '\t' && *s != '\r')
                s++;
            vlen = (size_t)(s - val);
        }
        const char *v = pool_strndup(ck->pool, val, vlen);
        const char **slot = NULL;
        if (klen == 5 && !strncmp(key, "ctype", 5))
            slot = &c->ctype;
        else if (klen == 4 && !strncmp(key, "json", 4))
            slot = &c->json;
        else if (klen == 7 && !strncmp(key, "msgpack", 7))
            slot = &c->msgpack;
        else if (klen == 7 && !strncmp(key, "include", 7))
            slot = &c->include;
        else if (klen == 5 && !strncmp(key, "equal", 5))
            slot = &c->equal;
        else if (klen == 4 && !strncmp(key, "zero", 4))
            slot = &c->is_zero;
        else if (klen == 4 && !strncmp(key, "wire", 4))
            slot = &c->wire_text;
        if (!slot) {
            check_error(ck, dv->loc, "//tagc:codec: unknown setting \"%.*s\" (tagc knows ctype, "
                                     "wire, json, msgpack, include, equal and zero)", (int)klen, key);
            return false;
        }
        if (*slot) {
            check_error(ck, dv->loc, "//tagc:codec: %.*s is given twice", (int)klen, key);
            return false;
        }
        *slot = v;
    }
}

static bool check_settings(checker *ck, const ast_directive *dv, type_codec *c)
{
    if (!c->ctype || !is_ctype(c->ctype)) {
        check_error(ck, dv->loc, c->ctype ? "//tagc:codec: ctype \"%s\" is not a C type name"
                                          : "//tagc:codec: missing ctype=%s (the C type that "
                                            "holds a value, as ctype=tagc_time)",
                    c->ctype ? c->ctype : "");
        return false;
    }
    if (!c->wire_text || !(c->wire = parse_wire(c->wire_text))) {
        check_error(ck, dv->loc, "//tagc:codec: %s%s%s (want string, integer, number, boolean, "
                                 "object, array, null or any, joined by '|', as wire=string|integer)",
                    c->wire_text ? "bad wire shape \"" : "missing wire=",
                    c->wire_text ? c->wire_text : "", c->wire_text ? "\"" : "");
        return false;
    }
    if (!c->json && !c->msgpack) {
        check_error(ck, dv->loc, "//tagc:codec: name the C functions with json=PREFIX, "
                                 "msgpack=PREFIX or both");
        return false;
    }
    const char *const fns[] = { c->json, c->msgpack, c->equal, c->is_zero };
    static const char *const keys[] = { "json", "msgpack", "equal", "zero" };
    for (int i = 0; i < 4; i++)
        if (fns[i] && (!is_ident(fns[i]) || c_is_reserved(fns[i]))) {
            check_error(ck, dv->loc, "//tagc:codec: %s=%s is not a C function name", keys[i], fns[i]);
            return false;
        }
    if (c->include && (!*c->include || strpbrk(c->include, "\"\n")) ) {
        check_error(ck, dv->loc, "//tagc:codec: include=%s is not a header name", c->include);
        return false;
    }
    return true;
}

void check_codec_directive(checker *ck, const ast_directive *dv, const char *settings,
                           ast_decl *d)
{
    type_codec *c = pool_alloc(ck->pool, sizeof *c);
    c->loc = dv->loc;
    if (!parse_settings(ck, dv, settings, c) || !check_settings(ck, dv, c))
        return;
    if (d->enum_kind != ENUM_NONE || d->is_alias || d->type_params || d->codec) {
        check_error(ck, dv->loc, "//tagc:codec: type \"%s\" is %s: a codec goes on a defined, "
                                 "non-generic type without constants", d->name,
                    d->codec ? "given a codec twice" : d->is_alias ? "an alias"
                    : d->type_params ? "generic" : "an enum");
        return;
    }
    if (!d->json_type)
        d->json_type = d->type; /* as written: the Go side's */
    ast_type *t = ast_type_new(ck->pool, TK_CODEC, d->loc);
    t->decl = d;
    t->name = d->name;
    d->type = t;
    d->codec = c;
}
