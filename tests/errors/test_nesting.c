/*
 * test_nesting.c - the encoders' nesting limit and cycle check: a value nested
 * past the limit, or one that leads back to itself through a pointer, slice or
 * any, is an error with a path from both encoders, never a stack overflow; and
 * what an encoder accepts at the default limit, the decoder accepts too.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "kitchen_sink.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"

/* A chain of n nodes, each the only child of the one before; the last one's
 * children is empty (leaf_empty) or nil. Its JSON nests 2n levels (2n - 1 when nil). */
static tree_node *chain(size_t n, bool leaf_empty)
{
    tree_node *nodes = calloc(n, sizeof *nodes);
    cr_assert(nodes);
    for (size_t i = 0; i + 1 < n; i++) {
        nodes[i].id = (int64_t)i;
        nodes[i].children.ptr = &nodes[i + 1];
        nodes[i].children.len = 1;
    }
    if (leaf_empty)
        nodes[n - 1].children.ptr = TAGC_EMPTY;
    return nodes;
}

static int encode_json(const tree_node *v, tagc_buf *out, tagc_error *why, int max_depth)
{
    tagc_json_opts o = {0};
    o.max_depth = max_depth;
    out->why = why;
    return tree_node_encode_json(v, out, &o);
}

Test(nesting, json_boundary_matches_the_decoder)
{
    /* 500 nodes with an empty leaf: exactly 1000 levels, accepted by both */
    tree_node *ok = chain(500, true);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(encode_json(ok, &out, NULL, 0), 0);
    cr_expect_eq(out.depth, 0);
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_error err;
    tree_node back;
    cr_expect_eq(tree_node_decode_json(&back, (const char *)out.data, out.len, &arena, &err, NULL), 0,
                 "%s at %s", err.message, err.path);
    cr_expect(tree_node_equal(ok, &back));

    /* one level more: 501 nodes, nil leaf = 1001 levels. The encoder refuses it
     * as the decoder does. */
    tree_node *deep = chain(501, false);
    tagc_error why;
    size_t before = out.len = 0;
    cr_expect_eq(encode_json(deep, &out, &why, 0), TAGC_E_DEPTH);
    cr_expect_eq(out.len, before, "nothing half-written");
    cr_expect_eq(out.depth, 0);
    cr_expect_eq(why.code, TAGC_E_DEPTH);
    cr_expect(strncmp(why.path, "$.children[0].children[0]", 25) == 0, "path %s", why.path);
    cr_expect(strstr(why.message, "1000") != NULL, "%s", why.message);
    /* written with a higher limit, the decoder rejects the text at the default one */
    tagc_buf_reset(&out);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_assert_eq(encode_json(deep, &out, NULL, 1001), 0);
    cr_expect_eq(tree_node_decode_json(&back, (const char *)out.data, out.len, &arena, &err, NULL),
                 TAGC_E_DEPTH);
    tagc_arena_free(&arena);
    tagc_buf_free(&out);
    free(ok);
    free(deep);
}

Test(nesting, msgpack_boundary_matches_the_decoder)
{
    tree_node *ok = chain(500, true);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(tree_node_encode_msgpack(ok, &out), 0);
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_error err;
    tree_node back;
    cr_expect_eq(tree_node_decode_msgpack(&back, out.data, out.len, &arena, &err), 0, "%s", err.message);
    cr_expect(tree_node_equal(ok, &back));

    tree_node *deep = chain(501, false);
    tagc_error why;
    tagc_buf_reset(&out);
    out.why = &why;
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_msgpack(deep, &out), TAGC_E_DEPTH);
    cr_expect_eq(out.len, 0);
    cr_expect(strncmp(why.path, "$.children[0]", 13) == 0, "path %s", why.path);
    out.max_depth = 1001; /* the buffer carries the MessagePack encoders' limit */
    tagc_buf_reset(&out);
    cr_assert_eq(tree_node_encode_msgpack(deep, &out), 0);
    cr_expect_eq(tree_node_decode_msgpack(&back, out.data, out.len, &arena, &err), TAGC_E_DEPTH);
    tagc_arena_free(&arena);
    tagc_buf_free(&out);
    free(ok);
    free(deep);
}

Test(nesting, a_million_deep_is_an_error_not_a_crash)
{
    tree_node *deep = chain(1000000, false);
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_error why;
    out.why = &why;
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_json(deep, &out, NULL), TAGC_E_DEPTH);
    cr_expect_eq(why.code, TAGC_E_DEPTH);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_msgpack(deep, &out), TAGC_E_DEPTH);
    cr_expect_eq(out.len, 0);
    cr_expect_eq(out.depth, 0);
    /* the buffer is usable again */
    tree_node leaf = {0};
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_json(&leaf, &out, NULL), 0);
    cr_expect_eq(out.len, strlen("{\"id\":0,\"val\":0,\"children\":null}"));
    tagc_buf_free(&out);
    free(deep);
}

