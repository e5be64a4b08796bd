/*
 * test_stack.c - how much stack each entry point needs per level of nesting,
 * and that the default depth fits the documented stack (tagc.h,
 * TAGC_STACK_BASE + depth * TAGC_STACK_PER_LEVEL; docs/streams.md).
 *
 * Each entry point runs on a thread whose stack is memory this test maps and
 * fills with a pattern (a PROT_NONE page below it turns an overflow into a
 * crash, never into corruption); the deepest byte changed is the stack used.
 * Two depths give the cost of one level. The table of costs is printed.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <criterion/criterion.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tagc.h>

#include "kitchen_sink.tagc.h"
#include "tree.tagc.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
/* ASan's redzones make frames several times bigger: its documented factor. */
#define ASAN_FACTOR 4

#define PATTERN 0xA5

typedef struct job {
    int (*run)(struct job *j);
    int depth;
    int rc;
    /* inputs, made before the thread starts (so they are not on its stack) */
    char *text;
    size_t len;
    void *value;
    tagc_error err; /* what a failed run said (an encoder's b.why) */
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    j->rc = j->run(j);
    return NULL;
}

/* Runs j on a fresh thread with `size` bytes of stack; returns the bytes it used. */
static size_t run_measured(job *j, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    size = (size + (size_t)page - 1) / (size_t)page * (size_t)page;
    uint8_t *mem = mmap(NULL, size + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(mem != MAP_FAILED);
    cr_assert_eq(mprotect(mem, (size_t)page, PROT_NONE), 0); /* the guard: stacks grow down */
    uint8_t *stack = mem + page;
    memset(stack, PATTERN, size);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    cr_assert_eq(pthread_attr_setstack(&attr, stack, size), 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, &attr, thread_main, j), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    size_t untouched = 0;
    while (untouched < size && stack[untouched] == PATTERN)
        untouched++;
    munmap(mem, size + (size_t)page);
    return size - untouched;
}

/* MARK: - Inputs: n levels of nesting */

/* [[[...]]]: n arrays. */
static char *arrays(int n, size_t *len)
{
    char *s = malloc(2 * (size_t)n + 1);
    memset(s, '[', (size_t)n);
    memset(s + n, ']', (size_t)n);
    s[2 * n] = '\0';
    *len = 2 * (size_t)n;
    return s;
}

/* {"a":{"a":...{}}}: n objects. */
static char *objects(int n, size_t *len)
{
    char *s = malloc(6 * (size_t)n + 1), *p = s;
    for (int i = 0; i + 1 < n; i++)
        p += sprintf(p, "{\"a\":");
    p += sprintf(p, "{}");
    for (int i = 0; i + 1 < n; i++)
        *p++ = '}';
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}

/* {"raw": n-1 arrays }: n levels, the inner n-1 in a RawMessage, or (key "zz")
 * in a member the type does not have, which is skipped. */
static char *in_member(const char *key, int n, size_t *len)
{
    size_t alen;
    char *a = arrays(n - 1, &alen);
    char *s = malloc(alen + 32);
    *len = (size_t)sprintf(s, "{\"%s\":%s}", key, a);
    free(a);
    return s;
}

/* A chain of tree nodes nesting n levels: (n + 1) / 2 nodes, the innermost
 * with "children":[] when n is even. */
static char *tree_text(int n, size_t *len)
{
    int k = (n + 1) / 2;
    size_t cap = (size_t)k * 24 + 32;
    char *s = malloc(cap), *p = s;
    for (int i = 0; i + 1 < k; i++)
        p += sprintf(p, "{\"id\":1,\"children\":[");
    p += sprintf(p, n % 2 == 0 ? "{\"id\":1,\"children\":[]}" : "{\"id\":1}");
    for (int i = 0; i + 1 < k; i++)
        p += sprintf(p, "]}");
    *len = (size_t)(p - s);
    return s;
}

static uint8_t *to_msgpack_any(const char *json, size_t len, size_t *out_len)
{
    tagc_arena a;
    tagc_arena_init(&a);
    sink_doc doc;
    tagc_error err;
    tagc_json_opts o = {0};
    o.max_depth = 100000;
    cr_assert_eq(sink_doc_decode_json(&doc, json, len, &a, &err, &o), 0, "%s", err.message);
    tagc_buf b;
    tagc_buf_init(&b);
    b.max_depth = 100000;
    cr_assert_eq(sink_doc_encode_msgpack(&doc, &b), 0);
    tagc_arena_free(&a);
    *out_len = b.len;
    return b.data;
}

/* MARK: - Entry points */

static tagc_arena arena; /* one per process: jobs run one at a time */
/* inputs deeper than the default are made with this */
static const tagc_json_opts deep = {.max_depth = 100000};

static int json_decode_tree(job *j)
{
    tree_node v;
    return tree_node_decode_json(&v, j->text, j->len, &arena, &j->err, NULL);
}

static int msgpack_decode_tree(job *j)
{
    tree_node v;
    return tree_node_decode_msgpack(&v, (const uint8_t *)j->text, j->len, &arena, &j->err);
}

static int json_encode_tree(job *j)
{
    tagc_buf b;
    tagc_buf_init(&b);
    b.why = &j->err;
    int rc = tree_node_encode_json(j->value, &b, NULL);
    tagc_buf_free(&b);
    return rc;
}

static int msgpack_encode_tree(job *j)
{
    tagc_buf b;
    tagc_buf_init(&b);
    b.why = &j->err;
    int rc = tree_node_encode_msgpack(j->value, &b);
    tagc_buf_free(&b);
    return rc;
}

static int json_decode_any(job *j)
{
    sink_doc v;
    return sink_doc_decode_json(&v, j->text, j->len, &arena, &j->err, NULL);
}

static int msgpack_decode_any(job *j)
{
    sink_doc v;
    return sink_doc_decode_msgpack(&v, (const uint8_t *)j->text, j->len, &arena, &j->err);
}

static int json_encode_any(job *j)
{
    tagc_buf b;
    tagc_buf_init(&b);
    b.why = &j->err;
    int rc = sink_doc_encode_json(j->value, &b, NULL);
    tagc_buf_free(&b);
    return rc;
}

static int msgpack_encode_any(job *j)
{
    tagc_buf b;
    tagc_buf_init(&b);
    b.why = &j->err;
    int rc = sink_doc_encode_msgpack(j->value, &b);
    tagc_buf_free(&b);
    return rc;
}

static int json_decode_raw(job *j)
{
    sink_sink *v = j->value;
    return sink_sink_decode_json(v, j->text, j->len, &arena, &j->err, NULL);
}

static int msgpack_decode_raw(job *j)
{
    sink_sink *v = j->value;
    return sink_sink_decode_msgpack(v, (const uint8_t *)j->text, j->len, &arena, &j->err);
}

static int msgpack_skip_unknown(job *j)
{
    tree_node v;
    return tree_node_decode_msgpack(&v, (const uint8_t *)j->text, j->len, &arena, &j->err);
}

static int json_skip_unknown(job *j)
{
    tree_node v;
    return tree_node_decode_json(&v, j->text, j->len, &arena, &j->err, NULL);
}

typedef struct entry {
    const char *name;
    int (*run)(job *j);
    void (*prepare)(job *j, int depth);
} entry;

static void prep_tree_json(job *j, int depth)
{
    j->text = tree_text(depth, &j->len);
}

static void prep_tree_msgpack(job *j, int depth)
{
    size_t len;
    char *json = tree_text(depth, &len);
    tree_node v;
    tagc_error err;
    cr_assert_eq(tree_node_decode_json(&v, json, len, &arena, &err, &deep), 0, "%s", err.message);
    tagc_buf b;
    tagc_buf_init(&b);
    b.max_depth = 100000;
    cr_assert_eq(tree_node_encode_msgpack(&v, &b), 0);
    j->text = (char *)b.data;
    j->len = b.len;
    free(json);
}

static void prep_tree_value(job *j, int depth)
{
    size_t len;
    char *json = tree_text(depth, &len);
    tree_node *v = malloc(sizeof *v);
    tagc_error err;
    cr_assert_eq(tree_node_decode_json(v, json, len, &arena, &err, &deep), 0, "%s", err.message);
    j->value = v;
    free(json);
}

static void prep_any_json(job *j, int depth)
{
    j->text = arrays(depth, &j->len);
}

static void prep_any_msgpack(job *j, int depth)
{
    size_t len;
    char *json = arrays(depth, &len);
    j->text = (char *)to_msgpack_any(json, len, &j->len);
    free(json);
}

static void prep_any_value(job *j, int depth)
{
    size_t len;
    char *json = arrays(depth, &len);
    sink_doc *v = malloc(sizeof *v);
    tagc_error err;
    cr_assert_eq(sink_doc_decode_json(v, json, len, &arena, &err, &deep), 0, "%s", err.message);
    j->value = v;
    free(json);
}

static void prep_obj_json(job *j, int depth)
{
    j->text = objects(depth, &j->len);
}

static void prep_obj_msgpack(job *j, int depth)
{
    size_t len;
    char *json = objects(depth, &len);
    j->text = (char *)to_msgpack_any(json, len, &j->len);
    free(json);
}

static void prep_obj_value(job *j, int depth)
{
    size_t len;
    char *json = objects(depth, &len);
    sink_doc *v = malloc(sizeof *v);
    tagc_error err;
    cr_assert_eq(sink_doc_decode_json(v, json, len, &arena, &err, &deep), 0, "%s", err.message);
    j->value = v;
    free(json);
}

static void prep_raw(job *j, int depth)
{
    j->text = in_member("raw", depth, &j->len);
    j->value = malloc(sizeof(sink_sink));
}

static void prep_skip(job *j, int depth)
{
    j->text = in_member("zz", depth, &j->len);
}

static void prep_raw_msgpack(job *j, int depth)
{
    size_t len;
    char *json = in_member("raw", depth, &len);
    j->text = (char *)to_msgpack_any(json, len, &j->len);
    j->value = malloc(sizeof(sink_sink));
    free(json);
}

static void prep_skip_msgpack(job *j, int depth)
{
    size_t len;
    char *json = in_member("zz", depth, &len);
    j->text = (char *)to_msgpack_any(json, len, &j->len);
    free(json);
}

static const entry entries[] = {
    {"JSON decode, recursive struct", json_decode_tree, prep_tree_json},
    {"MessagePack decode, recursive struct", msgpack_decode_tree, prep_tree_msgpack},
    {"JSON encode, recursive struct", json_encode_tree, prep_tree_value},
    {"MessagePack encode, recursive struct", msgpack_encode_tree, prep_tree_value},
    {"JSON decode, any", json_decode_any, prep_any_json},
    {"MessagePack decode, any", msgpack_decode_any, prep_any_msgpack},
    {"JSON encode, any", json_encode_any, prep_any_value},
    {"MessagePack encode, any", msgpack_encode_any, prep_any_value},
    {"JSON decode, any objects", json_decode_any, prep_obj_json},
    {"MessagePack decode, any objects", msgpack_decode_any, prep_obj_msgpack},
    {"JSON encode, any objects", json_encode_any, prep_obj_value},
    {"MessagePack encode, any objects", msgpack_encode_any, prep_obj_value},
    {"JSON decode, RawMessage", json_decode_raw, prep_raw},
    {"JSON decode, skipped member", json_skip_unknown, prep_skip},
    {"MessagePack decode, RawMessage", msgpack_decode_raw, prep_raw_msgpack},
    {"MessagePack decode, skipped member", msgpack_skip_unknown, prep_skip_msgpack},
};

/* The stack a thread of tagc's default depth needs: 64 KiB for every entry
 * point in an optimized build on x86-64 with gcc or clang (ASan's redzones:
 * 4 times as much), where it was measured (meson.build sets
 * TAGC_TEST_SMALL_STACK); elsewhere frames differ (-O0, s390x: several times
 * bigger) and every entry point runs on the documented bound. */
#ifdef TAGC_TEST_SMALL_STACK
#define SMALL_STACK ((size_t)TAGC_TEST_SMALL_STACK)
#else
#define SMALL_STACK ((size_t)TAGC_STACK_NEED(TAGC_DEFAULT_MAX_DEPTH) * (UNDER_ASAN ? ASAN_FACTOR : 1))
#endif

/* The stack every entry point runs in at the default depth: no exceptions. */
static size_t stack_for(const entry *e)
{
    (void)e;
    size_t need = (size_t)TAGC_STACK_NEED(TAGC_DEFAULT_MAX_DEPTH) * (UNDER_ASAN ? ASAN_FACTOR : 1);
    return SMALL_STACK < need ? SMALL_STACK : need;
}

/* Runs entry e at `depth` levels on a stack of `size` bytes: its code in *rc,
 * its error in *err; returns the stack it used. */
static size_t used_at(const entry *e, int depth, size_t size, int *rc, tagc_error *err)
{
    job j = {0};
    j.run = e->run;
    j.depth = depth;
    e->prepare(&j, depth);
    size_t used = run_measured(&j, size);
    *rc = j.rc;
    *err = j.err;
    free(j.text);
    free(j.value);
    tagc_arena_reset(&arena);
    return used;
}

Test(stack, cost_per_level)
{
    tagc_arena_init(&arena);
    size_t budget = (size_t)TAGC_STACK_NEED(TAGC_DEFAULT_MAX_DEPTH) * (UNDER_ASAN ? ASAN_FACTOR : 1);
    printf("stack per level of nesting (documented bound %d bytes, base %d; depth %d; small stack %zu; %s%s):\n",
           TAGC_STACK_PER_LEVEL, TAGC_STACK_BASE, TAGC_DEFAULT_MAX_DEPTH, SMALL_STACK,
#if defined(__OPTIMIZE__)
           "optimized",
#else
           "not optimized",
#endif
           UNDER_ASAN ? ", ASan" : "");
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const entry *e = &entries[i];
        int rc;
        tagc_error err;
        size_t shallow = used_at(e, 100, budget, &rc, &err);
        cr_expect_eq(rc, 0, "%s at depth 100: rc %d", e->name, rc);
        size_t deep = used_at(e, TAGC_DEFAULT_MAX_DEPTH, budget, &rc, &err);
        cr_expect_eq(rc, 0, "%s at depth %d: rc %d", e->name, TAGC_DEFAULT_MAX_DEPTH, rc);
        double per = ((double)deep - (double)shallow) / (TAGC_DEFAULT_MAX_DEPTH - 100);
        if (per < 0)
            per = 0; /* no recursion: the two runs differ by noise */
        printf("  %-40s %6.1f bytes/level, %7zu bytes at depth %d%s\n", e->name, per, deep,
               TAGC_DEFAULT_MAX_DEPTH, deep <= SMALL_STACK ? "" : " (over the small stack)");
        if (!UNDER_ASAN)
            cr_expect(per <= TAGC_STACK_PER_LEVEL, "%s: %.1f bytes a level, more than documented",
                      e->name, per);
        cr_expect(deep <= budget, "%s", e->name);
    }
    fflush(stdout);
    tagc_arena_free(&arena);
}

/* Every entry point at the default depth, on the stack it is documented to
 * need (64 KiB in an optimized x86-64 build, for all of them): the deepest input is accepted, one level
 * more is TAGC_E_DEPTH with a path. An overflow hits the guard page: a crash. */
Test(stack, the_default_depth_fits)
{
    tagc_arena_init(&arena);
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const entry *e = &entries[i];
        size_t size = stack_for(e);
        int rc;
        tagc_error err;
        size_t used = used_at(e, TAGC_DEFAULT_MAX_DEPTH, size, &rc, &err);
        cr_expect_eq(rc, 0, "%s at depth %d on %zu bytes: rc %d (%s)", e->name, TAGC_DEFAULT_MAX_DEPTH,
                     size, rc, err.message);
        cr_expect(used < size, "%s", e->name);
        used_at(e, TAGC_DEFAULT_MAX_DEPTH + 1, size, &rc, &err);
        cr_expect_eq(rc, TAGC_E_DEPTH, "%s at depth %d: rc %d", e->name, TAGC_DEFAULT_MAX_DEPTH + 1, rc);
        cr_expect(err.path[0] == '$' && strlen(err.path) > 1, "%s: path '%s'", e->name, err.path);
    }
    tagc_arena_free(&arena);
}
