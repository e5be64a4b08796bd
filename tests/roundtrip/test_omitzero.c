/*
 * test_omitzero.c - Go 1.24's `omitzero` tag option (omitzero.tagc), field
 * by field. The expectations are written from Go 1.24's documentation, each
 * case naming its source (tests/go's go_diff checks omitzero against the live
 * Go 1.26 as well):
 *
 *   [json]    encoding/json (Go 1.24), Marshal: "The "omitzero" option
 *             specifies that the field should be omitted from the encoding if
 *             the field has a zero value, according to rules: 1) If the field
 *             type has an "IsZero() bool" method, that will be used to
 *             determine whether the value is zero. 2) Otherwise, the value is
 *             zero if it is the zero value for its type. If both "omitempty"
 *             and "omitzero" are specified, the field will be omitted if the
 *             value is either empty or zero (or both)."
 *   [spec]    the Go spec's zero values: false, 0, "", nil for pointers,
 *             slices, maps and interfaces; structs and arrays element-wise.
 *   [reflect] reflect.Value.IsZero, which rule 2 is (Go 1.22 on: v == zero,
 *             so -0.0 is zero: golang/go#61827; unexported fields count).
 *   [time]    time.Time.IsZero: "reports whether t represents the zero time
 *             instant, January 1, year 1, 00:00:00 UTC" (whatever the zone).
 *   [empty]   omitempty: "false, 0, a nil pointer, a nil interface value, and
 *             any empty array, slice, map, or string".
 *
 * MessagePack: vmihailenco/msgpack v5.3.5 (Debian's) has no omitzero (its
 * omitempty already asks IsZero), so tagc applies Go 1.24's rule there too
 * when a msgpack key (or, without one, the json key) asks for it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omitzero.tagc.h"

/* The JSON of v, as a C string. */
static char *json_of(const oz_z *v)
{
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(oz_z_encode_json(v, &out, NULL), 0);
    char *s = strndup((const char *)out.data, out.len);
    tagc_buf_free(&out);
    return s;
}

/* Whether the JSON of v has the member "key":<value> (value NULL: any). */
static bool has_member(const oz_z *v, const char *key, const char *value, char **text)
{
    *text = json_of(v);
    char want[64];
    snprintf(want, sizeof want, "\"%s\":%s", key, value ? value : "");
    return strstr(*text, want) != NULL;
}

#define EXPECT(v, key, value, present, why)                                                      \
    do {                                                                                         \
        char *text_;                                                                             \
        bool got_ = has_member(v, key, value, &text_);                                           \
        cr_expect_eq(got_, present, "%s: %s expected %s in %s", why, key,                         \
                     (present) ? "present" : "omitted", text_);                                  \
        free(text_);                                                                             \
    } while (0)

static oz_z zero(void)
{
    oz_z v;
    oz_z_init(&v);
    return v;
}

Test(omitzero, all_zero)
{
    oz_z v = zero();
    char *s = json_of(&v);
    /* every omitzero field is omitted; ste has omitempty only, and [empty]
     * never omits a struct; mp has no JSON option */
    cr_expect_str_eq(s, "{\"ste\":{\"a\":0},\"mp\":0}");
    free(s);
}

Test(omitzero, numbers_strings_bools)
{
    oz_z v = zero();
    v.i = 1;
    EXPECT(&v, "i", "1", true, "[spec] 1 is not int's zero value");
    v = zero();
    v.f = -0.0;
    EXPECT(&v, "f", NULL, false, "[reflect] -0.0 == 0 (Go 1.22 on)");
    v.f = 0.5;
    EXPECT(&v, "f", "0.5", true, "[spec]");
    v = zero();
    v.b = true;
    EXPECT(&v, "b", "true", true, "[spec]");
    v = zero();
    v.s = (tagc_str){(char *)"x", 1};
    EXPECT(&v, "s", "\"x\"", true, "[spec]");
    v = zero();
    v.s = (tagc_str){(char *)"x", 0}; /* "" with a pointer: still "" */
    EXPECT(&v, "s", NULL, false, "[spec] \"\"");
    v = zero();
    v.l = OZ_LEVEL_HIGH;
    EXPECT(&v, "l", "2", true, "[spec] an int type with constants is an int");
    v = zero();
    v.sh = OZ_SHADE_DARK;
    EXPECT(&v, "sh", "\"dark\"", true, "[spec] a string type");
}

Test(omitzero, slices_maps_nil_versus_empty)
{
    oz_z v = zero();
    v.sl.ptr = TAGC_EMPTY;
    EXPECT(&v, "sl", "[]", true, "[spec] an empty slice is not nil (omitempty would omit it)");
    v = zero();
    v.by.ptr = TAGC_EMPTY;
    EXPECT(&v, "by", "\"\"", true, "[spec] an empty []byte is not nil");
    v = zero();
    static char *no_keys[1];
    static int64_t no_vals[1];
    v.m.keys = (tagc_str *)(void *)no_keys;
    v.m.vals = no_vals;
    EXPECT(&v, "m", "{}", true, "[spec] an empty map is not nil");
    /* both options: either omits ([json]) */
    v = zero();
    v.sl_e.ptr = TAGC_EMPTY;
    EXPECT(&v, "sle", NULL, false, "[json] omitempty,omitzero: empty is enough");
    static int64_t one[] = {1};
    v.sl_e.ptr = one;
    v.sl_e.len = 1;
    EXPECT(&v, "sle", "[1]", true, "[json] neither empty nor zero");
}

