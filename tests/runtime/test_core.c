/*
 * test_core.c - the runtime's core: tagc_buf (buf.c), tagc_arena (arena.c) and
 * tagc_error (error.c).
 *
 *   buf:   growth of a growable buffer; fixed buffers over caller memory (exact
 *          fit, one byte over = TAGC_E_FULL, guard bytes never touched); sticky
 *          errors; reset; free.
 *   arena: 8-byte alignment; many and big allocations; tagc_arena_grow in place
 *          and by copy; reset reuses memory (total constant); limits; free.
 *   error: tagc_strerror for every code; set/clear; path building, escaping of
 *          keys, truncation of long paths; line and column.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

#define GUARD 0xA5
#define NGUARD 32

static bool guard_intact(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != GUARD)
            return false;
    return true;
}

/* MARK: - Buffers */

Test(buf, init_is_empty)
{
    tagc_buf b;
    tagc_buf_init(&b);
    cr_expect(b.data == NULL && b.len == 0 && b.cap == 0 && b.err == 0 && !b.fixed);
    tagc_buf_free(&b);
    cr_expect(b.data == NULL && b.len == 0 && b.cap == 0);
}

Test(buf, growable_grows_and_keeps_contents)
{
    tagc_buf b;
    tagc_buf_init(&b);
    size_t last_cap = 0;
    int cap_changes = 0;
    for (size_t i = 0; i < 100000; i++) {
        tagc_buf_byte(&b, (uint8_t)(i * 7 + 3));
        cr_assert_eq(b.err, 0);
        cr_assert_eq(b.len, i + 1);
        cr_assert(b.cap >= b.len);
        if (b.cap != last_cap) {
            /* doubling: growth is geometric, so few reallocations */
            cr_assert(last_cap == 0 || b.cap >= 2 * last_cap, "cap %zu -> %zu", last_cap, b.cap);
            last_cap = b.cap;
            cap_changes++;
        }
    }
    cr_expect(cap_changes < 20, "%d reallocations for 100000 bytes", cap_changes);
    for (size_t i = 0; i < 100000; i++)
        cr_assert_eq(b.data[i], (uint8_t)(i * 7 + 3), "byte %zu lost in growth", i);

    /* one big put, larger than twice the capacity */
    size_t big = 5u << 20;
    uint8_t *chunk = malloc(big);
    cr_assert(chunk != NULL);
    for (size_t i = 0; i < big; i++)
        chunk[i] = (uint8_t)(i >> 3);
    tagc_buf_put(&b, chunk, big);
    cr_assert_eq(b.err, 0);
    cr_assert_eq(b.len, 100000 + big);
    cr_expect(memcmp(b.data + 100000, chunk, big) == 0);
    cr_expect(b.data[99999] == (uint8_t)(99999 * 7 + 3));
    free(chunk);
    tagc_buf_free(&b);
    cr_expect(b.data == NULL && b.len == 0 && b.cap == 0 && b.err == 0);
}

Test(buf, reserve_reports_room)
{
    tagc_buf b;
    tagc_buf_init(&b);
    cr_expect_eq(tagc_buf_reserve(&b, 1000), 0);
    cr_expect(b.cap >= 1000);
    cr_expect_eq(b.len, 0);
    /* put of zero bytes is fine and writes nothing */
    tagc_buf_put(&b, "x", 0);
    cr_expect_eq(b.len, 0);
    cr_expect_eq(b.err, 0);
    tagc_buf_free(&b);
}

Test(buf, fixed_exact_fit)
{
    uint8_t mem[16 + NGUARD];
    memset(mem, GUARD, sizeof mem);
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, 16);
    cr_expect(b.fixed);
    cr_expect_eq(b.cap, 16);
    tagc_buf_put(&b, "0123456789", 10);
    tagc_buf_put(&b, "abcde", 5);
    tagc_buf_byte(&b, 'Z');
    cr_expect_eq(b.err, 0, "exact fit failed: %d", b.err);
    cr_expect_eq(b.len, 16);
    cr_expect(b.data == mem);
    cr_expect(memcmp(mem, "0123456789abcdeZ", 16) == 0);
    cr_expect(guard_intact(mem + 16, NGUARD));
    /* a zero-length put on a full buffer is still fine */
    tagc_buf_put(&b, "", 0);
    cr_expect_eq(b.err, 0);
    tagc_buf_free(&b); /* must not free caller memory */
    cr_expect(b.data == NULL && b.len == 0 && b.cap == 0);
    cr_expect(memcmp(mem, "0123456789abcdeZ", 16) == 0);
}