Test(nesting, a_cycle_through_a_slice)
{
    tree_node n = {0};
    n.children.ptr = &n;
    n.children.len = 1;
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_error why;
    out.why = &why;
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_json(&n, &out, NULL), TAGC_E_INVALID);
    cr_expect(strstr(why.message, "encountered a cycle via") != NULL, "%s", why.message);
    cr_expect(strstr(why.message, "tree.Node") != NULL, "%s", why.message);
    cr_expect(strncmp(why.path, "$.children[0]", 13) == 0, "path %s", why.path);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(tree_node_encode_msgpack(&n, &out), TAGC_E_INVALID);
    cr_expect(strstr(why.message, "encountered a cycle via") != NULL, "%s", why.message);
    cr_expect_eq(out.len, 0);
    tagc_buf_free(&out);
}

Test(nesting, a_cycle_through_a_pointer)
{
    twitter_status s;
    twitter_status_init(&s);
    s.retweeted_status = &s;
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_error why;
    out.why = &why;
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(twitter_status_encode_json(&s, &out, NULL), TAGC_E_INVALID);
    cr_expect(strstr(why.message, "encountered a cycle via twitter.Status") != NULL, "%s", why.message);
    cr_expect(strncmp(why.path, "$.retweeted_status.retweeted_status", 35) == 0, "path %s", why.path);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(twitter_status_encode_msgpack(&s, &out), TAGC_E_INVALID);
    cr_expect_eq(out.len, 0);
    /* a long chain of distinct statuses is too deep, not a cycle */
    enum { N = 2000 };
    twitter_status *chain_of = calloc(N, sizeof *chain_of);
    cr_assert(chain_of);
    for (size_t i = 0; i + 1 < N; i++)
        chain_of[i].retweeted_status = &chain_of[i + 1];
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(twitter_status_encode_json(chain_of, &out, NULL), TAGC_E_DEPTH);
    cr_expect_eq(why.code, TAGC_E_DEPTH);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(twitter_status_encode_msgpack(chain_of, &out), TAGC_E_DEPTH);
    free(chain_of);
    tagc_buf_free(&out);
}

/* n arrays one inside the other, each holding the next; the innermost is empty. */
static tagc_any *any_chain(size_t n)
{
    tagc_any *a = calloc(n, sizeof *a);
    tagc_any **items = calloc(n, sizeof *items);
    cr_assert(a && items);
    for (size_t i = 0; i < n; i++) {
        a[i].kind = TAGC_ANY_ARRAY;
        if (i + 1 < n) {
            items[i] = &a[i + 1];
            a[i].u.arr.items = &items[i];
            a[i].u.arr.len = 1;
        }
    }
    return a;
}

static void any_chain_free(tagc_any *a)
{
    free(a[0].u.arr.items);
    free(a);
}

Test(nesting, any_deep_and_cyclic)
{
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_error why;
    out.why = &why;
    sink_doc doc;

    /* 1000 levels of arrays: written, and read back */
    doc = any_chain(1000);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_json(&doc, &out, NULL), 0);
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_error err;
    sink_doc back;
    cr_expect_eq(sink_doc_decode_json(&back, (const char *)out.data, out.len, &arena, &err, NULL), 0);
    tagc_buf_reset(&out);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_msgpack(&doc, &out), 0);
    cr_expect_eq(sink_doc_decode_msgpack(&back, out.data, out.len, &arena, &err), 0);
    tagc_arena_free(&arena);
    any_chain_free(doc);

    /* 1001: refused; a million: refused, no crash */
    doc = any_chain(1001);
    tagc_buf_reset(&out);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_json(&doc, &out, NULL), TAGC_E_DEPTH);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_msgpack(&doc, &out), TAGC_E_DEPTH);
    any_chain_free(doc);
    doc = any_chain(1000000);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_json(&doc, &out, NULL), TAGC_E_DEPTH);
    cr_expect(strncmp(why.path, "$[0][0]", 7) == 0, "path %s", why.path);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_msgpack(&doc, &out), TAGC_E_DEPTH);
    any_chain_free(doc);

    /* an object that holds itself */
    tagc_any self;
    tagc_str key = {"me", 2};
    tagc_any *val = &self;
    self.kind = TAGC_ANY_OBJECT;
    self.u.obj.keys = &key;
    self.u.obj.vals = &val;
    self.u.obj.len = 1;
    doc = &self;
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_json(&doc, &out, NULL), TAGC_E_INVALID);
    cr_expect(strstr(why.message, "encountered a cycle via interface {}") != NULL, "%s", why.message);
    cr_expect(strncmp(why.path, "$.me.me", 7) == 0, "path %s", why.path);
    tagc_buf_reset(&out); /* errors are sticky */
    cr_expect_eq(sink_doc_encode_msgpack(&doc, &out), TAGC_E_INVALID);
    cr_expect_eq(out.len, 0);
    tagc_buf_free(&out);
}

