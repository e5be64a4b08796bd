/*
 * check_enum.c - const blocks become enums: `type Status string` with
 * constants typed Status is a string enum, `type Level int` an int enum.
 *
 * Constants are evaluated as Go does: a spec with neither type nor value
 * repeats the previous spec's type and expression, with its own iota; names
 * refer to other constants of the file, in any order.
 *
 * Duplicate values: an error in a string enum (decoding "paid" could not say
 * which constant it is), allowed in an int enum (Go's aliases such as
 * `LevelDefault = LevelLow`; the number on the wire is the same either way).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pipeline.h"

typedef struct cval {
    bool ok, is_str;
    const char *str;
    int64_t num;
    ast_decl *type; /* of a typed constant, else NULL */
    bool other;     /* a constant tagc does not evaluate (a float, bool, rune, time.Second...) */
} cval;

typedef struct cinfo {
    const_spec *spec;
    const char *type_name; /* effective, after repetition */
    src_loc type_loc;
    const const_expr *value; /* effective */
    bool inherited;
    int state; /* 0 new, 1 evaluating, 2 done */
    cval val;
} cinfo;

typedef struct ectx {
    checker *ck;
    ast_file *file;
    smap consts; /* name -> cinfo */
} ectx;

static cval eval_spec(ectx *e, cinfo *ci);
static bool is_builtin_type(const char *s);

static const cval bad = {false, false, NULL, 0, NULL, false};
static const cval other = {true, false, NULL, 0, NULL, true};

static bool parse_int(const char *s, int64_t *out)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
        base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0' && s[1])
        base = 8, s += 1;
    uint64_t v = 0;
    bool any = false;
    for (; *s; s++) {
        if (*s == '_')
            continue;
        int d = (*s >= '0' && *s <= '9')   ? *s - '0'
                : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
                : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10
                                           : 99;
        if (d >= base || v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
        any = true;
    }
    *out = (int64_t)v;
    return any;
}

static cval eval(ectx *e, const const_expr *x, int iota);

/* Operands of a binary operation: both evaluated, types agreeing. */
static bool operands(ectx *e, const const_expr *x, int iota, cval *a, cval *b)
{
    *a = eval(e, x->a, iota);
    *b = eval(e, x->b, iota);
    if (!a->ok || !b->ok)
        return false;
    if (a->other || b->other)
        return true;
    if (a->is_str != b->is_str || (a->type && b->type && a->type != b->type)) {
        check_error(e->ck, x->loc, "mismatched types in constant expression");
        return false;
    }
    return true;
}

static cval eval_binary(ectx *e, const const_expr *x, int iota)
{
    cval a, b;
    if (!operands(e, x, iota, &a, &b))
        return bad;
    if (a.other || b.other)
        return other;
    cval r = {true, a.is_str, NULL, 0, a.type ? a.type : b.type, false};
    if (a.is_str) {
        if (x->kind != CE_ADD) {
            check_error(e->ck, x->loc, "invalid operation on strings (only + is defined)");
            return bad;
        }
        r.str = pool_printf(e->ck->pool, "%s%s", a.str, b.str);
        return r;
    }
    bool overflow = false;
    switch (x->kind) {
    case CE_ADD:
        overflow = __builtin_add_overflow(a.num, b.num, &r.num);
        break;
    case CE_SUB:
        overflow = __builtin_sub_overflow(a.num, b.num, &r.num);
        break;
    case CE_MUL:
        overflow = __builtin_mul_overflow(a.num, b.num, &r.num);
        break;
    default: /* CE_SHL */
        if (b.num < 0 || b.num > 62 || a.num < 0 || (a.num > (INT64_MAX >> b.num))) {
            overflow = true;
            break;
        }
        r.num = a.num << b.num;
        break;
    }
    if (overflow) {
        check_error(e->ck, x->loc, "constant overflow (tagc evaluates constants in int64)");
        return bad;
    }
    return r;
}