Test(buf, fixed_one_byte_over)
{
    uint8_t mem[16 + NGUARD];
    memset(mem, GUARD, sizeof mem);
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, 16);
    tagc_buf_put(&b, "0123456789abcdef", 16);
    cr_assert_eq(b.err, 0);
    tagc_buf_byte(&b, 'X');
    cr_expect_eq(b.err, TAGC_E_FULL);
    cr_expect_eq(b.len, 16);
    cr_expect(guard_intact(mem + 16, NGUARD), "wrote past cap");

    /* a put that does not fit writes nothing at all (no partial write) */
    memset(mem, GUARD, sizeof mem);
    tagc_buf_init_fixed(&b, mem, 16);
    tagc_buf_put(&b, "0123456789", 10);
    tagc_buf_put(&b, "ABCDEFG", 7);
    cr_expect_eq(b.err, TAGC_E_FULL);
    cr_expect_eq(b.len, 10);
    cr_expect(guard_intact(mem + 16, NGUARD), "wrote past cap");
    cr_expect(guard_intact(mem + 10, 6), "partial write of a put that failed");
    cr_expect_eq(tagc_buf_reserve(&b, 1), TAGC_E_FULL);
}

Test(buf, fixed_zero_and_null)
{
    uint8_t mem[NGUARD];
    memset(mem, GUARD, sizeof mem);
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, 0);
    tagc_buf_byte(&b, 'a');
    cr_expect_eq(b.err, TAGC_E_FULL);
    cr_expect_eq(b.len, 0);
    cr_expect(guard_intact(mem, NGUARD));

    tagc_buf_init_fixed(&b, NULL, 100); /* no memory: no room, whatever cap says */
    cr_expect_eq(b.cap, 0);
    tagc_buf_put(&b, "abc", 3);
    cr_expect_eq(b.err, TAGC_E_FULL);
    cr_expect_eq(b.len, 0);
    tagc_buf_free(&b);
}

/* A run (tagc_run_open): its bound is far above what it writes, yet a fixed
 * buffer of exactly the bytes written takes them, one byte less is FULL, and
 * nothing lands past cap; a growable buffer gets the same bytes. */
static void write_run(tagc_buf *b)
{
    tagc_run run;
    uint8_t *p = tagc_run_open(b, &run, 8 + 2 * TAGC_I64_MAX_CHARS + TAGC_BOOL_ROOM);
    p = tagc_put(p, "{\"a\":", 5);
    p = tagc_put_i64(p, -42);
    p = tagc_put_byte(p, ',');
    p = tagc_put_u64(p, 7);
    p = tagc_put_byte(p, ',');
    p = tagc_put_bool(p, true);
    p = tagc_put_byte(p, '}');
    tagc_run_close(b, &run, p);
}

Test(buf, run_fixed_every_size)
{
    static const char want[] = "{\"a\":-42,7,true}";
    size_t n = sizeof want - 1;
    tagc_buf g;
    tagc_buf_init(&g);
    write_run(&g);
    cr_assert_eq(g.err, 0);
    cr_assert_eq(g.len, n);
    cr_assert(memcmp(g.data, want, n) == 0);
    tagc_buf_free(&g);
    for (size_t cap = 0; cap <= n + 2; cap++) {
        uint8_t mem[64 + NGUARD];
        memset(mem, GUARD, sizeof mem);
        tagc_buf b;
        tagc_buf_init_fixed(&b, mem, cap);
        write_run(&b);
        cr_expect(guard_intact(mem + cap, NGUARD), "cap %zu: wrote past cap", cap);
        if (cap < n) {
            cr_expect_eq(b.err, TAGC_E_FULL, "cap %zu", cap);
            cr_expect_eq(b.len, 0, "cap %zu", cap);
        } else {
            cr_expect_eq(b.err, 0, "cap %zu: %d", cap, b.err);
            cr_expect_eq(b.len, n);
            cr_expect(memcmp(mem, want, n) == 0, "cap %zu", cap);
        }
    }
}

Test(buf, sticky_errors_fixed)
{
    uint8_t mem[8 + NGUARD];
    memset(mem, GUARD, sizeof mem);
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, 8);
    tagc_buf_put(&b, "abcd", 4);
    tagc_buf_put(&b, "123456789", 9); /* fails: FULL */
    cr_assert_eq(b.err, TAGC_E_FULL);
    /* these would fit, but after a failure every write is a no-op */
    tagc_buf_byte(&b, 'x');
    tagc_buf_put(&b, "yz", 2);
    cr_expect_eq(b.len, 4);
    cr_expect(guard_intact(mem + 4, 4 + NGUARD));
    cr_expect_eq(tagc_buf_reserve(&b, 0), TAGC_E_FULL);
    cr_expect_eq(tagc_buf_grow(&b, 1), TAGC_E_FULL);
    /* the first code is kept */
    tagc_buf_fail(&b, TAGC_E_INVALID);
    cr_expect_eq(b.err, TAGC_E_FULL);
    cr_expect(memcmp(mem, "abcd", 4) == 0);
}

