/*
 * test_truncation.c - every prefix of the workload documents is rejected.
 *
 * For data/seedwork/{user,order,tree}.json and a kitchen-sink document
 * that uses every kind of field, each prefix is copied into a malloc'd buffer
 * of exactly its length (ASan sees any read past the end) and decoded:
 *   - a prefix that still holds the whole document (only trailing whitespace
 *     cut) decodes;
 *   - every shorter one fails with TAGC_E_EOF or TAGC_E_SYNTAX, the offset at
 *     most the prefix length, a path starting with "$", line and column that
 *     match the offset, and a value that is safe to _equal with itself (see
 *     decode_into in common.h for the rest);
 *   - and, more precisely: a proper prefix of a valid document can always be
 *     continued into valid JSON, so nothing in it is a syntax error: the code
 *     is TAGC_E_EOF and the offset is the prefix length.
 */
#include "common.h"

#include <ctype.h>

static const char kitchen_doc[] =
    "{\"id\":7,\"version\":2,\"created_by\":\"me\",\"created_at\":\"2024-01-02T03:04:05.123456789+01:00\","
    "\"Label\":\"lbl\","
    "\"scalars\":{\"b\":true,\"i\":-1,\"i8\":-128,\"i16\":32767,\"i32\":-5,\"i64\":9223372036854775807,"
    "\"u\":18446744073709551615,\"u8\":255,\"u16\":65535,\"u32\":4294967295,\"u64\":1,\"f32\":1.5,"
    "\"f64\":-2.5e-300,\"by\":7,\"r\":128512,"
    "\"s\":\"h\xc3\xa9llo \\\"q\\\" \\\\ \\u00e9 \\ud83d\\ude00 \\n\\t\\/\"},"
    "\"when\":\"2024-06-01T08:00:00Z\",\"timeout\":1500000000,"
    "\"raw\":{\"a\":[1,2.5e3,\"x\",null,true,{}],\"b\":-0.0},"
    "\"iface\":[1,\"two\",{\"three\":3.0,\"four\":[]},null,false,-1E-2],"
    "\"any\":{\"k\":\"v\"},\"doc\":\"text\",\"list\":[1,-2,3],\"fixed\":[1,2,3,4],"
    "\"pairs\":[[1,2],[3.5,-4]],\"points\":[[0,0]],\"matrix\":[[1,0,0],[0,1,0],[0,0,1]],"
    "\"blob\":\"aGVsbG8=\","
    "\"hash\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,"
    "255],"
    "\"child\":{\"name\":\"c\",\"parent\":{\"name\":\"p\",\"children\":null},"
    "\"children\":[{\"name\":\"g\",\"children\":[]}],\"index\":{\"k\":{\"name\":\"i\",\"children\":null}}},"
    "\"score\":0.5,\"flag\":true,\"by_name\":{\"a\":1,\"b\":-2},\"by_id\":{\"1\":\"one\",\"-2\":\"minus two\"},"
    "\"by_color\":{\"red\":[\"x\"],\"blue\":[]},\"by_label\":{\"l\":9},\"by_level\":{\"2\":true},"
    "\"names\":{\"n\":\"m\"},\"color\":\"green\",\"priority\":12,\"perm\":4,\"big\":\"-123\","
    "\"ratio\":\"0.25\",\"ok\":\"true\",\"quoted\":\"\\\"q\\\"\",\"maybe\":\"42\",\"-\":\"dash\","
    "\"json_only\":\"j\",\"renamed\":\"r\",\"NoTag\":\"nt\",\"default\":\"d\",\"struct\":true,"
    "\"Left\":{\"name\":\"L\",\"children\":null},\"Right\":null,"
    "\"address\":{\"city\":\"c\",\"geo\":{\"Lat\":1.5,\"Lon\":-2}},\"items\":[{\"sku\":\"s\",\"qty\":2}],"
    "\"money\":{\"amount\":100,\"currency\":\"EUR\"},\"unit\":\"kg\",\"other\":\"o\","
    "\"unknown\":{\"skipped\":[1,{\"x\":\"y\"},\"z\\u0041\"]}}\n";

/* The length of doc without its trailing whitespace. */
static size_t trimmed(const char *doc, size_t len)
{
    while (len > 0 && isspace((unsigned char)doc[len - 1]))
        len--;
    return len;
}

/* Decodes every prefix of doc[0..len) as t. step > 1 tests every step-th prefix
 * plus the last 64 bytes' worth (for slow sanitizer runs of big documents). */
