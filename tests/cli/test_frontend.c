/*
 * test_frontend.c - the lexer and parser build the AST of ast.h faithfully,
 * with positions, and report syntax errors in gcc's form.
 *
 * Expected positions are read off the inputs below (1-based line, byte column).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

typedef struct parsed {
    ast_program prog;
    ast_file *file;
    int errors;
    char *diag_text;
    size_t diag_len;
} parsed;

static parsed *parse_bytes(const char *src, size_t len)
{
    parsed *p = calloc(1, sizeof *p);
    cr_assert_not_null(p);
    p->prog.pool = pool_new();
    ast_file *f = pool_alloc(p->prog.pool, sizeof *f);
    f->path = f->display = "t.tagc";
    f->source = pool_strndup(p->prog.pool, src, len);
    f->source_len = len;
    FILE *out = open_memstream(&p->diag_text, &p->diag_len);
    cr_assert_not_null(out);
    diag dg;
    diag_init(&dg, out);
    p->errors = parse_file(&p->prog, f, &dg);
    fclose(out);
    cr_assert_eq(p->errors, dg.errors);
    p->file = f;
    return p;
}

static parsed *parse_text(const char *src)
{
    return parse_bytes(src, strlen(src));
}

static void parsed_free(parsed *p)
{
    ast_program_free(&p->prog);
    free(p->diag_text);
    free(p);
}

static const ast_decl *decl_named(const ast_file *f, const char *name)
{
    for (const ast_decl *d = f->decls; d; d = d->next)
        if (strcmp(d->name, name) == 0)
            return d;
    cr_assert_fail("no declaration %s", name);
    return NULL;
}

static const ast_field *field_at(const ast_type *st, int index)
{
    cr_assert_eq(st->kind, TK_STRUCT);
    const ast_field *f = st->fields;
    for (int i = 0; i < index && f; i++)
        f = f->next;
    cr_assert_not_null(f, "no field %d", index);
    return f;
}

#define assert_loc(l, ln, cl)                                                           \
    do {                                                                                \
        cr_assert_eq((l).line, (ln), "line %d, expected %d", (l).line, (ln));           \
        cr_assert_eq((l).col, (cl), "col %d, expected %d", (l).col, (cl));              \
    } while (0)

static const char shop[] =
    "// a shop\n"                                            /* 1 */
    "package shop\n"                                         /* 2 */
    "\n"                                                     /* 3 */
    "import \"common.tagc\"\n"                               /* 4 */
    "import (\n"                                             /* 5 */
    "\t\"time\"\n"                                           /* 6 */
    "\t\"encoding/json\"\n"                                  /* 7 */
    ")\n"                                                    /* 8 */
    "type Status string\n"                                   /* 9 */
    "type User struct {\n"                                   /* 10 */
    "\tID    int64 `json:\"id\"`\n"                         /* 11 */
    "\tLeft, Right *User\n"                                  /* 12 */
    "\tAttrs map[string][]time.Time \"json:\\\"attrs\\\"\"\n" /* 13 */
    "\tM     [0x3][2]float64\n"                              /* 14 */
    "\tAny   interface{}\n"                                  /* 15 */
    "\tAddr  struct { City string `json:\"city\"` } `json:\"addr\"`\n" /* 16 */
    "\tBase\n"                                               /* 17 */
    "\t*common.Other `json:\"o\"`\n"                         /* 18 */
    "\tx int32; Y int32 /* two on a line */\n"               /* 19 */
    "}\n"                                                    /* 20 */
    "type ( A int; B []A )";                                 /* 21: no final newline */

Test(frontend, package_imports_and_decls)
{
    parsed *p = parse_text(shop);
    cr_assert_eq(p->errors, 0, "%s", p->diag_text);
    cr_assert_str_eq(p->file->package, "shop");
    assert_loc(p->file->package_loc, 2, 9);

    const ast_import *im = p->file->imports;
    cr_assert_str_eq(im->path, "common.tagc");
    assert_loc(im->loc, 4, 8);
    cr_assert_str_eq(im->next->path, "time");
    assert_loc(im->next->loc, 6, 2);
    cr_assert_str_eq(im->next->next->path, "encoding/json");
    cr_assert_null(im->next->next->next);

    const char *order[] = { "Status", "User", "A", "B" };
    const ast_decl *d = p->file->decls;
    for (size_t i = 0; i < 4; i++, d = d->next) {
        cr_assert_not_null(d);
        cr_assert_str_eq(d->name, order[i]);
        cr_assert_eq(d->file, p->file);
    }
    cr_assert_null(d);
    const ast_decl *status = decl_named(p->file, "Status");
    assert_loc(status->loc, 9, 6);
    cr_assert_eq(status->type->kind, TK_NAME);
    cr_assert_str_eq(status->type->name, "string");
    assert_loc(status->type->loc, 9, 13);
    const ast_type *b = decl_named(p->file, "B")->type;
    cr_assert_eq(b->kind, TK_SLICE);
    cr_assert_str_eq(b->elem->name, "A");
    parsed_free(p);
}