Test(buf, sticky_errors_growable)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_buf_put(&b, "hello", 5);
    tagc_buf_fail(&b, TAGC_E_INVALID);
    cr_assert_eq(b.err, TAGC_E_INVALID);
    tagc_buf_fail(&b, TAGC_E_RANGE);
    cr_expect_eq(b.err, TAGC_E_INVALID, "the first error code must be kept");
    size_t cap = b.cap;
    tagc_buf_put(&b, "world", 5);
    tagc_buf_byte(&b, '!');
    /* a write too big to fit in the current capacity must not grow either */
    char big[4096];
    memset(big, 'q', sizeof big);
    tagc_buf_put(&b, big, sizeof big);
    cr_expect_eq(b.len, 5);
    cr_expect_eq(b.cap, cap);
    cr_expect_eq(b.err, TAGC_E_INVALID);
    cr_expect(memcmp(b.data, "hello", 5) == 0);

    /* an impossible size is NOMEM and sticky too */
    tagc_buf c;
    tagc_buf_init(&c);
    tagc_buf_byte(&c, 'a');
    cr_expect_eq(tagc_buf_reserve(&c, SIZE_MAX), TAGC_E_NOMEM);
    cr_expect_eq(c.err, TAGC_E_NOMEM);
    tagc_buf_byte(&c, 'b');
    cr_expect_eq(c.len, 1);
    tagc_buf_free(&c);
    tagc_buf_free(&b);
}

Test(buf, reset_clears_error_keeps_memory)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_buf_put(&b, "some text", 9);
    tagc_buf_fail(&b, TAGC_E_INVALID);
    uint8_t *data = b.data;
    size_t cap = b.cap;
    tagc_buf_reset(&b);
    cr_expect_eq(b.len, 0);
    cr_expect_eq(b.err, 0);
    cr_expect(b.data == data && b.cap == cap, "reset must keep the memory");
    tagc_buf_put(&b, "again", 5);
    cr_expect_eq(b.err, 0);
    cr_expect_eq(b.len, 5);
    cr_expect(memcmp(b.data, "again", 5) == 0);
    tagc_buf_free(&b);

    /* fixed: reset makes the whole capacity usable again */
    uint8_t mem[4 + NGUARD];
    memset(mem, GUARD, sizeof mem);
    tagc_buf_init_fixed(&b, mem, 4);
    tagc_buf_put(&b, "abcdef", 6);
    cr_expect_eq(b.err, TAGC_E_FULL);
    tagc_buf_reset(&b);
    cr_expect_eq(b.err, 0);
    cr_expect(b.data == mem && b.cap == 4 && b.fixed);
    tagc_buf_put(&b, "wxyz", 4);
    cr_expect_eq(b.err, 0);
    cr_expect(memcmp(mem, "wxyz", 4) == 0);
    cr_expect(guard_intact(mem + 4, NGUARD));
}

/* MARK: - Arena */

static bool aligned8(const void *p)
{
    return ((uintptr_t)p & 7u) == 0;
}

Test(arena, alignment_of_every_allocation)
{
    tagc_arena a;
    tagc_arena_init(&a);
    uint8_t *prev = NULL;
    size_t prev_size = 0;
    for (size_t i = 0; i < 5000; i++) {
        size_t size = 1 + (i * 37) % 61; /* odd sizes, 1..61 */
        uint8_t *p = tagc_arena_alloc(&a, size);
        cr_assert(p != NULL);
        cr_assert(aligned8(p), "allocation %zu (size %zu) at %p is not 8-aligned", i, size,
                  (void *)p);
        memset(p, (int)(i & 0xff), size); /* ASan checks the memory is really there */
        /* allocations never overlap the previous one */
        if (prev && p > prev && p < prev + prev_size)
            cr_assert_fail("allocation %zu overlaps the previous one", i);
        prev = p;
        prev_size = size;
    }
    /* zero-size allocations are aligned too */
    cr_expect(aligned8(tagc_arena_alloc(&a, 0)));
    cr_expect(aligned8(tagc_arena_alloc(&a, 3)));
    tagc_arena_free(&a);
}

Test(arena, many_allocations_keep_their_contents)
{
    tagc_arena a;
    tagc_arena_init(&a);
    enum { N = 20000 };
    uint32_t **ptrs = malloc(N * sizeof *ptrs);
    cr_assert(ptrs != NULL);
    for (uint32_t i = 0; i < N; i++) {
        size_t words = 1 + i % 13;
        ptrs[i] = tagc_arena_alloc(&a, words * sizeof(uint32_t));
        cr_assert(ptrs[i] != NULL);
        for (size_t w = 0; w < words; w++)
            ptrs[i][w] = i * 131u + (uint32_t)w;
    }
    for (uint32_t i = 0; i < N; i++) {
        size_t words = 1 + i % 13;
        for (size_t w = 0; w < words; w++)
            cr_assert_eq(ptrs[i][w], i * 131u + (uint32_t)w, "allocation %u overwritten", i);
    }
    cr_expect(a.total >= (size_t)N * 4);
    free(ptrs);
    tagc_arena_free(&a);
    cr_expect_eq(a.total, 0);
    cr_expect(a.head == NULL && a.full == NULL && a.ptr == NULL);
}