/* json.RawMessage holds text: its nesting counts from where it sits. */
Test(nesting, raw_counts_from_where_it_sits)
{
    char *text = malloc(2 * 1000 + 1);
    cr_assert(text);
    memset(text, '[', 1000);
    memset(text + 1000, ']', 1000);
    text[2000] = '\0';
    tagc_raw r = {text, 2000};
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_json_write_raw_in(&out, &r, true, 0);
    cr_expect_eq(out.err, 0, "1000 levels at the top fit");
    tagc_buf_reset(&out);
    out.depth = 1; /* inside one level */
    tagc_json_write_raw_in(&out, &r, true, 0);
    cr_expect_eq(out.err, TAGC_E_DEPTH);
    tagc_buf_reset(&out);
    out.depth = 1; /* converted to MessagePack values, the text's levels count */
    tagc_mp_write_raw_value(&out, &r);
    cr_expect_eq(out.err, TAGC_E_DEPTH);
    tagc_buf_reset(&out);
    tagc_mp_write_raw_value(&out, &r);
    cr_expect_eq(out.err, 0);
    tagc_buf_reset(&out);
    out.depth = 1; /* as vmihailenco writes a RawMessage: a bin of the text, no levels */
    tagc_mp_write_raw(&out, &r);
    cr_expect_eq(out.err, 0);
    tagc_buf_free(&out);
    free(text);
}

/* The any readers keep their open arrays and objects in an explicit stack: an
 * error's path is the one the recursive readers gave (these are their paths
 * and offsets): every open member for an error in a value, every member but
 * the innermost for an error of that container's own syntax. */
Test(nesting, any_error_paths_through_the_frames)
{
    static const struct {
        const char *text, *path;
        size_t offset;
    } json[] = {
        {"[1,{\"a\":[true,x]}]", "$[1].a[1]", 14},
        {"[{\"a\":1 \"b\":2}]", "$[0]", 8},
        {"{\"a\":1,\"a\":[2,{\"b\":x}]}", "$.a[1].b", 19},
        {"[[1,2]", "$", 6},
        {"{\"k\":{\"j\":}}", "$.k.j", 10},
        {"[1,[2,[3,{\"z\" 1}]]]", "$[1][1][1]", 14},
        {"{\"a\":[[]],\"b\":{}}x", "$", 17},
    };
    tagc_arena arena;
    tagc_arena_init(&arena);
    for (size_t i = 0; i < sizeof json / sizeof json[0]; i++) {
        sink_doc doc;
        tagc_error err;
        cr_expect_neq(sink_doc_decode_json(&doc, json[i].text, strlen(json[i].text), &arena, &err, NULL), 0);
        cr_expect_str_eq(err.path, json[i].path, "%s", json[i].text);
        cr_expect_eq(err.offset, json[i].offset, "%s: offset %zu", json[i].text, err.offset);
    }
    static const struct {
        const char *bytes;
        size_t len;
        const char *path;
        size_t offset;
    } mp[] = {
        {"\x92\x01\x81\xa1" "a" "\x92\xc3\xc1", 8, "$[1].a[1]", 7}, /* [1,{"a":[true,<0xc1>]}] */
        {"\x91\x81\xc3\x01", 4, "$[0]", 2},                       /* a bool key */
        {"\x92\x01\x92\x01", 4, "$[1]", 2},                       /* cut short */
    };
    for (size_t i = 0; i < sizeof mp / sizeof mp[0]; i++) {
        sink_doc doc;
        tagc_error err;
        cr_expect_neq(sink_doc_decode_msgpack(&doc, (const uint8_t *)mp[i].bytes, mp[i].len, &arena, &err), 0);
        cr_expect_str_eq(err.path, mp[i].path, "case %zu", i);
        cr_expect_eq(err.offset, mp[i].offset, "case %zu: offset %zu", i, err.offset);
    }
    tagc_arena_free(&arena);
}
