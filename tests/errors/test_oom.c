/*
 * test_oom.c - out of memory never gives a wrong result: the encoders report
 * TAGC_E_NOMEM when a map's keys cannot be sorted (the stored order would be
 * bytes that differ from Go's), and tagc_any_equal answers right without memory.
 *
 * malloc failure is injected as bench/alloc_count.c counts allocations: this
 * executable defines malloc, calloc and realloc over glibc's __libc_* entry
 * points, and they fail while `failing` is set. Not under ASan, whose own
 * allocator these definitions would replace.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "kitchen_sink.tagc.h"
#include "tree.tagc.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_INJECTION 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_INJECTION 1
#endif
#endif

#if !defined(NO_INJECTION) && defined(__linux__) && defined(__GLIBC__)
static volatile int failing; /* every allocation fails while set */
static size_t failed;        /* how many did */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

void *malloc(size_t size)
{
    if (failing) {
        failed++;
        return NULL;
    }
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (failing) {
        failed++;
        return NULL;
    }
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    if (failing) {
        failed++;
        return NULL;
    }
    return __libc_realloc(p, size);
}

void free(void *p)
{
    __libc_free(p);
}
#define INJECTION 1
#else
static int failing;
static size_t failed;
#define INJECTION 0
#endif

enum { NKEYS = 40 }; /* more than the 32 keys tagc_order sorts without malloc */

static char key_text[NKEYS][8];
static tagc_str keys[NKEYS], vals[NKEYS];

/* Keys k39 .. k00: stored in the reverse of Go's order. */
static void make_keys(void)
{
    for (int i = 0; i < NKEYS; i++) {
        snprintf(key_text[i], sizeof key_text[i], "k%02d", NKEYS - 1 - i);
        keys[i].ptr = key_text[i];
        keys[i].len = strlen(key_text[i]);
        vals[i] = keys[i];
    }
}

Test(oom, map_order_is_an_error_not_the_stored_order)
{
    if (!INJECTION)
        cr_skip_test("no malloc failure injection in this build");
    make_keys();
    sink_names m = {keys, vals, NKEYS};
    static uint8_t mem[4096];
    tagc_buf out;
    tagc_buf_init_fixed(&out, mem, sizeof mem); /* the buffer needs no malloc */
    cr_assert_eq(sink_names_encode_json(&m, &out, NULL), 0);
    cr_expect(memcmp(out.data, "{\"k00\":\"k00\",\"k01\"", 18) == 0, "sorted as Go sorts");

    tagc_buf_init_fixed(&out, mem, sizeof mem);
    failed = 0;
    failing = 1;
    int rc = sink_names_encode_json(&m, &out, NULL);
    failing = 0;
    cr_expect(failed > 0, "the sort asked for memory");
    cr_expect_eq(rc, TAGC_E_NOMEM);
    cr_expect_eq(out.len, 0, "nothing written");

    /* with unsorted_maps the stored order is what is asked for: no memory needed */
    tagc_json_opts o = {0};
    o.unsorted_maps = true;
    tagc_buf_init_fixed(&out, mem, sizeof mem);
    failing = 1;
    rc = sink_names_encode_json(&m, &out, &o);
    failing = 0;
    cr_expect_eq(rc, 0);
}

/* An object of NKEYS keys; reversed: the same entries in the other order. */
static void make_object(tagc_any *obj, tagc_any *items, tagc_any **ptrs, tagc_str *ks, bool reversed)
{
    for (int i = 0; i < NKEYS; i++) {
        int j = reversed ? NKEYS - 1 - i : i;
        ks[i] = keys[j];
        items[i].kind = TAGC_ANY_NUMBER;
        items[i].u.num = j;
        ptrs[i] = &items[i];
    }
    obj->kind = TAGC_ANY_OBJECT;
    obj->u.obj.keys = ks;
    obj->u.obj.vals = ptrs;
    obj->u.obj.len = NKEYS;
}