Test(arena, big_allocations)
{
    tagc_arena a;
    tagc_arena_init(&a);
    uint8_t *small = tagc_arena_alloc(&a, 10);
    cr_assert(small != NULL);
    memcpy(small, "small0123", 10);
    /* bigger than any block the arena would choose on its own */
    size_t sizes[] = {5000, 100000, 3u << 20, 17, 1u << 20};
    uint8_t *big[5];
    for (size_t k = 0; k < 5; k++) {
        big[k] = tagc_arena_alloc(&a, sizes[k]);
        cr_assert(big[k] != NULL, "allocation of %zu bytes failed", sizes[k]);
        cr_assert(aligned8(big[k]));
        memset(big[k], (int)('A' + k), sizes[k]);
    }
    for (size_t k = 0; k < 5; k++) {
        cr_expect(big[k][0] == 'A' + k && big[k][sizes[k] - 1] == 'A' + k);
        for (size_t j = 0; j < 5; j++)
            if (j != k)
                cr_expect(big[j] + sizes[j] <= big[k] || big[k] + sizes[k] <= big[j],
                          "allocations %zu and %zu overlap", j, k);
    }
    cr_expect(memcmp(small, "small0123", 10) == 0);
    size_t sum = 10;
    for (size_t k = 0; k < 5; k++)
        sum += sizes[k];
    cr_expect(a.total >= sum);
    /* a size whose block header would overflow fails cleanly, without malloc */
    size_t before = a.total;
    cr_expect(tagc_arena_alloc(&a, SIZE_MAX - 7) == NULL);
    cr_expect(tagc_arena_grow(&a, NULL, 0, SIZE_MAX - 15) == NULL);
    cr_expect_eq(a.total, before);
    tagc_arena_free(&a);
}

Test(arena, grow_in_place_when_last)
{
    tagc_arena a;
    tagc_arena_init(&a);
    uint8_t *p = tagc_arena_alloc(&a, 16);
    cr_assert(p != NULL);
    memcpy(p, "0123456789abcdef", 16);
    uint8_t *q = tagc_arena_grow(&a, p, 16, 64);
    cr_expect(q == p, "the last allocation must grow in place");
    cr_expect(memcmp(q, "0123456789abcdef", 16) == 0);
    memset(q + 16, 'x', 48);
    /* the next allocation comes after the grown one */
    uint8_t *r = tagc_arena_alloc(&a, 8);
    cr_assert(r != NULL);
    cr_expect(r >= q + 64 || r + 8 <= q, "next allocation overlaps the grown one");
    memcpy(r, "rrrrrrr", 8);
    cr_expect(q[63] == 'x');

    /* shrinking the last allocation gives the rest back */
    uint8_t *s = tagc_arena_alloc(&a, 100);
    cr_assert(s != NULL);
    cr_expect(tagc_arena_grow(&a, s, 100, 20) == s);
    uint8_t *t = tagc_arena_alloc(&a, 8);
    cr_expect(t == s + 24, "shrink did not give the rest back (%p vs %p)", (void *)t,
              (void *)(s + 24));

    /* NULL p: it is an allocation */
    uint8_t *u = tagc_arena_grow(&a, NULL, 0, 40);
    cr_assert(u != NULL);
    cr_expect(aligned8(u));
    memset(u, 0, 40);
    tagc_arena_free(&a);
}

Test(arena, grow_by_copy_when_not_last)
{
    tagc_arena a;
    tagc_arena_init(&a);
    uint8_t *p = tagc_arena_alloc(&a, 16);
    cr_assert(p != NULL);
    memcpy(p, "0123456789abcdef", 16);
    uint8_t *other = tagc_arena_alloc(&a, 8);
    cr_assert(other != NULL);
    memcpy(other, "OTHER!!", 8);
    uint8_t *q = tagc_arena_grow(&a, p, 16, 48);
    cr_assert(q != NULL);
    cr_expect(q != p, "grew in place over a later allocation");
    cr_expect(aligned8(q));
    cr_expect(memcmp(q, "0123456789abcdef", 16) == 0, "contents not copied");
    memset(q + 16, 'z', 32);
    cr_expect(memcmp(other, "OTHER!!", 8) == 0, "later allocation clobbered");

    /* the last allocation that does not fit in its block moves to a new one */
    tagc_arena b;
    tagc_arena_init(&b);
    uint8_t *x = tagc_arena_alloc(&b, 64);
    cr_assert(x != NULL);
    for (int i = 0; i < 64; i++)
        x[i] = (uint8_t)i;
    uint8_t *y = tagc_arena_grow(&b, x, 64, 1u << 20);
    cr_assert(y != NULL);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(y[i], (uint8_t)i);
    memset(y + 64, 1, (1u << 20) - 64);
    tagc_arena_free(&b);
    tagc_arena_free(&a);
}