static void truncate_all(const target *t, const char *name, const char *doc, size_t len,
                         size_t step)
{
    size_t whole = trimmed(doc, len);
    tagc_error err;
    char what[128];

    snprintf(what, sizeof what, "%s, all %zu bytes", name, len);
    cr_assert_eq(decode_checked(t, doc, len, NULL, &err, what), 0,
                 "%s: the whole document fails: %s at %zu (%s)", name, err.message, err.offset,
                 err.path);

    size_t eof_mismatch = 0, first_mismatch = SIZE_MAX;
    for (size_t n = 0; n < len; n++) {
        if (step > 1 && n % step != 0 && n + 64 < whole && n > 64)
            continue;
        snprintf(what, sizeof what, "%s, first %zu of %zu bytes", name, n, len);
        int rc = decode_checked(t, doc, n, NULL, &err, what);
        if (n >= whole) {
            cr_assert_eq(rc, 0, "%s: %s at %zu (%s)", what, err.message, err.offset, err.path);
            continue;
        }
        cr_assert(rc == TAGC_E_EOF || rc == TAGC_E_SYNTAX,
                  "%s: code %d (%s), want TAGC_E_EOF or TAGC_E_SYNTAX [%s at %zu, path %s]", what,
                  rc, tagc_strerror(rc), err.message, err.offset, err.path);
        cr_assert_leq(err.offset, n, "%s: offset %zu", what, err.offset);
        if (rc != TAGC_E_EOF || err.offset != n) {
            if (eof_mismatch++ == 0)
                first_mismatch = n;
            if (eof_mismatch <= 5)
                cr_log_warn("%s: %s at %zu (%s), expected TAGC_E_EOF at %zu", what,
                            tagc_strerror(rc), err.offset, err.path, n);
        }
    }
    cr_expect_eq(eof_mismatch, 0,
                 "%s: %zu prefixes were not TAGC_E_EOF at their end (the first: %zu bytes)", name,
                 eof_mismatch, first_mismatch);
}

Test(truncation, user, .timeout = 120)
{
    size_t len;
    char *doc = read_data("seedwork/user.json", &len);
    truncate_all(&T_USER, "user.json", doc, len, 1);
    free(doc);
}

Test(truncation, order, .timeout = 120)
{
    size_t len;
    char *doc = read_data("seedwork/order.json", &len);
    truncate_all(&T_ORDR, "order.json", doc, len, 1);
    free(doc);
}

/* 70 KB: every prefix is 70000 decodes of 35 KB on average. TAGC_TRUNCATION_STEP
 * (e.g. 7 under Valgrind) thins them out. */
Test(truncation, tree, .timeout = 600)
{
    size_t len;
    char *doc = read_data("seedwork/tree.json", &len);
    const char *s = getenv("TAGC_TRUNCATION_STEP");
    size_t step = s ? (size_t)strtoul(s, NULL, 10) : 1;
    truncate_all(&T_TREE, "tree.json", doc, len, step ? step : 1);
    free(doc);
}

Test(truncation, kitchen_sink, .timeout = 120)
{
    truncate_all(&T_SINK, "kitchen sink", kitchen_doc, sizeof kitchen_doc - 1, 1);
}

/* The same prefixes in strict mode (the sink document has an unknown key, so
 * not that one): a prefix is never a strict-mode error either, it ends first. */
Test(truncation, strict, .timeout = 120)
{
    static const char *files[] = {"seedwork/user.json", "seedwork/order.json"};
    const target *targets[] = {&T_USER, &T_ORDR};
    tagc_json_opts opts = {0};
    opts.strict = true;
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        char *doc = read_data(files[i], &len);
        size_t whole = trimmed(doc, len);
        for (size_t n = 0; n <= len; n++) {
            tagc_error err;
            char what[128];
            snprintf(what, sizeof what, "strict %s, first %zu of %zu bytes", files[i], n, len);
            int rc = decode_checked(targets[i], doc, n, &opts, &err, what);
            if (n >= whole)
                cr_assert_eq(rc, 0, "%s: %s at %zu (%s)", what, err.message, err.offset,
                             err.path);
            else
                cr_assert(rc == TAGC_E_EOF || rc == TAGC_E_SYNTAX, "%s: %d (%s) [%s at %zu, %s]",
                          what, rc, tagc_strerror(rc), err.message, err.offset, err.path);
        }
        free(doc);
    }
}