Test(frontend, struct_fields)
{
    parsed *p = parse_text(shop);
    cr_assert_eq(p->errors, 0, "%s", p->diag_text);
    const ast_type *user = decl_named(p->file, "User")->type;
    const char *names[] = { "ID", "Left", "Right", "Attrs", "M", "Any", "Addr", "Base", "Other", "x", "Y" };
    const ast_field *f = user->fields;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++, f = f->next) {
        cr_assert_not_null(f);
        cr_assert_str_eq(f->name, names[i]);
    }
    cr_assert_null(f);

    const ast_field *id = field_at(user, 0);
    assert_loc(id->loc, 11, 2);
    cr_assert_str_eq(id->tag, "json:\"id\"");
    assert_loc(id->tag_loc, 11, 14);
    cr_assert_not(id->embedded);

    const ast_field *left = field_at(user, 1), *right = field_at(user, 2);
    assert_loc(right->loc, 12, 8);
    cr_assert_eq(left->type, right->type, "names on one line share the type");
    cr_assert_eq(left->type->kind, TK_PTR);
    cr_assert_str_eq(left->type->elem->name, "User");
    cr_assert_null(left->tag);

    const ast_type *attrs = field_at(user, 3)->type;
    cr_assert_str_eq(field_at(user, 3)->tag, "json:\"attrs\"", "interpreted tags are unescaped");
    cr_assert_eq(attrs->kind, TK_MAP);
    cr_assert_str_eq(attrs->key->name, "string");
    cr_assert_eq(attrs->elem->kind, TK_SLICE);
    cr_assert_str_eq(attrs->elem->elem->qualifier, "time");
    cr_assert_str_eq(attrs->elem->elem->name, "Time");

    const ast_type *m = field_at(user, 4)->type;
    cr_assert_eq(m->kind, TK_ARRAY);
    cr_assert_str_eq(m->array_len_text, "0x3");
    cr_assert_eq(m->array_len, 3);
    cr_assert_eq(m->elem->kind, TK_ARRAY);
    cr_assert_eq(m->elem->array_len, 2);
    cr_assert_str_eq(m->elem->elem->name, "float64");

    cr_assert_eq(field_at(user, 5)->type->kind, TK_ANY);

    const ast_field *addr = field_at(user, 6);
    cr_assert_eq(addr->type->kind, TK_STRUCT);
    cr_assert_str_eq(addr->type->fields->name, "City");
    cr_assert_str_eq(addr->type->fields->tag, "json:\"city\"");
    cr_assert_null(addr->type->fields->next);
    cr_assert_str_eq(addr->tag, "json:\"addr\"");

    const ast_field *base = field_at(user, 7);
    cr_assert(base->embedded);
    cr_assert_eq(base->type->kind, TK_NAME);
    assert_loc(base->loc, 17, 2);

    const ast_field *other = field_at(user, 8);
    cr_assert(other->embedded);
    cr_assert_eq(other->type->kind, TK_PTR);
    cr_assert_str_eq(other->type->elem->qualifier, "common");
    cr_assert_str_eq(other->tag, "json:\"o\"");
    assert_loc(other->loc, 18, 3);
    parsed_free(p);
}