Test(arena, grow_repeatedly_like_a_slice)
{
    tagc_arena a;
    tagc_arena_init(&a);
    int64_t *v = NULL;
    size_t len = 0, cap = 0;
    for (int64_t i = 0; i < 50000; i++) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            v = tagc_arena_grow(&a, v, cap * sizeof *v, ncap * sizeof *v);
            cr_assert(v != NULL);
            cap = ncap;
        }
        v[len++] = i * 3;
        if (i % 1000 == 0) /* interleave other allocations */
            cr_assert(tagc_arena_alloc(&a, 24) != NULL);
    }
    for (size_t i = 0; i < len; i++)
        cr_assert_eq(v[i], (int64_t)i * 3, "element %zu lost", i);
    tagc_arena_free(&a);
}

/* The same sequence of allocations each round. */
static void alloc_round(tagc_arena *a)
{
    for (size_t i = 0; i < 3000; i++) {
        size_t size = 1 + (i * 53) % 200;
        uint8_t *p = tagc_arena_alloc(a, size);
        cr_assert(p != NULL);
        memset(p, 0x5c, size);
    }
    uint8_t *big = tagc_arena_alloc(a, 70000);
    cr_assert(big != NULL);
    memset(big, 1, 70000);
    void *g = tagc_arena_grow(a, NULL, 0, 32);
    g = tagc_arena_grow(a, g, 32, 4000);
    cr_assert(g != NULL);
    memset(g, 2, 4000);
}

Test(arena, reset_reuses_memory)
{
    tagc_arena a;
    tagc_arena_init(&a);
    alloc_round(&a);
    cr_assert(a.full != NULL, "the first round should have needed several blocks");
    tagc_arena_reset(&a);
    size_t total = a.total;
    cr_assert(total > 0);
    cr_expect(a.full == NULL, "reset should leave one block");
    for (int round = 0; round < 3; round++) {
        alloc_round(&a);
        cr_expect_eq(a.total, total, "round %d called malloc (total %zu -> %zu)", round, total,
                     a.total);
        tagc_arena_reset(&a);
        cr_expect_eq(a.total, total);
    }
    /* reset of a single block keeps exactly that block */
    uint8_t *first = tagc_arena_alloc(&a, 8);
    tagc_arena_reset(&a);
    cr_expect(tagc_arena_alloc(&a, 8) == first, "reset did not rewind to the start");
    tagc_arena_free(&a);
    cr_expect_eq(a.total, 0);

    /* reset of a fresh arena is a no-op, and the arena is usable after free */
    tagc_arena_reset(&a);
    cr_expect(a.head == NULL && a.total == 0);
    cr_expect(tagc_arena_alloc(&a, 10) != NULL);
    tagc_arena_free(&a);
}

Test(arena, limit)
{
    const size_t limit = 16384;
    tagc_arena a;
    tagc_arena_init_limit(&a, limit);
    cr_expect_eq(a.limit, limit);
    /* one allocation bigger than the limit */
    cr_expect(tagc_arena_alloc(&a, limit + 1) == NULL);
    cr_expect(a.total <= limit);
    /* many small ones: they succeed up to the cap, then fail */
    size_t got = 0;
    int failed = 0;
    for (int i = 0; i < 10000 && !failed; i++) {
        uint8_t *p = tagc_arena_alloc(&a, 64);
        if (p == NULL) {
            failed = 1;
            break;
        }
        memset(p, 7, 64);
        got += 64;
    }
    cr_expect(failed, "allocations past the limit succeeded");
    cr_expect(got <= limit, "%zu bytes handed out under a limit of %zu", got, limit);
    cr_expect(got >= limit / 2, "only %zu bytes handed out under a limit of %zu", got, limit);
    cr_expect(a.total <= limit, "total %zu over the limit %zu", a.total, limit);
    /* still failing: the limit holds */
    cr_expect(tagc_arena_alloc(&a, 4096) == NULL);
    cr_expect(tagc_arena_grow(&a, NULL, 0, 8192) == NULL);
    cr_expect(a.total <= limit);
    /* free keeps the limit */
    tagc_arena_free(&a);
    cr_expect_eq(a.total, 0);
    cr_expect_eq(a.limit, limit);
    cr_expect(tagc_arena_alloc(&a, limit * 2) == NULL);
    void *p = tagc_arena_alloc(&a, 100);
    cr_expect(p != NULL);
    tagc_arena_free(&a);

    /* a limit smaller than the first block: takes just what is needed */
    tagc_arena_init_limit(&a, 1024);
    cr_expect(tagc_arena_alloc(&a, 256) != NULL);
    cr_expect(a.total <= 1024);
    cr_expect(tagc_arena_alloc(&a, 2048) == NULL);
    tagc_arena_free(&a);
}