Test(omitzero, pointers_and_interfaces)
{
    oz_z v = zero();
    v.has_p = true; /* a pointer to 0 */
    EXPECT(&v, "p", "0", true, "[spec] a non-nil pointer is not zero, whatever it points to");
    v = zero();
    oz_inner in;
    oz_inner_init(&in);
    v.ps = &in;
    EXPECT(&v, "ps", "{\"a\":0}", true, "[spec] non-nil pointer to a zero struct");
    v = zero();
    tagc_any num = {.kind = TAGC_ANY_NUMBER, .u.num = 0};
    v.any = &num;
    EXPECT(&v, "any", "0", true, "[spec] a non-nil interface holding 0");
}

Test(omitzero, structs_and_arrays)
{
    oz_z v = zero();
    v.st.a = 1;
    EXPECT(&v, "st", "{\"a\":1}", true, "[spec] a field not zero");
    v = zero();
    v.st.b = (tagc_str){(char *)"hidden", 6};
    EXPECT(&v, "st", "{\"a\":0}", true, "[reflect] an unexported field not zero counts");
    v = zero();
    v.ar[1] = 1;
    EXPECT(&v, "ar", "[0,1]", true, "[spec] an element not zero");
    v = zero();
    v.af[0] = -0.0;
    EXPECT(&v, "af", NULL, false, "[reflect] -0.0 elements are zero");
    v.af[1] = 2;
    EXPECT(&v, "af", "[-0,2]", true, "[spec]");
    v = zero();
    v.as[1] = (tagc_str){(char *)"x", 1};
    EXPECT(&v, "as", "[\"\",\"x\"]", true, "[spec]");
    /* omitempty never omits an array of length 2; omitzero does when zero */
    v = zero();
    EXPECT(&v, "are", NULL, false, "[json] omitempty,omitzero on a zero array");
    v.ar_e[0] = 3;
    EXPECT(&v, "are", "[3,0]", true, "[json]");
}

Test(omitzero, time_by_its_is_zero_method)
{
    oz_z v = zero();
    v.t = (tagc_time){0, 0, 60}; /* the zero instant shown at +01:00 */
    EXPECT(&v, "t", NULL, false, "[json] rule 1 and [time]: IsZero ignores the zone");
    v.t = tagc_time_from_unix(0, 0, 0);
    EXPECT(&v, "t", "\"1970-01-01T00:00:00Z\"", true, "[time] not the zero instant");
    v = zero();
    v.has_pt = true; /* a pointer to the zero time: *time.Time has IsZero too */
    EXPECT(&v, "pt", NULL, false, "[json] rule 1: the pointer type's IsZero (nil or zero time)");
    v.pt = tagc_time_from_unix(0, 1, 0);
    EXPECT(&v, "pt", "\"1970-01-01T00:00:00.000000001Z\"", true, "[time]");
}

/* The msgpack key's omitzero (mp), and the json key's options for fields
 * without a msgpack key: only the struct with omitempty is written. */
Test(omitzero, msgpack)
{
    oz_z v = zero();
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(oz_z_encode_msgpack(&v, &out), 0);
    /* {"ste": {"a": 0}} */
    static const uint8_t want[] = {0x81, 0xa3, 's', 't', 'e', 0x81, 0xa1, 'a', 0x00};
    cr_expect_eq(out.len, sizeof want);
    cr_expect(out.len == sizeof want && memcmp(out.data, want, sizeof want) == 0);
    v.mp = 7;
    v.t = tagc_time_from_unix(1, 0, 0);
    tagc_buf_reset(&out);
    cr_assert_eq(oz_z_encode_msgpack(&v, &out), 0);
    cr_expect_eq(out.data[0], 0x83, "t, ste and mp");
    tagc_arena a;
    tagc_arena_init(&a);
    tagc_error err;
    oz_z back;
    cr_assert_eq(oz_z_decode_msgpack(&back, out.data, out.len, &a, &err), 0, "%s", err.message);
    cr_expect(oz_z_equal(&v, &back));
    tagc_arena_free(&a);
    tagc_buf_free(&out);
}

/* Strict mode: an omitzero field may be missing, as an omitempty one. */
Test(omitzero, strict_does_not_require_it)
{
    tagc_arena a;
    tagc_arena_init(&a);
    tagc_error err;
    tagc_json_opts strict = {.strict = true};
    oz_z v;
    const char *doc = "{\"mp\":1}";
    cr_expect_eq(oz_z_decode_json(&v, doc, strlen(doc), &a, &err, &strict), 0, "%s", err.message);
    doc = "{}";
    cr_expect_eq(oz_z_decode_json(&v, doc, strlen(doc), &a, &err, &strict), TAGC_E_MISSING);
    tagc_arena_free(&a);
}