Test(oom, any_object_order_is_an_error)
{
    if (!INJECTION)
        cr_skip_test("no malloc failure injection in this build");
    make_keys();
    tagc_any obj, items[NKEYS], *ptrs[NKEYS];
    tagc_str ks[NKEYS];
    make_object(&obj, items, ptrs, ks, false);
    static uint8_t mem[4096];
    tagc_buf out;
    tagc_buf_init_fixed(&out, mem, sizeof mem);
    failing = 1;
    tagc_json_write_any(&out, &obj, NULL);
    failing = 0;
    cr_expect_eq(out.err, TAGC_E_NOMEM);
}

Test(oom, any_equal_needs_no_memory)
{
    if (!INJECTION)
        cr_skip_test("no malloc failure injection in this build");
    make_keys();
    tagc_any a, b, c, ia[NKEYS], ib[NKEYS], ic[NKEYS], *pa[NKEYS], *pb[NKEYS], *pc[NKEYS];
    tagc_str ka[NKEYS], kb[NKEYS], kc[NKEYS];
    make_object(&a, ia, pa, ka, false);
    make_object(&b, ib, pb, kb, true);
    make_object(&c, ic, pc, kc, true);
    ic[3].u.num = -1; /* one value differs */
    cr_expect(tagc_any_equal(&a, &b));
    cr_expect(!tagc_any_equal(&a, &c));
    failing = 1;
    bool eq_ab = tagc_any_equal(&a, &b), eq_ac = tagc_any_equal(&a, &c);
    bool eq_aa = tagc_any_equal(&a, &a);
    failing = 0;
    cr_expect(eq_ab, "equal objects in another order are equal without memory");
    cr_expect(!eq_ac);
    cr_expect(eq_aa);
}

/* Amplification (docs/mapping.md, "Memory: amplification"): each one-byte nil
 * of a MessagePack array is a zeroed element in the arena, sizeof(T) bytes of
 * arena per byte of input; an arena limit relative to the input bounds it. */
Test(amplification, nils_into_a_slice)
{
    enum { N = 100000 };
    uint8_t *src = malloc(N + 16);
    size_t len = 0;
    src[len++] = 0x81; /* {"children": [nil x N]} */
    src[len++] = 0xa8;
    memcpy(src + len, "children", 8);
    len += 8;
    src[len++] = 0xdd;
    src[len++] = (uint8_t)(N >> 24);
    src[len++] = (uint8_t)(N >> 16);
    src[len++] = (uint8_t)(N >> 8);
    src[len++] = (uint8_t)N;
    memset(src + len, 0xc0, N);
    len += N;
    tagc_arena a;
    tagc_arena_init(&a);
    tree_node v;
    tagc_error err;
    cr_assert_eq(tree_node_decode_msgpack(&v, src, len, &a, &err), 0, "%s", err.message);
    cr_expect_eq(v.children.len, N);
    double factor = (double)a.total / (double)len;
    printf("amplification: %zu input bytes -> %zu arena bytes (%.1fx, sizeof(tree_node) = %zu)\n", len,
           a.total, factor, sizeof(tree_node));
    cr_expect(factor >= (double)sizeof(tree_node) * 0.9, "the factor is sizeof(T) a byte");
    tagc_arena_free(&a);
    /* capped below what the document needs: an error, not the memory */
    tagc_arena_init_limit(&a, len * (sizeof(tree_node) / 2));
    cr_expect_eq(tree_node_decode_msgpack(&v, src, len, &a, &err), TAGC_E_NOMEM);
    cr_expect(a.total <= len * (sizeof(tree_node) / 2));
    tagc_arena_free(&a);
    /* capped at sizeof(T) a byte (and a block's slack): it fits */
    tagc_arena_init_limit(&a, len * sizeof(tree_node) + 1024 * 1024);
    cr_expect_eq(tree_node_decode_msgpack(&v, src, len, &a, &err), 0);
    tagc_arena_free(&a);
    free(src);
}