static cval eval(ectx *e, const const_expr *x, int iota)
{
    if (!x)
        return bad;
    cval r = {true, false, NULL, 0, NULL, false};
    switch (x->kind) {
    case CE_OTHER:
        if (x->a) /* its operands are still checked */
            eval(e, x->a, iota);
        if (x->b)
            eval(e, x->b, iota);
        return other;
    case CE_CONV: {
        /* Status("paid") is "paid" typed Status; a builtin type converts; a call is opaque */
        ast_decl *d = smap_get(&check_scope(e->ck, e->file)->decls, x->text);
        bool builtin = is_builtin_type(x->text);
        r = eval(e, x->a, iota);
        if (!r.ok || r.other || (!d && !builtin))
            return r.ok ? other : bad;
        r.type = d;
        return r;
    }
    case CE_INT:
        if (!parse_int(x->text, &r.num)) {
            check_error(e->ck, x->loc, "invalid or too large integer constant %s", x->text);
            return bad;
        }
        return r;
    case CE_STRING:
        r.is_str = true;
        r.str = x->text;
        return r;
    case CE_IOTA:
        r.num = iota;
        return r;
    case CE_NAME: {
        if (strcmp(x->text, "iota") == 0) {
            r.num = iota;
            return r;
        }
        cinfo *ci = smap_get(&e->consts, x->text);
        if (!ci && (!strcmp(x->text, "true") || !strcmp(x->text, "false")))
            return other; /* a boolean constant: nothing to enumerate */
        if (!ci) {
            check_error(e->ck, x->loc, "undefined: %s", x->text);
            return bad;
        }
        if (ci->state == 1) {
            check_error(e->ck, x->loc, "initialization cycle: constant \"%s\" refers to itself",
                        x->text);
            return bad;
        }
        return eval_spec(e, ci);
    }
    case CE_NEG:
        r = eval(e, x->a, iota);
        if (!r.ok || r.other)
            return r;
        if (r.is_str || r.num == INT64_MIN) {
            check_error(e->ck, x->loc, "invalid operation: negation of %s",
                        r.is_str ? "a string" : "the smallest int64");
            return bad;
        }
        r.num = -r.num;
        return r;
    case CE_PAREN:
        return eval(e, x->a, iota);
    default:
        return eval_binary(e, x, iota);
    }
}

static cval eval_spec(ectx *e, cinfo *ci)
{
    if (ci->state == 2)
        return ci->val;
    ci->state = 1;
    ci->val = ci->value ? eval(e, ci->value, ci->spec->iota) : bad;
    if (ci->val.ok && ci->type_name) { /* a typed constant: its type travels with it */
        ast_decl *d = smap_get(&check_scope(e->ck, e->file)->decls, ci->type_name);
        ci->val.type = d;
    }
    ci->state = 2;
    return ci->val;
}

/* MARK: - Enum values */

static bool fits(type_kind k, int64_t v)
{
    switch (k) {
    case TK_INT8: return v >= INT8_MIN && v <= INT8_MAX;
    case TK_INT16: return v >= INT16_MIN && v <= INT16_MAX;
    case TK_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    case TK_UINT8: return v >= 0 && v <= UINT8_MAX;
    case TK_UINT16: return v >= 0 && v <= UINT16_MAX;
    case TK_UINT32: return v >= 0 && v <= UINT32_MAX;
    case TK_UINT64: return v >= 0;
    default: return true;
    }
}

/* StatusPending of Status -> SHOP_STATUS_PENDING; Red of Color -> SHOP_COLOR_RED. */
static const char *value_c_name(checker *ck, const ast_decl *d, const char *name)
{
    size_t n = strlen(d->name);
    const char *rest = name;
    if (strncmp(name, d->name, n) == 0) {
        char c = name[n];
        if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c == '_' && name[n + 1]))
            rest = name + n + (c == '_');
    }
    return c_safe_name(ck->pool, pool_printf(ck->pool, "%s_%s", d->c_upper,
                                             c_upper_name(ck->pool, c_snake_name(ck->pool, rest))));
}

