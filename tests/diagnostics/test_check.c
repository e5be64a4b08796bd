/*
 * test_check.c - what the checker computes for valid schemas: C names, enum
 * values, and each struct's wire fields in Go's order (encoding/json's
 * typeFields), read off schemas/kitchen_sink.tagc and small inline inputs.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pipeline.h"

/* MARK: - Names */

Test(names, snake_case)
{
    struct pool *p = pool_new();
    static const char *const cases[][2] = {
        {"User", "user"},         {"OrderItem", "order_item"}, {"CreatedAt", "created_at"},
        {"ID", "id"},             {"HTTPCode", "http_code"},   {"UserID", "user_id"},
        {"URLs", "urls"},         {"IDsList", "ids_list"},     {"ProfileImageURLHTTPS", "profile_image_url_https"},
        {"XMLHTTPRequest", "xml_http_request"}, {"JSONAPI", "json_api"},
        {"APIKey", "api_key"},    {"Sha256Sum", "sha256_sum"}, {"V2", "v2"},
        {"userId", "user_id"},    {"Status_Paid", "status_paid"}, {"a", "a"},
        {"JSONOnly", "json_only"}, {"X", "x"},                 {"HTTP2Server", "http2_server"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_str_eq(c_snake_name(p, cases[i][0]), cases[i][1], "%s", cases[i][0]);
    cr_expect_str_eq(c_upper_name(p, "order_item"), "ORDER_ITEM");
    pool_free(p);
}

Test(names, members_avoid_c_keywords)
{
    struct pool *p = pool_new();
    cr_expect_str_eq(c_member_name(p, "Int"), "int_");
    cr_expect_str_eq(c_member_name(p, "Default"), "default_");
    cr_expect_str_eq(c_member_name(p, "Struct"), "struct_");
    cr_expect_str_eq(c_member_name(p, "Char"), "char_");
    cr_expect_str_eq(c_member_name(p, "Errno"), "errno_");
    cr_expect_str_eq(c_member_name(p, "Name"), "name");
    /* the table must stay sorted for bsearch: every entry finds itself */
    static const char *const all[] = {"_Alignas", "alignas", "auto", "bool", "while",
                                      "uint8_t", "unix", "volatile", "int8_t", "i386"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        cr_expect(c_is_reserved(all[i]), "%s", all[i]);
    pool_free(p);
}

Test(names, members_avoid_cxx_keywords_and_std_macros)
{
    struct pool *p = pool_new();
    cr_expect_str_eq(c_member_name(p, "Protected"), "protected_");
    cr_expect_str_eq(c_member_name(p, "Class"), "class_");
    cr_expect_str_eq(c_member_name(p, "CoAwait"), "co_await_");
    cr_expect_str_eq(c_member_name(p, "Char8T"), "char8_t_");
    cr_expect_str_eq(c_member_name(p, "Complex"), "complex_");
    cr_expect_str_eq(c_member_name(p, "And"), "and_");
    cr_expect_str_eq(c_member_name(p, "Stdin"), "stdin_");
    cr_expect_str_eq(c_member_name(p, "StaticAssert"), "static_assert_");
    cr_expect_str_eq(c_member_name(p, "EOF"), "eof"); /* lower case: no macro */
    cr_expect_str_eq(c_member_name(p, "Classes"), "classes");
    /* whole names, as types and enum constants are checked */
    cr_expect_str_eq(c_safe_name(p, pool_strdup(p, "co_await")), "co_await_");
    cr_expect_str_eq(c_safe_name(p, pool_strdup(p, "INT_LEAST8_MAX")), "INT_LEAST8_MAX_");
    cr_expect_str_eq(c_safe_name(p, pool_strdup(p, "shop_order")), "shop_order");
    /* each table sorted for bsearch: its first, middle and last entries find themselves */
    static const char *const all[] = {
        "_Alignas", "default", "while", "and", "namespace", "xor_eq", "ATOMIC_BOOL_LOCK_FREE",
        "ATOMIC_POINTER_LOCK_FREE", "NULL", "EOF", "UINT_LEAST8_MAX", "assert", "memory_order",
        "wint_t", "stdout", "errno", "imaginary", "unreachable"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        cr_expect(c_is_reserved(all[i]), "%s", all[i]);
    cr_expect(!c_is_reserved("ATOMIC_POINTER_LOCK_FREEX"));
    cr_expect(!c_is_reserved("co"));
    pool_free(p);
}

/* MARK: - Checking whole files */

typedef struct checked {
    ast_program prog;
    int errors;
    char *text;
    size_t len;
} checked;

static checked *check_path(const char *path)
{
    checked *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    FILE *out = open_memstream(&c->text, &c->len);
    diag dg;
    diag_init(&dg, out);
    const char *paths[] = {path};
    c->errors = load_program(&c->prog, paths, 1, &dg);
    if (c->errors == 0)
        c->errors = check_program(&c->prog, &dg);
    fclose(out);
    return c;
}

static checked *check_text(const char *src)
{
    char dir[] = "/tmp/tagc-check-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/t.tagc", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(src, f);
    fclose(f);
    checked *c = check_path(path);
    remove(path);
    rmdir(dir);
    return c;
}

static void checked_free(checked *c)
{
    ast_program_free(&c->prog);
    free(c->text);
    free(c);
}

static ast_decl *decl(checked *c, const char *name)
{
    for (ast_file *f = c->prog.files; f; f = f->next)
        for (ast_decl *d = f->decls; d; d = d->next)
            if (strcmp(d->name, name) == 0)
                return d;
    cr_assert_fail("no type %s", name);
    return NULL;
}

static const wire_field *wire(const ast_type *st, const char *json_name)
{
    for (size_t i = 0; i < st->wire_count; i++)
        if (st->wire[i].json_name && strcmp(st->wire[i].json_name, json_name) == 0)
            return &st->wire[i];
    return NULL;
}

/* The JSON names of st's wire, space-separated, "(mp:x)" for MessagePack-only ones. */
static char *wire_text(checked *c, const ast_type *st)
{
    char *s = pool_strdup(c->prog.pool, "");
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (w->json_name)
            s = pool_printf(c->prog.pool, "%s%s%s", s, i ? " " : "", w->json_name);
        else
            s = pool_printf(c->prog.pool, "%s%s(mp:%s)", s, i ? " " : "", w->msgpack_name);
    }
    return s;
}

/* The MessagePack keys of st in wire order. */
static char *mp_text(checked *c, const ast_type *st)
{
    char *s = pool_strdup(c->prog.pool, "");
    for (size_t i = 0; i < st->wire_count; i++)
        if (st->wire[i].msgpack_name)
            s = pool_printf(c->prog.pool, "%s%s%s", s, *s ? " " : "", st->wire[i].msgpack_name);
    return s;
}

static const char *sink_path(void)
{
    const char *dir = getenv("SCHEMAS_DIR");
    cr_assert_not_null(dir, "SCHEMAS_DIR is not set");
    static char path[4096];
    snprintf(path, sizeof path, "%s/kitchen_sink.tagc", dir);
    return path;
}

Test(check, kitchen_sink_names_and_enums)
{
    checked *c = check_path(sink_path());
    cr_assert_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    cr_expect_str_eq(decl(c, "Sink")->c_name, "sink_sink");
    cr_expect_str_eq(decl(c, "Money")->c_name, "sink_money");

    ast_decl *color = decl(c, "Color");
    cr_assert_eq(color->enum_kind, ENUM_STRING);
    cr_assert_eq(color->value_count, 3);
    cr_expect_str_eq(color->values->c_name, "SINK_COLOR_RED");
    cr_expect_str_eq(color->values->str, "red");
    cr_expect_str_eq(color->values->next->next->c_name, "SINK_COLOR_BLUE");

    ast_decl *prio = decl(c, "Priority");
    cr_assert_eq(prio->enum_kind, ENUM_INT);
    int64_t want[] = {0, 1, 2, 12};
    const char *names[] = {"SINK_PRIORITY_LOW", "SINK_PRIORITY_MEDIUM", "SINK_PRIORITY_HIGH",
                           "SINK_PRIORITY_URGENT"};
    cr_assert_eq(prio->value_count, 4);
    size_t i = 0;
    for (enum_value *v = prio->values; v; v = v->next, i++) {
        cr_expect_eq(v->num, want[i], "%s", v->name);
        cr_expect_str_eq(v->c_name, names[i]);
    }
    ast_decl *perm = decl(c, "Perm");
    cr_expect_eq(perm->values->next->next->num, 4);
    cr_expect_eq(decl(c, "Label")->enum_kind, ENUM_NONE);
    cr_expect_eq(decl(c, "Unit")->enum_kind, ENUM_STRING);
    cr_expect_str_eq(decl(c, "Unit")->values->c_name, "SINK_UNIT_KG");
    checked_free(c);
}

Test(check, kitchen_sink_wire_order)
{
    checked *c = check_path(sink_path());
    cr_assert_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    const ast_type *st = decl(c, "Sink")->type;
    cr_expect_str_eq(wire_text(c, st),
                     "id version created_by created_at Label scalars when timeout raw iface any "
                     "doc list fixed pairs points matrix blob hash child score flag by_name by_id "
                     "by_color by_label by_level names color priority perm big ratio ok quoted "
                     "maybe - (mp:mp_only) json_only renamed NoTag default struct Left Right "
                     "address items money unit other");
    const wire_field *w = wire(st, "id");
    cr_assert_not_null(w);
    cr_expect_eq(w->path_len, 2);
    cr_expect_str_eq(w->path[0]->name, "Base");
    cr_expect_str_eq(w->msgpack_name, "id");
    cr_expect(wire(st, "version")->json_omitempty);
    cr_expect_str_eq(wire(st, "created_at")->path[0]->name, "Audit");
    cr_expect(wire(st, "big")->json_string);
    cr_expect(wire(st, "maybe")->json_string);
    cr_expect(wire(st, "quoted")->json_string);
    cr_expect_not(wire(st, "scalars")->json_string);
    cr_expect_null(wire(st, "json_only")->msgpack_name);
    cr_expect_str_eq(wire(st, "renamed")->msgpack_name, "r");
    cr_expect(wire(st, "renamed")->msgpack_omitempty);
    cr_expect_str_eq(wire(st, "-")->msgpack_name, "-");
    cr_expect(wire(st, "Left")->json_omitempty);
    cr_expect_str_eq(wire(st, "NoTag")->msgpack_name, "NoTag");
    cr_expect_str_eq(wire(st, "default")->field->c_name, "default_");

    const ast_type *addr = wire(st, "address")->field->type;
    cr_expect_str_eq(addr->c_name, "sink_sink_address");
    cr_expect_str_eq(wire_text(c, addr), "city geo");
    const ast_type *geo = wire(addr, "geo")->field->type;
    cr_expect_str_eq(geo->c_name, "sink_sink_address_geo");
    cr_expect_str_eq(wire_text(c, geo), "Lat Lon");
    cr_expect_str_eq(wire(st, "items")->field->type->elem->c_name, "sink_sink_items");

    /* unexported fields are in the C struct, never on the wire */
    for (ast_field *f = st->fields; f; f = f->next)
        if (strcmp(f->name, "secret") == 0)
            cr_expect_not(f->exported);
    cr_expect_null(wire(st, "internal"));
    checked_free(c);
}

Test(check, go_embedding_rules)
{
    checked *c = check_text(
        "package p\n"
        "type A struct { X int; Y int `json:\"y\"`; Z int }\n"
        "type B struct { X int `json:\"X\"`; Y int; W int }\n"
        "type N string\n"
        "type T struct {\n"
        "\tA\n"
        "\t*B\n"
        "\tN\n"
        "\tZ string `json:\"Z\"`\n"
        "\tC A `json:\"c\"`\n"
        "\ttb B `json:\"tb\"`\n"
        "}\n"
        "type Self struct { *Self; V int }\n"
        "type hidden struct { H int }\n"
        "type U struct { hidden; Q int `json:\"q\" msgpack:\"Q2\"` }\n"
        "type M struct { Name string `json:\"name\"` }\n"
        "type K struct {\n"
        "\tM `json:\"metadata\"`\n"
        "\tL M `json:\"l,omitempty\"`\n"
        "\t*A `json:\"a,omitempty\"`\n"
        "\tB `msgpack:\"b,noinline\"`\n"
        "}\n"
        "type I struct { Y int; A `json:\",inline\"` }\n");
    cr_assert_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    /* X: B's tagged X beats A's untagged one at the same depth; T.Z hides A.Z;
     * y and Y differ; N is a regular field; tb is unexported. */
    cr_expect_str_eq(wire_text(c, decl(c, "T")->type),
                     "(mp:X) y (mp:B) X Y W N Z c");
    cr_expect_str_eq(wire_text(c, decl(c, "Self")->type), "(mp:Self) V");
    /* MessagePack, by vmihailenco/msgpack's rules: A inlined depth first; B's X
     * clashes with A's, so *B is one key "B" holding a map; T.Z comes after the
     * promoted A.Z and takes the key; Self in itself is a key, not inlined. */
    cr_expect_str_eq(mp_text(c, decl(c, "T")->type), "X y B N Z c");
    cr_expect_str_eq(mp_text(c, decl(c, "Self")->type), "Self V");
    cr_expect(decl(c, "T")->type->msgpack_nil_promoted);
    /* an embedded struct named in its tag is inlined too (k8s metav1.ObjectMeta
     * `json:"metadata"`), unless noinline; a field with omitempty makes the
     * fields behind a nil embedded pointer left out rather than nil */
    cr_expect_str_eq(mp_text(c, decl(c, "K")->type), "name l X y Z b");
    cr_expect_not(decl(c, "K")->type->msgpack_nil_promoted);
    /* `inline` forces it: the keys already there (Y) are dropped from A's */
    cr_expect_str_eq(mp_text(c, decl(c, "I")->type), "Y X y Z");
    /* an unexported embedded struct still promotes its exported fields */
    cr_expect_str_eq(wire_text(c, decl(c, "U")->type), "H q");
    cr_expect_str_eq(wire(decl(c, "U")->type, "q")->msgpack_name, "Q2");
    checked_free(c);
}

Test(check, iota_and_repetition)
{
    checked *c = check_text("package p\n"
                            "type Level int8\n"
                            "const (\n"
                            "\t_ = iota\n"
                            "\tLevelA Level = iota * 10\n"
                            "\tLevelB\n"
                            "\tLevelC = LevelB - 5\n"
                            "\tLevelD Level = -(1 << 3)\n"
                            ")\n"
                            "type Kind string\n"
                            "const KindX Kind = \"x\" + \"y\"\n");
    cr_assert_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    ast_decl *lv = decl(c, "Level");
    cr_assert_eq(lv->value_count, 4);
    cr_expect_eq(lv->values->num, 10);
    cr_expect_eq(lv->values->next->num, 20);
    cr_expect_eq(lv->values->next->next->num, 15);
    cr_expect_eq(lv->values->next->next->next->num, -8);
    cr_expect_str_eq(lv->values->c_name, "P_LEVEL_A");
    cr_expect_str_eq(decl(c, "Kind")->values->str, "xy");
    checked_free(c);
}

/* An unknown tag option is a warning: the schema still checks (0 errors). */
Test(check, unknown_tag_option_warns)
{
    checked *c = check_text("package p\n"
                            "type T struct {\n"
                            "\tA int `json:\"a,omitempyt\"`\n"
                            "\tB int `json:\"b,omitzero\" msgpack:\"b,omitzero\"`\n"
                            "}\n");
    cr_expect_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    cr_expect(strstr(c->text, "warning: unknown json tag option \"omitempyt\"") != NULL, "%.*s",
              (int)c->len, c->text);
    ast_decl *t = decl(c, "T");
    cr_expect(!t->type->wire[0].json_omitempty && !t->type->wire[0].json_omitzero);
    cr_expect(t->type->wire[1].json_omitzero && t->type->wire[1].msgpack_omitzero);
    checked_free(c);
}

/* Enums are open unless //tagc:closed comes right before their type: it may
 * end a doc comment, stand apart from it by blank lines and comments, or
 * precede one type of a group. */
Test(check, closed_directive)
{
    checked *c = check_text("package p\n"
                            "\n"
                            "//tagc:closed\n"
                            "// Status is closed.\n"
                            "\n"
                            "type Status string\n"
                            "const StatusPaid Status = \"paid\"\n"
                            "type (\n"
                            "\t//tagc:closed \r\n"
                            "\tLevel int\n"
                            "\tOpen  int\n"
                            ")\n"
                            "const (\n"
                            "\tLevelLow Level = 1\n"
                            "\tOpenA    Open  = 1\n"
                            ")\n"
                            "type Free string\n"
                            "const FreeA Free = \"a\"\n");
    cr_assert_eq(c->errors, 0, "%.*s", (int)c->len, c->text);
    cr_expect(decl(c, "Status")->enum_closed);
    cr_expect(decl(c, "Level")->enum_closed);
    cr_expect(!decl(c, "Open")->enum_closed);
    cr_expect(!decl(c, "Free")->enum_closed);
    cr_expect(decl_is_closed_enum(decl(c, "Status")));
    cr_expect(!decl_is_closed_enum(decl(c, "Free")));
    checked_free(c);
}