Test(frontend, const_blocks_and_expressions)
{
    parsed *p = parse_text("package p\n"
                           "const (\n"
                           "\tLow Level = iota\n"
                           "\tHigh\n"
                           "\tX = 1 << 3 + -(2 * 3)\n"
                           "\tS pkg.Kind = \"s\"\n"
                           ")\n"
                           "const One = 0b1_01 + 0o17 + 017 + 0x_1F + 1_000\n");
    cr_assert_eq(p->errors, 0, "%s", p->diag_text);
    const const_block *b = p->file->consts;
    const const_spec *low = b->specs, *high = low->next, *x = high->next, *s = x->next;
    cr_assert_null(s->next);
    cr_assert_str_eq(low->name, "Low");
    cr_assert_str_eq(low->type_name, "Level");
    assert_loc(low->type_loc, 3, 6);
    cr_assert_eq(low->value->kind, CE_IOTA);
    cr_assert_eq(low->iota, 0);
    cr_assert_null(high->type_name);
    cr_assert_null(high->value);
    cr_assert_eq(high->iota, 1);
    assert_loc(high->loc, 4, 2);
    cr_assert_eq(x->iota, 2);
    cr_assert_str_eq(s->type_name, "pkg.Kind");
    cr_assert_eq(s->value->kind, CE_STRING);
    cr_assert_str_eq(s->value->text, "s");

    /* Go's precedence: << binds like *, tighter than + */
    const const_expr *e = x->value;
    cr_assert_eq(e->kind, CE_ADD);
    cr_assert_eq(e->a->kind, CE_SHL);
    cr_assert_str_eq(e->a->a->text, "1");
    cr_assert_str_eq(e->a->b->text, "3");
    cr_assert_eq(e->b->kind, CE_NEG);
    cr_assert_eq(e->b->a->kind, CE_PAREN);
    cr_assert_eq(e->b->a->a->kind, CE_MUL);

    /* integer literals reach the checker as decimal digits */
    const const_spec *one = b->next->specs;
    const char *dec[] = { "1000", "31", "15", "15", "5" };
    e = one->value;
    for (int i = 0; i < 4; i++, e = e->a) {
        cr_assert_eq(e->kind, CE_ADD);
        cr_assert_str_eq(e->b->text, dec[i]);
    }
    cr_assert_str_eq(e->text, dec[4]);
    parsed_free(p);
}

Test(frontend, string_escapes)
{
    parsed *p = parse_text("package p\nconst S = \"\\u00e9\\x41\\101\\t\\\\\\\"\\U0001F600\"\n"
                           "const R = `a\\n\r\nb`\n");
    cr_assert_eq(p->errors, 0, "%s", p->diag_text);
    cr_assert_str_eq(p->file->consts->specs->value->text, "\xc3\xa9" "AA\t\\\"\xf0\x9f\x98\x80");
    cr_assert_str_eq(p->file->consts->next->specs->value->text, "a\\n\nb", "raw: verbatim, CR dropped");
    parsed_free(p);
}

/* One error per bad declaration, each positioned; the good ones still parse. */
Test(frontend, recovers_from_each_error)
{
    parsed *p = parse_text("package p\n"
                           "type A struct {\n"
                           "\tX []\n"
                           "\tY int = 3\n"
                           "\tZ string\n"
                           "}\n"
                           "type B map[string\n"
                           "type C int\n"
                           "const ( D = 1 +; E )\n");
    cr_assert_eq(p->errors, 4, "%s", p->diag_text);
    cr_assert(strstr(p->diag_text, "t.tagc:3:6: error: expected type, found newline\n"), "%s",
              p->diag_text);
    cr_assert(strstr(p->diag_text, "t.tagc:4:8: error: expected "), "%s", p->diag_text);
    cr_assert(strstr(p->diag_text, "t.tagc:7:18: error: expected '.', '[' or ']', found newline\n"), "%s",
              p->diag_text);
    cr_assert(strstr(p->diag_text, "t.tagc:9:16: error: expected expression, found ';'\n"), "%s",
              p->diag_text);
    const ast_type *a = decl_named(p->file, "A")->type;
    cr_assert_str_eq(a->fields->name, "Z", "the field after the errors is kept");
    cr_assert_eq(decl_named(p->file, "C")->type->kind, TK_NAME);
    parsed_free(p);
}

Test(frontend, caret_keeps_tabs)
{
    parsed *p = parse_text("package p\ntype A struct {\n\tX \t[]\n}\n");
    cr_assert_eq(p->errors, 1);
    cr_assert_str_eq(p->diag_text, "t.tagc:3:7: error: expected type, found newline\n"
                                   "    \tX \t[]\n"
                                   "    \t  \t  ^\n");
    parsed_free(p);
}

Test(frontend, missing_package)
{
    parsed *p = parse_text("");
    cr_assert_str_eq(p->diag_text, "t.tagc:1:1: error: expected 'package', found end of file\n"
                                   "    \n"
                                   "    ^\n");
    parsed_free(p);
    p = parse_text("type T int\n");
    cr_assert_eq(p->errors, 1);
    cr_assert(strstr(p->diag_text, "t.tagc:1:1: error: expected 'package', found 'type'"));
    parsed_free(p);
}