Test(arena, free_twice_and_reuse)
{
    tagc_arena a;
    tagc_arena_init(&a);
    for (int i = 0; i < 100; i++)
        cr_assert(tagc_arena_alloc(&a, 1000) != NULL);
    tagc_arena_free(&a);
    tagc_arena_free(&a); /* a freed arena is an empty one */
    cr_expect(a.total == 0 && a.head == NULL && a.full == NULL);
    cr_expect(tagc_arena_alloc(&a, 10) != NULL);
    tagc_arena_free(&a);
}

/* MARK: - Errors */

Test(error, strerror_every_code)
{
    struct {
        int code;
        const char *msg;
    } table[] = {
#define XX(name, code, msg) {name, msg},
        TAGC_ERROR_MAP(XX)
#undef XX
    };
    size_t n = sizeof table / sizeof table[0];
    cr_expect_eq(n, 14);
    for (size_t i = 0; i < n; i++) {
        const char *m = tagc_strerror(table[i].code);
        cr_assert(m != NULL);
        cr_expect_str_eq(m, table[i].msg, "code %d", table[i].code);
        cr_expect(strcmp(m, "unknown error") != 0);
        /* distinct codes, distinct messages */
        for (size_t j = 0; j < i; j++) {
            cr_expect_neq(table[i].code, table[j].code);
            cr_expect_str_neq(m, tagc_strerror(table[j].code));
        }
    }
    cr_expect_str_eq(tagc_strerror(TAGC_OK), "success");
    cr_expect_str_eq(tagc_strerror(TAGC_E_FULL), "output buffer full");
    cr_expect_str_eq(tagc_strerror(TAGC_E_NOMEM), "out of memory");
    int unknown[] = {1, 42, -14, -1000, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        cr_assert(tagc_strerror(unknown[i]) != NULL);
        cr_expect_str_eq(tagc_strerror(unknown[i]), "unknown error", "code %d", unknown[i]);
    }
}

Test(error, set_and_clear)
{
    tagc_error e;
    memset(&e, 0x7f, sizeof e);
    tagc_error_clear(&e);
    cr_expect(e.code == 0 && e.offset == 0 && e.line == 0 && e.column == 0);
    cr_expect_str_eq(e.path, "");
    cr_expect_str_eq(e.message, "");

    memcpy(e.path, ".old", 5);
    int rc = tagc_error_set(&e, TAGC_E_TYPE, 42, "expected %s, got %d", "string", 7);
    cr_expect_eq(rc, TAGC_E_TYPE);
    cr_expect_eq(e.code, TAGC_E_TYPE);
    cr_expect_eq(e.offset, 42);
    cr_expect_str_eq(e.message, "expected string, got 7");
    cr_expect_str_eq(e.path, "", "set must start a new path");

    /* a message longer than the field is truncated, NUL-terminated */
    char longmsg[400];
    memset(longmsg, 'm', sizeof longmsg - 1);
    longmsg[sizeof longmsg - 1] = 0;
    tagc_error_set(&e, TAGC_E_SYNTAX, 1, "%s", longmsg);
    cr_expect_eq(strlen(e.message), TAGC_MESSAGE_MAX - 1);

    tagc_error_clear(&e);
    cr_expect_eq(e.code, TAGC_OK);
    cr_expect_str_eq(e.message, "");
}

static void finish_path(tagc_error *e)
{
    tagc_error_finish(e, "", 0);
}

Test(error, path_items_price)
{
    tagc_error e;
    tagc_error_clear(&e);
    tagc_error_set(&e, TAGC_E_TYPE, 0, "bad price");
    /* innermost first, as the failure unwinds */
    tagc_error_push_key(&e, "price", 5);
    tagc_error_push_index(&e, 3);
    tagc_error_push_key(&e, "items", 5);
    finish_path(&e);
    cr_expect_str_eq(e.path, "$.items[3].price");
    cr_expect_str_eq(e.message, "bad price");

    /* no parts: just the root */
    tagc_error_set(&e, TAGC_E_TYPE, 0, "x");
    finish_path(&e);
    cr_expect_str_eq(e.path, "$");

    /* indexes only, big ones */
    tagc_error_set(&e, TAGC_E_TYPE, 0, "x");
    tagc_error_push_index(&e, SIZE_MAX);
    tagc_error_push_index(&e, 0);
    finish_path(&e);
    char want[64];
    snprintf(want, sizeof want, "$[0][%zu]", (size_t)SIZE_MAX);
    cr_expect_str_eq(e.path, want);
}