static bool names_a_constant(const const_expr *x);

static void add_value(ectx *e, cinfo *ci, ast_decl *d, cval v)
{
    checker *ck = e->ck;
    const ast_type *u = type_underlying(d->type);
    enum_kind kind = u->kind == TK_STRING ? ENUM_STRING : ENUM_INT;
    src_loc at = ci->inherited || !ci->value ? ci->spec->loc : ci->value->loc;
    if (v.is_str != (kind == ENUM_STRING)) {
        check_error(ck, at, "cannot use %s (untyped %s constant) as %s value in constant "
                            "declaration",
                    v.is_str ? pool_printf(ck->pool, "\"%s\"", v.str)
                             : pool_printf(ck->pool, "%lld", (long long)v.num),
                    v.is_str ? "string" : "int", d->name);
        return;
    }
    if (!v.is_str && !fits(u->kind, v.num)) {
        check_error(ck, at, "constant %lld overflows %s (%s)", (long long)v.num, d->name,
                    type_kind_name(u->kind));
        return;
    }
    if (kind == ENUM_STRING)
        for (enum_value *ev = d->values; ev; ev = ev->next)
            if (strcmp(ev->str, v.str) == 0) {
                if (names_a_constant(ci->value))
                    return; /* `Default = Open`: another name for a value, as in Go */
                check_error(ck, at, "duplicate value \"%s\" in enum \"%s\" (constant \"%s\" at %s)",
                            v.str, d->name, ev->name, check_where(ck, ev->loc));
                return;
            }
    enum_value *ev = pool_alloc(ck->pool, sizeof *ev);
    ev->loc = ci->spec->loc;
    ev->name = ci->spec->name;
    ev->c_name = value_c_name(ck, d, ev->name);
    ev->str = v.is_str ? v.str : NULL;
    ev->num = v.is_str ? 0 : v.num;
    check_claim_c_name(ck, ev->c_name, ev->loc, pool_printf(ck->pool, "constant \"%s\"", ev->name));
    enum_value **tail = &d->values;
    while (*tail)
        tail = &(*tail)->next;
    *tail = ev;
    d->value_count++;
    d->enum_kind = kind;
}

static bool is_builtin_type(const char *s)
{
    static const char *const names[] = {"bool", "string", "int", "int8", "int16", "int32",
                                        "int64", "uint", "uint8", "uint16", "uint32", "uint64",
                                        "byte", "rune", "float32", "float64", "uintptr"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0)
            return true;
    return false;
}

/* The enum type a spec names; NULL (after reporting, if wrong) when none. */
static ast_decl *spec_type(ectx *e, cinfo *ci)
{
    checker *ck = e->ck;
    if (!ci->type_name || is_builtin_type(ci->type_name) || strchr(ci->type_name, '.'))
        return NULL; /* a constant of another package's type (a.CauseType): no enum here */
    file_scope *sc = check_scope(ck, e->file);
    ast_decl *d = smap_get(&sc->decls, ci->type_name);
    if (!d) {
        if (check_lookup(ck, e->file, NULL, ci->type_name, ci->type_loc))
            check_error(ck, ci->type_loc, "constants of type \"%s\" must be declared in the file "
                                          "that declares it", ci->type_name);
        else
            check_error(ck, ci->type_loc, "unknown type \"%s\"", ci->type_name);
        return NULL;
    }
    const ast_type *u = type_underlying(d->type);
    if (u && u->kind == TK_NOWIRE)
        return NULL; /* its own JSON methods or no wire form: no enum (reported where needed) */
    if (!u || !(u->kind == TK_STRING || type_is_integer(u->kind))) {
        check_error(ck, ci->type_loc, "constant type \"%s\" must be a string or integer type, "
                                      "not %s", d->name, u ? type_text(ck->pool, u) : "?");
        return NULL;
    }
    return d;
}