Test(frontend, lexical_errors)
{
    static const char src[] = "package p\n"
                              "type T\xff struct {}\n"           /* 2:7 invalid UTF-8 */
                              "type U\xc3\xa9 struct {}\n"       /* 2:7 U+00E9 */
                              "type V struct { A int `\x80` }\n" /* 4:24 in a raw string */
                              "type W\0 int\n"                   /* 5:7 NUL */
                              "const X = 08\n"                   /* 6:11 */
                              "const Y = \"\\q\"\n"              /* 7:12 */
                              "type Z @ int\n";                  /* 8:8 syntax */
    parsed *p = parse_bytes(src, sizeof src - 1);
    const char *want[] = {
        "t.tagc:2:7: error: invalid UTF-8 encoding\n",
        "t.tagc:3:7: error: invalid character U+00E9 '\xc3\xa9'; identifiers must be ASCII\n",
        "t.tagc:4:24: error: invalid UTF-8 encoding in raw string\n",
        "t.tagc:5:7: error: invalid NUL character\n",
        "t.tagc:6:11: error: invalid integer literal '08'\n",
        "t.tagc:7:12: error: unknown escape sequence in string literal\n",
        "t.tagc:8:8: error: expected type, found '@'\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(strstr(p->diag_text, want[i]), "missing %s in:\n%s", want[i], p->diag_text);
    cr_assert_eq(p->errors, 7, "%s", p->diag_text);
    parsed_free(p);
}

Test(frontend, unterminated_literals_report_their_start)
{
    struct {
        const char *src, *want;
    } cases[] = {
        { "package p\ntype T int\n/* open\ncomment", "t.tagc:3:1: error: comment not terminated\n" },
        { "package p\ntype T struct { A int `json:\"a\"\n}\n",
          "t.tagc:2:23: error: raw string literal not terminated\n" },
        { "package p\nconst S = \"abc\n", "t.tagc:2:11: error: string literal not terminated\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parsed *p = parse_text(cases[i].src);
        cr_assert(strncmp(p->diag_text, cases[i].want, strlen(cases[i].want)) == 0, "%s",
                  p->diag_text);
        cr_assert_eq(p->errors, 1, "%s", p->diag_text);
        parsed_free(p);
    }
}

Test(frontend, deep_nesting_is_an_error_not_a_crash)
{
    enum { N = 10000 };
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "package p\ntype T ");
    for (int i = 0; i < N; i++)
        sb_puts(&sb, "struct { A ");
    sb_puts(&sb, "int");
    for (int i = 0; i < N; i++)
        sb_puts(&sb, " }");
    sb_puts(&sb, "\n");
    parsed *p = parse_bytes(sb.data, sb.len);
    cr_assert_eq(p->errors, 1, "%s", p->diag_text);
    cr_assert(strstr(p->diag_text, ": error: nesting too deep\n"));
    cr_assert_lt(p->diag_len, 1000, "the echoed line is cut");
    parsed_free(p);
    sb_free(&sb);
}

Test(frontend, moderate_nesting_parses)
{
    enum { N = 1000 };
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "package p\ntype T ");
    for (int i = 0; i < N; i++)
        sb_puts(&sb, "struct { A ");
    sb_puts(&sb, "[][4]*map[string]int");
    for (int i = 0; i < N; i++)
        sb_puts(&sb, " }");
    parsed *p = parse_bytes(sb.data, sb.len);
    cr_assert_eq(p->errors, 0, "%s", p->diag_text);
    const ast_type *t = p->file->decls->type;
    int depth = 0;
    while (t->kind == TK_STRUCT) {
        t = t->fields->type;
        depth++;
    }
    cr_assert_eq(depth, N);
    cr_assert_eq(t->kind, TK_SLICE);
    parsed_free(p);
    sb_free(&sb);
}

Test(frontend, too_many_errors_stop)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "package p\n");
    for (int i = 0; i < 100000; i++)
        sb_puts(&sb, "\x01");
    parsed *p = parse_bytes(sb.data, sb.len);
    cr_assert_eq(p->errors, 50);
    cr_assert(strstr(p->diag_text, "t.tagc:2:1: error: invalid character U+0001\n"));
    cr_assert(strstr(p->diag_text, "note: too many errors in this file; giving up on it\n"));
    parsed_free(p);
    sb_free(&sb);
}