static void key_path(const char *key, size_t len, const char *want)
{
    tagc_error e;
    tagc_error_clear(&e);
    tagc_error_set(&e, TAGC_E_TYPE, 0, "m");
    tagc_error_push_key(&e, key, len);
    finish_path(&e);
    cr_expect_str_eq(e.path, want, "key of %zu bytes", len);
}

Test(error, path_keys)
{
    key_path("name", 4, "$.name");
    key_path("_x9", 3, "$._x9");
    key_path("CamelCase_2", 11, "$.CamelCase_2");
    key_path("a b", 3, "$[\"a b\"]");
    key_path("a.b", 3, "$[\"a.b\"]");
    key_path("1abc", 4, "$[\"1abc\"]");
    key_path("", 0, "$[\"\"]");
    key_path("a-b", 3, "$[\"a-b\"]");
    key_path("q\"uote", 6, "$[\"q\\\"uote\"]");
    key_path("back\\slash", 10, "$[\"back\\\\slash\"]");
    key_path("nl\nx", 4, "$[\"nl\\u000ax\"]");
    key_path("\x01\x1f", 2, "$[\"\\u0001\\u001f\"]");
    key_path("nul\0z", 5, "$[\"nul\\u0000z\"]");
    key_path("caf\xc3\xa9", 5, "$[\"caf\xc3\xa9\"]"); /* UTF-8 kept */
    key_path("[0]", 3, "$[\"[0]\"]");

    /* keys are mixed with indexes */
    tagc_error e;
    tagc_error_clear(&e);
    tagc_error_set(&e, TAGC_E_TYPE, 0, "m");
    tagc_error_push_key(&e, "z", 1);
    tagc_error_push_index(&e, 0);
    tagc_error_push_key(&e, "a \"b\"", 5);
    tagc_error_push_key(&e, "root", 4);
    finish_path(&e);
    cr_expect_str_eq(e.path, "$.root[\"a \\\"b\\\"\"][0].z");
}

/* A tagc_error with guards around it, to see nothing is written outside it. */
typedef struct guarded_error {
    uint8_t before[NGUARD];
    tagc_error e;
    uint8_t after[NGUARD];
} guarded_error;

static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

static void check_bounded(guarded_error *g, const char *message)
{
    size_t n = bounded_len(g->e.path, TAGC_PATH_MAX);
    cr_assert(n <= TAGC_PATH_MAX - 1, "path not terminated within its field");
    cr_expect_str_eq(g->e.message, message, "the message field was touched");
    cr_expect(guard_intact(g->before, NGUARD) && guard_intact(g->after, NGUARD));
    cr_expect_eq(g->e.path[0], '$');
}

Test(error, long_path_of_indexes)
{
    guarded_error g;
    memset(&g, GUARD, sizeof g);
    tagc_error_clear(&g.e);
    tagc_error_set(&g.e, TAGC_E_TYPE, 0, "sentinel message");
    /* 1000 levels: a[0][1]...[999], innermost (999) first */
    for (size_t i = 1000; i-- > 0;)
        tagc_error_push_index(&g.e, i);
    finish_path(&g.e);
    check_bounded(&g, "sentinel message");
    const char *p = g.e.path;
    size_t n = strlen(p);
    cr_expect(n > TAGC_PATH_MAX / 2, "too little of the path kept: %s", p);
    /* "$" + outer parts + "..." + inner parts */
    cr_expect(strncmp(p, "$[0][1][2]", 10) == 0, "outer parts lost: %s", p);
    cr_expect(n >= 10 && strcmp(p + n - 10, "[998][999]") == 0, "inner parts lost: %s", p);
    const char *dots = strstr(p, "...");
    cr_assert(dots != NULL, "no ... in %s", p);
    cr_expect(strstr(dots + 3, "...") == NULL, "two ... in %s", p);
    /* the parts on each side are consecutive: outer 0,1,2..k and inner j..999 */
    size_t expect = 0;
    const char *q = p + 1;
    while (q < dots) {
        size_t v;
        int used;
        cr_assert(sscanf(q, "[%zu]%n", &v, &used) == 1, "bad part at %s", q);
        cr_expect_eq(v, expect, "outer parts not consecutive: %s", p);
        expect++;
        q += used;
    }
    cr_expect(q == dots);
    q = dots + 3;
    size_t first_inner;
    int used;
    cr_assert(sscanf(q, "[%zu]%n", &first_inner, &used) == 1, "bad part at %s", q);
    expect = first_inner;
    while (*q) {
        size_t v;
        cr_assert(sscanf(q, "[%zu]%n", &v, &used) == 1, "bad part at %s", q);
        cr_expect_eq(v, expect, "inner parts not consecutive: %s", p);
        expect++;
        q += used;
    }
    cr_expect_eq(expect, 1000);
}

