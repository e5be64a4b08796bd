/*
 * test_wide.c - the errors of generated readers that take a field's name from
 * the struct's key tables: strict mode's missing keys (in the second word of
 * seen bits too) and the key of a value that fails, for a name that is not
 * plain ASCII ("café"), in JSON and MessagePack.
 */
#include <criterion/criterion.h>

#include <string.h>

#include <tagc.h>

#include "wide.tagc.h"

static int json(const char *doc, bool strict, tagc_error *err)
{
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_json_opts opts = {0};
    opts.strict = strict;
    wide_wide v;
    int rc = wide_wide_decode_json(&v, doc, strlen(doc), &arena, err, &opts);
    tagc_arena_free(&arena);
    return rc;
}

static int msgpack(const char *doc, size_t len, tagc_error *err)
{
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_json_opts opts = {0};
    opts.strict = true;
    wide_wide v;
    int rc = wide_wide_decode_msgpack_opts(&v, (const uint8_t *)doc, len, &arena, err, &opts);
    tagc_arena_free(&arena);
    return rc;
}

Test(wide, json_missing)
{
    tagc_error err;
    cr_expect_eq(json("{}", true, &err), TAGC_E_MISSING);
    cr_expect_str_eq(err.message, "required key \"caf\303\251\" is missing");
    cr_expect_eq(err.offset, 1);
    cr_expect_eq(json("{\"caf\303\251\":1,\"f00\":2}", true, &err), TAGC_E_MISSING);
    cr_expect_str_eq(err.message, "required key \"f65\" is missing");
    cr_expect_eq(json("{\"caf\303\251\":1,\"f65\":1,\"f66\":1,\"f67\":1,\"f68\":1}", true, &err),
                 TAGC_E_MISSING);
    cr_expect_str_eq(err.message, "required key \"f69\" is missing");
    cr_expect_eq(json("{\"caf\303\251\":1,\"f65\":1,\"f66\":1,\"f67\":1,\"f68\":1,\"f69\":1}", true, &err),
                 0);
}

Test(wide, json_field_fails)
{
    tagc_error err;
    cr_expect_eq(json("{\"f63\":1,\"caf\303\251\":true}", false, &err), TAGC_E_TYPE);
    cr_expect_str_eq(err.path, "$[\"caf\303\251\"]");
    cr_expect_eq(json("{\"f65\":\"x\"}", false, &err), TAGC_E_TYPE);
    cr_expect_str_eq(err.path, "$.f65");
    cr_expect_eq(json("{\"CAF\303\251\":\"x\"}", false, &err), TAGC_E_TYPE); /* found folded */
    cr_expect_str_eq(err.path, "$[\"caf\303\251\"]");
}

Test(wide, msgpack_missing)
{
    tagc_error err;
    cr_expect_eq(msgpack("\x80", 1, &err), TAGC_E_MISSING);
    cr_expect_str_eq(err.message, "required key \"caf\303\251\" is missing");
    /* {"café": 1, "f65": 1} */
    cr_expect_eq(msgpack("\x82\xa5" "caf\303\251\x01\xa3" "f65\x01", 13, &err), TAGC_E_MISSING);
    cr_expect_str_eq(err.message, "required key \"f66\" is missing");
}
