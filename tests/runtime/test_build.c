/*
 * test_build.c - building values by hand (build.c, tagc.h "Building values"):
 * string views and copies, byte copies, tagc_slice_grow (zeroing, in place or
 * by copy, from NULL, TAGC_EMPTY and caller memory, sizes that overflow, limits).
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "tagc.h"

Test(build, str_literal_and_cstr_are_views)
{
    static const char lit[] = "hello";
    tagc_str a = TAGC_STR("hello");
    cr_expect_eq(a.len, 5);
    cr_expect_str_eq(a.ptr, "hello");
    tagc_str b = tagc_str_from_cstr(lit);
    cr_expect_eq((const char *)b.ptr, lit); /* not copied */
    cr_expect_eq(b.len, 5);
    tagc_str e = tagc_str_from_cstr(NULL);
    cr_expect_null(e.ptr);
    cr_expect_eq(e.len, 0);
    tagc_str z = TAGC_STR("");
    cr_expect_eq(z.len, 0);
    cr_expect(tagc_str_equal(&a, &b));
}

Test(build, str_copy_is_nul_terminated_and_owned_by_the_arena)
{
    tagc_arena a;
    tagc_arena_init(&a);
    char buf[8] = "abcdefg";
    tagc_str s;
    cr_assert_eq(tagc_str_copy(&a, &s, buf, 3), 0);
    buf[0] = 'X'; /* the copy does not follow */
    cr_expect_eq(s.len, 3);
    cr_expect_str_eq(s.ptr, "abc");
    cr_assert_eq(tagc_str_copy_cstr(&a, &s, buf), 0);
    cr_expect_str_eq(s.ptr, "Xbcdefg");
    cr_assert_eq(tagc_str_copy(&a, &s, NULL, 0), 0);
    cr_expect_not_null(s.ptr);
    cr_expect_eq(s.len, 0);
    cr_expect_eq(s.ptr[0], '\0');
    tagc_arena_free(&a);
}

Test(build, bytes_copy_empty_is_non_nil)
{
    tagc_arena a;
    tagc_arena_init(&a);
    tagc_bytes b = {0};
    cr_assert_eq(tagc_bytes_copy(&a, &b, NULL, 0), 0);
    cr_expect_eq((void *)b.ptr, TAGC_EMPTY);
    cr_assert_eq(tagc_bytes_copy(&a, &b, "\x00\x01\x02", 3), 0);
    cr_expect_eq(b.len, 3);
    cr_expect_eq(memcmp(b.ptr, "\x00\x01\x02", 3), 0);
    tagc_arena_free(&a);
}

Test(build, slice_grow_zeroes_and_keeps)
{
    tagc_arena a;
    tagc_arena_init(&a);
    cr_expect_eq(tagc_slice_grow(&a, NULL, 0, 0, 8), TAGC_EMPTY);
    int64_t *p = tagc_slice_grow(&a, NULL, 0, 3, sizeof *p);
    cr_assert_not_null(p);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(p[i], 0);
    p[0] = 1, p[1] = 2, p[2] = 3;
    int64_t *q = tagc_slice_grow(&a, p, 3, 1, sizeof *q);
    cr_expect_eq(q, p, "the latest allocation grows in place");
    cr_expect_eq(q[3], 0);
    (void)tagc_arena_alloc(&a, 16); /* something after it */
    int64_t *r = tagc_slice_grow(&a, q, 4, 2, sizeof *r);
    cr_assert_not_null(r);
    cr_expect_neq(r, q, "moved: it can no longer grow in place");
    cr_expect(r[0] == 1 && r[1] == 2 && r[2] == 3 && r[3] == 0 && r[4] == 0 && r[5] == 0);
    /* from TAGC_EMPTY and from the caller's memory, which is only read */
    int32_t *e = tagc_slice_grow(&a, TAGC_EMPTY, 0, 1, sizeof *e);
    cr_assert_not_null(e);
    cr_expect_neq((void *)e, TAGC_EMPTY);
    cr_expect_eq(e[0], 0);
    static const int32_t mine[2] = {7, 8};
    int32_t *m = tagc_slice_grow(&a, mine, 2, 1, sizeof *m);
    cr_assert_not_null(m);
    cr_expect(m[0] == 7 && m[1] == 8 && m[2] == 0);
    tagc_arena_free(&a);
}

Test(build, slice_grow_refuses_sizes_that_overflow_and_the_limit)
{
    tagc_arena a;
    tagc_arena_init_limit(&a, 1024);
    cr_expect_null(tagc_slice_grow(&a, NULL, SIZE_MAX, 1, 1));
    cr_expect_null(tagc_slice_grow(&a, NULL, 0, SIZE_MAX / 4, 8));
    cr_expect_null(tagc_slice_grow(&a, NULL, 0, 4096, 1), "over the arena's limit");
    tagc_str s = TAGC_STR("kept");
    cr_expect_eq(tagc_str_copy(&a, &s, "x", SIZE_MAX), TAGC_E_NOMEM);
    cr_expect_str_eq(s.ptr, "kept", "left as it was");
    tagc_arena_free(&a);
}