Test(error, long_path_of_keys)
{
    /* keys of all kinds, long enough to overflow many times */
    guarded_error g;
    memset(&g, GUARD, sizeof g);
    tagc_error_clear(&g.e);
    tagc_error_set(&g.e, TAGC_E_SYNTAX, 0, "keys");
    char key[64];
    for (int i = 199; i >= 0; i--) {
        int n = snprintf(key, sizeof key, i % 3 ? "key_number_%d" : "key \"%d\"\\\n", i);
        tagc_error_push_key(&g.e, key, (size_t)n);
        size_t len = bounded_len(g.e.path, TAGC_PATH_MAX);
        cr_assert(len < TAGC_PATH_MAX - 1, "path too long before finish");
    }
    finish_path(&g.e);
    check_bounded(&g, "keys");
    const char *outer = "$[\"key \\\"0\\\"\\\\\\u000a\"].key_number_1.key_number_2";
    cr_expect(strncmp(g.e.path, outer, strlen(outer)) == 0, "outermost parts lost: %s",
              g.e.path);
    cr_expect(strstr(g.e.path, "...") != NULL);
    size_t n = strlen(g.e.path);
    cr_expect(n >= 15 && strcmp(g.e.path + n - 15, ".key_number_199") == 0,
              "innermost part lost: %s", g.e.path);
}

Test(error, huge_keys_never_overflow)
{
    guarded_error g;
    char key[1000];
    /* an identifier, a quoted key, and one of controls (6 bytes each), all too long */
    const char fills[] = {'a', ' ', '\x01', '"'};
    for (size_t f = 0; f < sizeof fills; f++) {
        memset(&g, GUARD, sizeof g);
        tagc_error_clear(&g.e);
        tagc_error_set(&g.e, TAGC_E_TYPE, 0, "huge");
        memset(key, fills[f], sizeof key);
        tagc_error_push_index(&g.e, 7);
        tagc_error_push_key(&g.e, key, sizeof key);
        tagc_error_push_key(&g.e, "outer", 5);
        finish_path(&g.e);
        check_bounded(&g, "huge");
        cr_expect(strncmp(g.e.path, "$.outer", 7) == 0, "fill %zu: %s", f, g.e.path);
    }
    /* many huge keys in a row */
    memset(&g, GUARD, sizeof g);
    tagc_error_clear(&g.e);
    tagc_error_set(&g.e, TAGC_E_TYPE, 0, "huge");
    memset(key, 'k', sizeof key);
    for (int i = 0; i < 50; i++) {
        tagc_error_push_key(&g.e, key, (size_t)(200 + i));
        tagc_error_push_index(&g.e, (size_t)i);
    }
    finish_path(&g.e);
    check_bounded(&g, "huge");
}

Test(error, line_and_column)
{
    const char *src = "{\n  \"a\": 1,\n  \"b\": x\n}";
    size_t len = strlen(src);
    tagc_error e;
    struct {
        size_t offset;
        uint32_t line, column;
    } cases[] = {
        {0, 1, 1},                                    /* '{' */
        {1, 1, 2},                                    /* the first '\n' */
        {2, 2, 1},                                    /* just after it */
        {(size_t)(strchr(src, 'x') - src), 3, 8},     /* the bad token */
        {(size_t)(strrchr(src, '}') - src), 4, 1},    /* the last line */
        {len, 4, 2},                                  /* end of input */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tagc_error_clear(&e);
        tagc_error_set(&e, TAGC_E_SYNTAX, cases[i].offset, "m");
        tagc_error_finish(&e, src, len);
        cr_expect_eq(e.line, cases[i].line, "offset %zu: line %u", cases[i].offset, e.line);
        cr_expect_eq(e.column, cases[i].column, "offset %zu: column %u", cases[i].offset,
                     e.column);
        cr_expect_eq(e.offset, cases[i].offset, "finish must not move the offset");
        cr_expect_str_eq(e.path, "$");
    }

    /* \r is a byte like any other; only \n starts a line; empty lines count */
    const char *crlf = "[\r\n\n\n  1,\r\n  ?]";
    tagc_error_set(&e, TAGC_E_SYNTAX, (size_t)(strchr(crlf, '?') - crlf), "m");
    tagc_error_finish(&e, crlf, strlen(crlf));
    cr_expect_eq(e.line, 5);
    cr_expect_eq(e.column, 3);

    /* many lines */
    char big[20000];
    size_t n = 0;
    for (int l = 0; l < 1000; l++)
        n += (size_t)snprintf(big + n, sizeof big - n, "line %d\n", l);
    tagc_error_set(&e, TAGC_E_SYNTAX, n - 3, "m"); /* "99" of "line 999\n" */
    tagc_error_finish(&e, big, n);
    cr_expect_eq(e.line, 1000);
    cr_expect_eq(e.column, 7);
}