/* MARK: - The pass */

static void collect_specs(ectx *e)
{
    checker *ck = e->ck;
    file_scope *sc = check_scope(ck, e->file);
    for (const_block *b = e->file->consts; b; b = b->next) {
        cinfo *prev = NULL;
        for (const_spec *s = b->specs; s; s = s->next) {
            cinfo *ci = pool_alloc(ck->pool, sizeof *ci);
            ci->spec = s;
            ci->type_name = s->type_name;
            ci->type_loc = s->type_loc;
            ci->value = s->value;
            if (s->type_name && !s->value) {
                check_error(ck, s->loc, "missing init expr for const declaration");
            } else if (!s->value && prev) {
                ci->type_name = prev->type_name;
                ci->type_loc = prev->type_loc;
                ci->value = prev->value;
                ci->inherited = true;
            } else if (!s->value) {
                check_error(ck, s->loc, "missing init expr for const declaration");
            }
            if (ci->value)
                prev = ci;
            if (strcmp(s->name, "_") == 0)
                continue; /* blank: only counts for iota and repetition */
            ast_decl *d = smap_get(&sc->decls, s->name);
            cinfo *other = smap_put(&e->consts, s->name, ci);
            if (other)
                check_error(ck, s->loc, "duplicate constant \"%s\" (previous declaration at %s)",
                            s->name, check_where(ck, other->spec->loc));
            else if (d)
                check_error(ck, s->loc, "constant \"%s\" has the name of type \"%s\" at %s",
                            s->name, d->name, check_where(ck, d->loc));
        }
    }
}

/* `Canonical = SHA256`: a constant named after another (through parentheses
 * and conversions). */
static bool names_a_constant(const const_expr *x)
{
    while (x && (x->kind == CE_PAREN || x->kind == CE_CONV))
        x = x->a;
    return x && x->kind == CE_NAME && strcmp(x->text, "iota") != 0;
}

static void file_enums(ectx *e)
{
    /* constants with values of their own first, then those named after
     * others (another name for a value, wherever they are in the block) */
    for (int pass = 0; pass < 2; pass++)
    for (const_block *b = e->file->consts; b; b = b->next)
        for (const_spec *s = b->specs; s; s = s->next) {
            cinfo *ci = smap_get(&e->consts, s->name);
            if (!ci || ci->spec != s || !ci->value)
                continue; /* a duplicate, or missing its value: reported */
            if (names_a_constant(ci->value) != (pass == 1))
                continue;
            ast_decl *d = spec_type(e, ci);
            cval v = eval_spec(e, ci);
            if (!v.ok)
                continue;
            if (v.other) {
                /* a string with a NUL escape is a CE_OTHER without text (parser.y) */
                bool nul = ci->value->kind == CE_OTHER && !ci->value->text;
                if (d)
                    check_error(e->ck, ci->inherited || !ci->value ? s->loc : ci->value->loc,
                                "constant %s of type %s: tagc cannot evaluate its value (%s)",
                                s->name, d->name,
                                nul ? "a NUL character, which the generated C's strings "
                                      "cannot hold"
                                    : "an enum's values must be integer or string constants");
                continue;
            }
            if (!d && !ci->type_name)
                d = v.type; /* `X = StatusPaid` is typed Status */
            else if (d && v.type && v.type != d) {
                check_error(e->ck, ci->value->loc, "cannot use constant of type %s as %s value",
                            v.type->name, d->name);
                continue;
            }
            if (d)
                add_value(e, ci, d, v);
        }
}

void check_enums(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++) {
        ectx e = {ck, ck->scopes[i].file, {0}};
        smap_init(&e.consts);
        collect_specs(&e);
        file_enums(&e);
        smap_free(&e.consts);
    }
}
