/*
 * mappings.h - the hand-written JSON <-> struct mappings of every workload,
 * written once against the small set of DOM operations that dom_cjson.h,
 * dom_jansson.h and dom_jsonc.h each define as static inline functions over
 * their library. m_cjson.c, m_jansson.c and m_jsonc.c include one of those and
 * then this file, so each library gets its own compiled copy in which every
 * operation is inlined: the code is what one would write by hand for that
 * library (look up each field by name, check its type, convert, copy), without
 * the same 500 lines pasted three times.
 *
 * Decoding follows Go's rules where they matter for equal values: a missing
 * key or a null leaves the zero value; null gives a nil slice or pointer and
 * [] an empty non-nil one (TAGC_EMPTY); a value of the wrong type is an error.
 * Strings are copied out of the DOM (which is freed right after) into the
 * same arena tagc decodes into. Encoding writes fields in declared order,
 * nil as null, and leaves out omitempty fields as Go does.
 *
 * Before including, the including file defines BENCH_CODECS, the name of its
 * table, and BENCH_NO_ENCODE when the library has no encoder (simdjson): then
 * only the decoders are compiled. The file compiles as C11 and as C++17.
 */
#include <string.h>

#include "bench.h"

/* A void * as the type of x (C++ does not convert it implicitly). */
#ifdef __cplusplus
#define AS_TYPE_OF(x, p) ((decltype(x))(p))
#else
#define AS_TYPE_OF(x, p) ((__typeof__(x))(p))
#endif

/* MARK: - decoding helpers */

typedef struct D {
    tagc_arena *a;
    int bad; /* set on the first type error or allocation failure */
} D;

static void *d_new(D *d, size_t n)
{
    void *p = tagc_arena_alloc(d->a, n);
    if (p == NULL) {
        d->bad = 1;
        return NULL;
    }
    memset(p, 0, n);
    return p;
}

/* Each v_ reads the value x (NULL when absent) into *out; null leaves *out alone. */
static void v_str(D *d, J x, tagc_str *out)
{
    const char *s;
    size_t n;
    if (jd_is_null(x))
        return;
    if (!jd_str(x, &s, &n)) {
        d->bad = 1;
        return;
    }
    char *p = (char *)tagc_arena_alloc(d->a, n + 1);
    if (p == NULL) {
        d->bad = 1;
        return;
    }
    memcpy(p, s, n);
    p[n] = 0;
    out->ptr = p;
    out->len = n;
}

static void v_i64(D *d, J x, int64_t *out)
{
    if (!jd_is_null(x) && !jd_i64(x, out))
        d->bad = 1;
}

static void v_i32(D *d, J x, int32_t *out)
{
    int64_t v;
    if (jd_is_null(x))
        return;
    if (!jd_i64(x, &v) || v < INT32_MIN || v > INT32_MAX)
        d->bad = 1;
    else
        *out = (int32_t)v;
}

static void v_f64(D *d, J x, double *out)
{
    if (!jd_is_null(x) && !jd_f64(x, out))
        d->bad = 1;
}

static void v_bool(D *d, J x, bool *out)
{
    if (!jd_is_null(x) && !jd_bool(x, out))
        d->bad = 1;
}

/* Optional scalars (*T in Go): null is absent. */
static void v_opt_i64(D *d, J x, bool *has, int64_t *out)
{
    if (jd_is_null(x))
        return;
    *has = true;
    v_i64(d, x, out);
}

static void v_opt_str(D *d, J x, bool *has, tagc_str *out)
{
    if (jd_is_null(x))
        return;
    *has = true;
    v_str(d, x, out);
}

static void v_opt_bool(D *d, J x, bool *has, bool *out)
{
    if (jd_is_null(x))
        return;
    *has = true;
    v_bool(d, x, out);
}

/* RFC 3339 text: every contender uses libtagc's parser and formatter for
 * time.Time (the same cost for each), since none of the libraries has one. */
static void v_time(D *d, J x, tagc_time *out)
{
    const char *s;
    size_t n;
    if (jd_is_null(x))
        return;
    if (!jd_str(x, &s, &n) || tagc_time_parse(s, n, out, TAGC_GO_DEFAULT) != 0)
        d->bad = 1;
}

/* [2]float64: Go fills what the array has and ignores the rest. */
static void v_pt(D *d, J x, double (*out)[2])
{
    JArrIt it;
    if (jd_is_null(x))
        return;
    if (!jd_is_arr(x)) {
        d->bad = 1;
        return;
    }
    size_t n = jd_len(x);
    jd_arr_begin(x, &it);
    for (size_t i = 0; i < 2 && i < n; i++)
        v_f64(d, jd_arr_next(&it), &(*out)[i]);
}

/* An object value: null leaves it alone, anything else but an object is an error. */
#define OBJ_OR_RETURN(d, o)       \
    do {                          \
        if (jd_is_null(o))        \
            return;               \
        if (!jd_is_obj(o)) {      \
            (d)->bad = 1;         \
            return;               \
        }                         \
    } while (0)

/* A reader for a slice type: nil for null, TAGC_EMPTY for [], else n elements.
 * A library whose arrays do not know their length (simdjson On-Demand: counting
 * is a scan of the whole array, and of every array inside it) defines
 * BENCH_ONE_PASS_ARRAYS and jd_arr_more(): the elements are then read in one
 * pass into arena space that doubles as it fills, as a vector would. */
#ifdef BENCH_ONE_PASS_ARRAYS
#define DEF_V_SLICE(name, stype, elem_fn)                                \
    static void name(D *d, J x, stype *s)                               \
    {                                                                    \
        JArrIt it;                                                       \
        size_t n = 0, cap = 0;                                           \
        if (jd_is_null(x))                                               \
            return;                                                      \
        if (!jd_is_arr(x)) {                                             \
            d->bad = 1;                                                  \
            return;                                                      \
        }                                                                \
        s->ptr = AS_TYPE_OF(s->ptr, TAGC_EMPTY);                         \
        jd_arr_begin(x, &it);                                            \
        while (jd_arr_more(&it)) {                                       \
            if (n == cap) {                                              \
                cap = cap ? 2 * cap : 4;                                 \
                void *p = d_new(d, cap * sizeof *s->ptr);                \
                if (p == NULL)                                           \
                    return;                                              \
                if (n)                                                   \
                    memcpy(p, s->ptr, n * sizeof *s->ptr);               \
                s->ptr = AS_TYPE_OF(s->ptr, p);                          \
            }                                                            \
            elem_fn(d, jd_arr_next(&it), &s->ptr[n++]);                  \
            s->len = n;                                                  \
        }                                                                \
    }
#else
#define DEF_V_SLICE(name, stype, elem_fn)                                \
    static void name(D *d, J x, stype *s)                               \
    {                                                                    \
        JArrIt it;                                                       \
        if (jd_is_null(x))                                               \
            return;                                                      \
        if (!jd_is_arr(x)) {                                             \
            d->bad = 1;                                                  \
            return;                                                      \
        }                                                                \
        size_t n = jd_len(x);                                            \
        void *p = n ? d_new(d, n * sizeof *s->ptr) : TAGC_EMPTY;         \
        if (p == NULL)                                                   \
            return;                                                      \
        s->ptr = AS_TYPE_OF(s->ptr, p);                                                    \
        s->len = n;                                                      \
        jd_arr_begin(x, &it);                                            \
        for (size_t i = 0; i < n; i++)                                   \
            elem_fn(d, jd_arr_next(&it), &s->ptr[i]);                    \
    }
#endif

/* A pointer to a struct: nil for null, else a zeroed struct in the arena. */
#define V_PTR(d, x, ptr, fn)                          \
    do {                                              \
        J x_ = (x);                                   \
        if (jd_is_null(x_))                           \
            break;                                    \
        if (((ptr) = AS_TYPE_OF(ptr, d_new((d), sizeof *(ptr)))))      \
            fn((d), x_, (ptr));                       \
    } while (0)

/* MARK: - encoding helpers */

#ifndef BENCH_NO_ENCODE
static J e_str(const tagc_str *s) { return je_str(s->ptr ? s->ptr : "", s->len); }
static J e_i64(const int64_t *v) { return je_i64(*v); }
#endif

#ifndef BENCH_NO_ENCODE
static J e_time(const tagc_time *t)
{
    char text[TAGC_TIME_MAX_CHARS + 1];
    size_t n = tagc_time_format(text, t, TAGC_GO_DEFAULT);
    text[n] = 0;
    return je_str(text, n);
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_pt(double (*p)[2])
{
    J a = je_arr();
    je_push(a, je_f64((*p)[0]));
    je_push(a, je_f64((*p)[1]));
    return a;
}
#endif

/* A writer for a slice type: null for nil, else an array. */
#ifdef BENCH_NO_ENCODE
#define DEF_E_SLICE(name, stype, elem_fn)
#else
#define DEF_E_SLICE(name, stype, elem_fn)                       \
    static J name(const stype *s)                               \
    {                                                           \
        if (s->ptr == NULL)                                     \
            return je_null();                                   \
        J a = je_arr();                                         \
        for (size_t i = 0; i < s->len; i++)                     \
            je_push(a, elem_fn(&s->ptr[i]));                    \
        return a;                                               \
    }
#endif

/* The entry points of one workload. jd_ok says whether the parse gave a tree,
 * jd_error whether the library reported an error while the tree was read
 * (simdjson On-Demand parses as it is read). A library with no encoder
 * (BENCH_NO_ENCODE) gets decode only: its enc_ entries are NULL. */
#define DEF_DEC(w, T, read_fn)                                                  \
    static int dec_##w(const char *src, size_t len, void *value, tagc_arena *a) \
    {                                                                           \
        T *v = (T *)value;                                                      \
        D d = {a, 0};                                                           \
        memset(v, 0, sizeof *v);                                                \
        J root = jd_parse(src, len);                                            \
        if (!jd_ok(root))                                                       \
            return -1;                                                          \
        if (jd_is_obj(root))                                                    \
            read_fn(&d, root, v);                                               \
        else                                                                    \
            d.bad = 1;                                                          \
        j_free(root);                                                           \
        return d.bad || jd_error() ? -1 : 0;                                    \
    }
#ifdef BENCH_NO_ENCODE
#define DEF_CODEC(w, T, read_fn, write_fn) DEF_DEC(w, T, read_fn)
#define ENC(w) NULL
#else
#define DEF_CODEC(w, T, read_fn, write_fn)                                      \
    DEF_DEC(w, T, read_fn)                                                      \
    static int enc_##w(const void *value, tagc_buf *out)                        \
    {                                                                           \
        J root = write_fn((const T *)value);                                    \
        if (root == NULL)                                                       \
            return -1;                                                          \
        int rc = je_print(root, out);                                           \
        j_free(root);                                                           \
        return rc;                                                              \
    }
#define ENC(w) enc_##w
#endif

/* MARK: - user (small) */

DEF_V_SLICE(v_user_strs, user_string_slice, v_str)
DEF_E_SLICE(e_user_strs, user_string_slice, e_str)

static void v_user(D *d, J o, user_user *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "name"), &v->name);
    v_str(d, jd_get(o, "email"), &v->email);
    v_user_strs(d, jd_get(o, "roles"), &v->roles);
    J m = jd_get(o, "meta");
    if (!jd_is_null(m)) {
        if (!jd_is_obj(m)) {
            d->bad = 1;
            return;
        }
        v_time(d, jd_get(m, "created_at"), &v->metadata.created_at);
        v_time(d, jd_get(m, "updated_at"), &v->metadata.updated_at);
    }
}

#ifndef BENCH_NO_ENCODE
static J e_user(const user_user *v)
{
    J o = je_obj(), m = je_obj();
    je_set(o, "id", je_i64(v->id));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "email", e_str(&v->email));
    je_set(o, "roles", e_user_strs(&v->roles));
    je_set(m, "created_at", e_time(&v->metadata.created_at));
    je_set(m, "updated_at", e_time(&v->metadata.updated_at));
    je_set(o, "meta", m);
    return o;
}
#endif

DEF_CODEC(user, user_user, v_user, e_user)

/* MARK: - order (medium) */

static void v_order_geo(D *d, J o, order_geo *v)
{
    OBJ_OR_RETURN(d, o);
    v_f64(d, jd_get(o, "lat"), &v->lat);
    v_f64(d, jd_get(o, "lon"), &v->lon);
}

static void v_order_address(D *d, J o, order_address *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "street"), &v->street);
    v_str(d, jd_get(o, "city"), &v->city);
    v_str(d, jd_get(o, "zip"), &v->zip);
    v_str(d, jd_get(o, "country"), &v->country);
    v_order_geo(d, jd_get(o, "geo"), &v->geo);
}

static void v_order_customer(D *d, J o, order_customer *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "name"), &v->name);
    v_str(d, jd_get(o, "email"), &v->email);
    v_bool(d, jd_get(o, "vip"), &v->vip);
    v_order_address(d, jd_get(o, "address"), &v->address);
}

DEF_V_SLICE(v_order_strs, order_string_slice, v_str)

static void v_order_item(D *d, J o, order_item *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "sku"), &v->sku);
    v_str(d, jd_get(o, "name"), &v->name);
    v_i32(d, jd_get(o, "qty"), &v->qty);
    v_f64(d, jd_get(o, "price"), &v->price);
    v_f64(d, jd_get(o, "weight_kg"), &v->weight_kg);
    v_order_strs(d, jd_get(o, "tags"), &v->tags);
    v_bool(d, jd_get(o, "gift"), &v->gift);
}

DEF_V_SLICE(v_order_items, order_item_slice, v_order_item)

static void v_order(D *d, J o, order_order *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "status"), &v->status); /* an open enum: any string, as in Go */
    v_order_customer(d, jd_get(o, "customer"), &v->customer);
    v_order_items(d, jd_get(o, "items"), &v->items);
    v_f64(d, jd_get(o, "total"), &v->total);
    v_str(d, jd_get(o, "currency"), &v->currency);
    J x = jd_get(o, "discount");
    if (!jd_is_null(x)) {
        v->has_discount = true;
        v_f64(d, x, &v->discount);
    }
    v_str(d, jd_get(o, "notes"), &v->notes);
    v_i64(d, jd_get(o, "created_at"), &v->created_at);
    v_i64(d, jd_get(o, "updated_at"), &v->updated_at);
    v_f64(d, jd_get(o, "risk_score"), &v->risk_score);
    v_i32(d, jd_get(o, "attempts"), &v->attempts);
}

DEF_E_SLICE(e_order_strs, order_string_slice, e_str)

#ifndef BENCH_NO_ENCODE
static J e_order_item(const order_item *v)
{
    J o = je_obj();
    je_set(o, "sku", e_str(&v->sku));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "qty", je_i64(v->qty));
    je_set(o, "price", je_f64(v->price));
    je_set(o, "weight_kg", je_f64(v->weight_kg));
    je_set(o, "tags", e_order_strs(&v->tags));
    je_set(o, "gift", je_bool(v->gift));
    return o;
}
#endif

DEF_E_SLICE(e_order_items, order_item_slice, e_order_item)

#ifndef BENCH_NO_ENCODE
static J e_order(const order_order *v)
{
    const order_customer *c = &v->customer;
    const order_address *ad = &c->address;
    J o = je_obj(), cu = je_obj(), a = je_obj(), g = je_obj();
    je_set(g, "lat", je_f64(ad->geo.lat));
    je_set(g, "lon", je_f64(ad->geo.lon));
    je_set(a, "street", e_str(&ad->street));
    je_set(a, "city", e_str(&ad->city));
    je_set(a, "zip", e_str(&ad->zip));
    je_set(a, "country", e_str(&ad->country));
    je_set(a, "geo", g);
    je_set(cu, "id", je_i64(c->id));
    je_set(cu, "name", e_str(&c->name));
    je_set(cu, "email", e_str(&c->email));
    je_set(cu, "vip", je_bool(c->vip));
    je_set(cu, "address", a);
    je_set(o, "id", je_i64(v->id));
    je_set(o, "status", e_str(&v->status));
    je_set(o, "customer", cu);
    je_set(o, "items", e_order_items(&v->items));
    je_set(o, "total", je_f64(v->total));
    je_set(o, "currency", e_str(&v->currency));
    je_set(o, "discount", v->has_discount ? je_f64(v->discount) : je_null());
    je_set(o, "notes", e_str(&v->notes));
    je_set(o, "created_at", je_i64(v->created_at));
    je_set(o, "updated_at", je_i64(v->updated_at));
    je_set(o, "risk_score", je_f64(v->risk_score));
    je_set(o, "attempts", je_i64(v->attempts));
    return o;
}
#endif

DEF_CODEC(order, order_order, v_order, e_order)

/* MARK: - tree (recursive) */

static void v_tree_node(D *d, J o, tree_node *v);
DEF_V_SLICE(v_tree_nodes, tree_node_slice, v_tree_node)

static void v_tree_node(D *d, J o, tree_node *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_i64(d, jd_get(o, "val"), &v->val);
    v_tree_nodes(d, jd_get(o, "children"), &v->children);
}

#ifndef BENCH_NO_ENCODE
static J e_tree_node(const tree_node *v);
#endif
DEF_E_SLICE(e_tree_nodes, tree_node_slice, e_tree_node)

#ifndef BENCH_NO_ENCODE
static J e_tree_node(const tree_node *v)
{
    J o = je_obj();
    je_set(o, "id", je_i64(v->id));
    je_set(o, "val", je_i64(v->val));
    je_set(o, "children", e_tree_nodes(&v->children));
    return o;
}
#endif

DEF_CODEC(tree, tree_node, v_tree_node, e_tree_node)

/* MARK: - canada (floats) */

DEF_V_SLICE(v_canada_ring, canada_float64_array2_slice, v_pt)
DEF_V_SLICE(v_canada_rings, canada_float64_array2_slice_slice, v_canada_ring)

static void v_canada_feature(D *d, J o, canada_feature *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "type"), &v->type);
    J p = jd_get(o, "properties");
    if (!jd_is_null(p)) {
        if (!jd_is_obj(p)) {
            d->bad = 1;
            return;
        }
        v_str(d, jd_get(p, "name"), &v->properties.name);
    }
    J g = jd_get(o, "geometry");
    if (!jd_is_null(g)) {
        if (!jd_is_obj(g)) {
            d->bad = 1;
            return;
        }
        v_str(d, jd_get(g, "type"), &v->geometry.type);
        v_canada_rings(d, jd_get(g, "coordinates"), &v->geometry.coordinates);
    }
}

DEF_V_SLICE(v_canada_features, canada_feature_slice, v_canada_feature)

static void v_canada(D *d, J o, canada_feature_collection *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "type"), &v->type);
    v_canada_features(d, jd_get(o, "features"), &v->features);
}

DEF_E_SLICE(e_canada_ring, canada_float64_array2_slice, e_pt)
DEF_E_SLICE(e_canada_rings, canada_float64_array2_slice_slice, e_canada_ring)

#ifndef BENCH_NO_ENCODE
static J e_canada_feature(const canada_feature *v)
{
    J o = je_obj(), p = je_obj(), g = je_obj();
    je_set(o, "type", e_str(&v->type));
    je_set(p, "name", e_str(&v->properties.name));
    je_set(o, "properties", p);
    je_set(g, "type", e_str(&v->geometry.type));
    je_set(g, "coordinates", e_canada_rings(&v->geometry.coordinates));
    je_set(o, "geometry", g);
    return o;
}
#endif

DEF_E_SLICE(e_canada_features, canada_feature_slice, e_canada_feature)

#ifndef BENCH_NO_ENCODE
static J e_canada(const canada_feature_collection *v)
{
    J o = je_obj();
    je_set(o, "type", e_str(&v->type));
    je_set(o, "features", e_canada_features(&v->features));
    return o;
}
#endif

DEF_CODEC(canada, canada_feature_collection, v_canada, e_canada)

/* MARK: - twitter (large, wide objects) */

DEF_V_SLICE(v_tw_ints, twitter_int64_slice, v_i64)
DEF_E_SLICE(e_tw_ints, twitter_int64_slice, e_i64)

static void v_tw_url(D *d, J o, twitter_url *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "url"), &v->url);
    v_str(d, jd_get(o, "expanded_url"), &v->expanded_url);
    v_str(d, jd_get(o, "display_url"), &v->display_url);
    v_tw_ints(d, jd_get(o, "indices"), &v->indices);
}
DEF_V_SLICE(v_tw_urls, twitter_url_slice, v_tw_url)

static void v_tw_ur_ls(D *d, J o, twitter_urls *v)
{
    OBJ_OR_RETURN(d, o);
    v_tw_urls(d, jd_get(o, "urls"), &v->urls);
}

static void v_tw_hashtag(D *d, J o, twitter_hashtag *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "text"), &v->text);
    v_tw_ints(d, jd_get(o, "indices"), &v->indices);
}
DEF_V_SLICE(v_tw_hashtags, twitter_hashtag_slice, v_tw_hashtag)

static void v_tw_symbol(D *d, J o, twitter_symbol *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "text"), &v->text);
    v_tw_ints(d, jd_get(o, "indices"), &v->indices);
}
DEF_V_SLICE(v_tw_symbols, twitter_symbol_slice, v_tw_symbol)

static void v_tw_mention(D *d, J o, twitter_user_mention *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "screen_name"), &v->screen_name);
    v_str(d, jd_get(o, "name"), &v->name);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "id_str"), &v->id_str);
    v_tw_ints(d, jd_get(o, "indices"), &v->indices);
}
DEF_V_SLICE(v_tw_mentions, twitter_user_mention_slice, v_tw_mention)

static void v_tw_size(D *d, J o, twitter_media_size *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "w"), &v->w);
    v_i64(d, jd_get(o, "h"), &v->h);
    v_str(d, jd_get(o, "resize"), &v->resize);
}

static void v_tw_media(D *d, J o, twitter_media *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "id_str"), &v->id_str);
    v_tw_ints(d, jd_get(o, "indices"), &v->indices);
    v_str(d, jd_get(o, "media_url"), &v->media_url);
    v_str(d, jd_get(o, "media_url_https"), &v->media_url_https);
    v_str(d, jd_get(o, "url"), &v->url);
    v_str(d, jd_get(o, "display_url"), &v->display_url);
    v_str(d, jd_get(o, "expanded_url"), &v->expanded_url);
    v_str(d, jd_get(o, "type"), &v->type);
    J s = jd_get(o, "sizes");
    if (!jd_is_null(s)) {
        if (!jd_is_obj(s)) {
            d->bad = 1;
            return;
        }
        v_tw_size(d, jd_get(s, "medium"), &v->sizes.medium);
        v_tw_size(d, jd_get(s, "small"), &v->sizes.small);
        v_tw_size(d, jd_get(s, "thumb"), &v->sizes.thumb);
        v_tw_size(d, jd_get(s, "large"), &v->sizes.large);
    }
    v_i64(d, jd_get(o, "source_status_id"), &v->source_status_id);
    v_str(d, jd_get(o, "source_status_id_str"), &v->source_status_id_str);
}
DEF_V_SLICE(v_tw_medias, twitter_media_slice, v_tw_media)

static void v_tw_entities(D *d, J o, twitter_entities *v)
{
    OBJ_OR_RETURN(d, o);
    v_tw_hashtags(d, jd_get(o, "hashtags"), &v->hashtags);
    v_tw_symbols(d, jd_get(o, "symbols"), &v->symbols);
    v_tw_urls(d, jd_get(o, "urls"), &v->urls);
    v_tw_mentions(d, jd_get(o, "user_mentions"), &v->user_mentions);
    v_tw_medias(d, jd_get(o, "media"), &v->media);
}

static void v_tw_user(D *d, J o, twitter_user *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "id_str"), &v->id_str);
    v_str(d, jd_get(o, "name"), &v->name);
    v_str(d, jd_get(o, "screen_name"), &v->screen_name);
    v_str(d, jd_get(o, "location"), &v->location);
    v_str(d, jd_get(o, "description"), &v->description);
    v_opt_str(d, jd_get(o, "url"), &v->has_url, &v->url);
    J e = jd_get(o, "entities");
    if (!jd_is_null(e)) {
        if (!jd_is_obj(e)) {
            d->bad = 1;
            return;
        }
        V_PTR(d, jd_get(e, "url"), v->entities.url, v_tw_ur_ls);
        v_tw_ur_ls(d, jd_get(e, "description"), &v->entities.description);
    }
    v_bool(d, jd_get(o, "protected"), &v->protected_);
    v_i64(d, jd_get(o, "followers_count"), &v->followers_count);
    v_i64(d, jd_get(o, "friends_count"), &v->friends_count);
    v_i64(d, jd_get(o, "listed_count"), &v->listed_count);
    v_str(d, jd_get(o, "created_at"), &v->created_at);
    v_i64(d, jd_get(o, "favourites_count"), &v->favourites_count);
    v_opt_i64(d, jd_get(o, "utc_offset"), &v->has_utc_offset, &v->utc_offset);
    v_opt_str(d, jd_get(o, "time_zone"), &v->has_time_zone, &v->time_zone);
    v_bool(d, jd_get(o, "geo_enabled"), &v->geo_enabled);
    v_bool(d, jd_get(o, "verified"), &v->verified);
    v_i64(d, jd_get(o, "statuses_count"), &v->statuses_count);
    v_str(d, jd_get(o, "lang"), &v->lang);
    v_bool(d, jd_get(o, "contributors_enabled"), &v->contributors_enabled);
    v_bool(d, jd_get(o, "is_translator"), &v->is_translator);
    v_bool(d, jd_get(o, "is_translation_enabled"), &v->is_translation_enabled);
    v_str(d, jd_get(o, "profile_background_color"), &v->profile_background_color);
    v_str(d, jd_get(o, "profile_background_image_url"), &v->profile_background_image_url);
    v_str(d, jd_get(o, "profile_background_image_url_https"), &v->profile_background_image_url_https);
    v_bool(d, jd_get(o, "profile_background_tile"), &v->profile_background_tile);
    v_str(d, jd_get(o, "profile_image_url"), &v->profile_image_url);
    v_str(d, jd_get(o, "profile_image_url_https"), &v->profile_image_url_https);
    v_str(d, jd_get(o, "profile_banner_url"), &v->profile_banner_url);
    v_str(d, jd_get(o, "profile_link_color"), &v->profile_link_color);
    v_str(d, jd_get(o, "profile_sidebar_border_color"), &v->profile_sidebar_border_color);
    v_str(d, jd_get(o, "profile_sidebar_fill_color"), &v->profile_sidebar_fill_color);
    v_str(d, jd_get(o, "profile_text_color"), &v->profile_text_color);
    v_bool(d, jd_get(o, "profile_use_background_image"), &v->profile_use_background_image);
    v_bool(d, jd_get(o, "default_profile"), &v->default_profile);
    v_bool(d, jd_get(o, "default_profile_image"), &v->default_profile_image);
    v_bool(d, jd_get(o, "following"), &v->following);
    v_bool(d, jd_get(o, "follow_request_sent"), &v->follow_request_sent);
    v_bool(d, jd_get(o, "notifications"), &v->notifications);
}

static void v_tw_point(D *d, J o, twitter_point *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "type"), &v->type);
    v_pt(d, jd_get(o, "coordinates"), &v->coordinates);
}

static void v_tw_contributor(D *d, J o, twitter_contributor *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "id_str"), &v->id_str);
    v_str(d, jd_get(o, "screen_name"), &v->screen_name);
}
DEF_V_SLICE(v_tw_contributors, twitter_contributor_slice, v_tw_contributor)

DEF_V_SLICE(v_tw_ring, twitter_float64_array2_slice, v_pt)
DEF_V_SLICE(v_tw_rings, twitter_float64_array2_slice_slice, v_tw_ring)

static void v_tw_strmap(D *d, J x, twitter_string_string_map *m)
{
    JObjIt it;
    const char *k;
    size_t kn, n, i = 0;
    J val;
    if (jd_is_null(x))
        return;
    if (!jd_is_obj(x)) {
        d->bad = 1;
        return;
    }
    n = jd_len(x);
    if (n == 0) {
        m->keys = AS_TYPE_OF(m->keys, TAGC_EMPTY);
        m->vals = AS_TYPE_OF(m->vals, TAGC_EMPTY);
        return;
    }
    if (!(m->keys = AS_TYPE_OF(m->keys, d_new(d, n * sizeof *m->keys))) ||
        !(m->vals = AS_TYPE_OF(m->vals, d_new(d, n * sizeof *m->vals)))) {
        m->keys = m->vals = NULL;
        return;
    }
    jd_obj_begin(x, &it);
    while (i < n && jd_ok(val = jd_obj_next(&it, &k, &kn))) {
        char *p = (char *)tagc_arena_alloc(d->a, kn + 1);
        if (p == NULL) {
            d->bad = 1;
            return;
        }
        memcpy(p, k, kn);
        p[kn] = 0;
        m->keys[i].ptr = p;
        m->keys[i].len = kn;
        v_str(d, val, &m->vals[i]);
        i++;
    }
    m->len = i;
}

static void v_tw_place(D *d, J o, twitter_place *v)
{
    OBJ_OR_RETURN(d, o);
    v_str(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "url"), &v->url);
    v_str(d, jd_get(o, "place_type"), &v->place_type);
    v_str(d, jd_get(o, "name"), &v->name);
    v_str(d, jd_get(o, "full_name"), &v->full_name);
    v_str(d, jd_get(o, "country_code"), &v->country_code);
    v_str(d, jd_get(o, "country"), &v->country);
    J b = jd_get(o, "bounding_box");
    if (!jd_is_null(b)) {
        if (!jd_is_obj(b)) {
            d->bad = 1;
            return;
        }
        v_str(d, jd_get(b, "type"), &v->bounding_box.type);
        v_tw_rings(d, jd_get(b, "coordinates"), &v->bounding_box.coordinates);
    }
    v_tw_strmap(d, jd_get(o, "attributes"), &v->attributes);
}

static void v_tw_status(D *d, J o, twitter_status *v)
{
    OBJ_OR_RETURN(d, o);
    J m = jd_get(o, "metadata");
    if (!jd_is_null(m)) {
        if (!jd_is_obj(m)) {
            d->bad = 1;
            return;
        }
        v_str(d, jd_get(m, "result_type"), &v->metadata.result_type);
        v_str(d, jd_get(m, "iso_language_code"), &v->metadata.iso_language_code);
    }
    v_str(d, jd_get(o, "created_at"), &v->created_at);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_str(d, jd_get(o, "id_str"), &v->id_str);
    v_str(d, jd_get(o, "text"), &v->text);
    v_str(d, jd_get(o, "source"), &v->source);
    v_bool(d, jd_get(o, "truncated"), &v->truncated);
    v_opt_i64(d, jd_get(o, "in_reply_to_status_id"), &v->has_in_reply_to_status_id,
              &v->in_reply_to_status_id);
    v_opt_str(d, jd_get(o, "in_reply_to_status_id_str"), &v->has_in_reply_to_status_id_str,
              &v->in_reply_to_status_id_str);
    v_opt_i64(d, jd_get(o, "in_reply_to_user_id"), &v->has_in_reply_to_user_id,
              &v->in_reply_to_user_id);
    v_opt_str(d, jd_get(o, "in_reply_to_user_id_str"), &v->has_in_reply_to_user_id_str,
              &v->in_reply_to_user_id_str);
    v_opt_str(d, jd_get(o, "in_reply_to_screen_name"), &v->has_in_reply_to_screen_name,
              &v->in_reply_to_screen_name);
    v_tw_user(d, jd_get(o, "user"), &v->user);
    V_PTR(d, jd_get(o, "geo"), v->geo, v_tw_point);
    V_PTR(d, jd_get(o, "coordinates"), v->coordinates, v_tw_point);
    V_PTR(d, jd_get(o, "place"), v->place, v_tw_place);
    v_tw_contributors(d, jd_get(o, "contributors"), &v->contributors);
    V_PTR(d, jd_get(o, "retweeted_status"), v->retweeted_status, v_tw_status);
    v_i64(d, jd_get(o, "retweet_count"), &v->retweet_count);
    v_i64(d, jd_get(o, "favorite_count"), &v->favorite_count);
    v_tw_entities(d, jd_get(o, "entities"), &v->entities);
    v_bool(d, jd_get(o, "favorited"), &v->favorited);
    v_bool(d, jd_get(o, "retweeted"), &v->retweeted);
    v_opt_bool(d, jd_get(o, "possibly_sensitive"), &v->has_possibly_sensitive,
               &v->possibly_sensitive);
    v_str(d, jd_get(o, "lang"), &v->lang);
}
DEF_V_SLICE(v_tw_statuses, twitter_status_slice, v_tw_status)

static void v_twitter(D *d, J o, twitter_search_result *v)
{
    OBJ_OR_RETURN(d, o);
    v_tw_statuses(d, jd_get(o, "statuses"), &v->statuses);
    J m = jd_get(o, "search_metadata");
    if (jd_is_null(m))
        return;
    if (!jd_is_obj(m)) {
        d->bad = 1;
        return;
    }
    twitter_search_metadata *s = &v->search_metadata;
    v_f64(d, jd_get(m, "completed_in"), &s->completed_in);
    v_i64(d, jd_get(m, "max_id"), &s->max_id);
    v_str(d, jd_get(m, "max_id_str"), &s->max_id_str);
    v_str(d, jd_get(m, "next_results"), &s->next_results);
    v_str(d, jd_get(m, "query"), &s->query);
    v_str(d, jd_get(m, "refresh_url"), &s->refresh_url);
    v_i64(d, jd_get(m, "count"), &s->count);
    v_i64(d, jd_get(m, "since_id"), &s->since_id);
    v_str(d, jd_get(m, "since_id_str"), &s->since_id_str);
}

/* Optional values when encoding: null unless present. */
#ifndef BENCH_NO_ENCODE
static J e_opt_i64(bool has, int64_t v) { return has ? je_i64(v) : je_null(); }
static J e_opt_str(bool has, const tagc_str *s) { return has ? e_str(s) : je_null(); }
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_url(const twitter_url *v)
{
    J o = je_obj();
    je_set(o, "url", e_str(&v->url));
    je_set(o, "expanded_url", e_str(&v->expanded_url));
    je_set(o, "display_url", e_str(&v->display_url));
    je_set(o, "indices", e_tw_ints(&v->indices));
    return o;
}
#endif
DEF_E_SLICE(e_tw_urls, twitter_url_slice, e_tw_url)

#ifndef BENCH_NO_ENCODE
static J e_tw_ur_ls(const twitter_urls *v)
{
    J o = je_obj();
    je_set(o, "urls", e_tw_urls(&v->urls));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_hashtag(const twitter_hashtag *v)
{
    J o = je_obj();
    je_set(o, "text", e_str(&v->text));
    je_set(o, "indices", e_tw_ints(&v->indices));
    return o;
}
#endif
DEF_E_SLICE(e_tw_hashtags, twitter_hashtag_slice, e_tw_hashtag)

#ifndef BENCH_NO_ENCODE
static J e_tw_symbol(const twitter_symbol *v)
{
    J o = je_obj();
    je_set(o, "text", e_str(&v->text));
    je_set(o, "indices", e_tw_ints(&v->indices));
    return o;
}
#endif
DEF_E_SLICE(e_tw_symbols, twitter_symbol_slice, e_tw_symbol)

#ifndef BENCH_NO_ENCODE
static J e_tw_mention(const twitter_user_mention *v)
{
    J o = je_obj();
    je_set(o, "screen_name", e_str(&v->screen_name));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "id", je_i64(v->id));
    je_set(o, "id_str", e_str(&v->id_str));
    je_set(o, "indices", e_tw_ints(&v->indices));
    return o;
}
#endif
DEF_E_SLICE(e_tw_mentions, twitter_user_mention_slice, e_tw_mention)

#ifndef BENCH_NO_ENCODE
static J e_tw_size(const twitter_media_size *v)
{
    J o = je_obj();
    je_set(o, "w", je_i64(v->w));
    je_set(o, "h", je_i64(v->h));
    je_set(o, "resize", e_str(&v->resize));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_media(const twitter_media *v)
{
    J o = je_obj(), s = je_obj();
    je_set(o, "id", je_i64(v->id));
    je_set(o, "id_str", e_str(&v->id_str));
    je_set(o, "indices", e_tw_ints(&v->indices));
    je_set(o, "media_url", e_str(&v->media_url));
    je_set(o, "media_url_https", e_str(&v->media_url_https));
    je_set(o, "url", e_str(&v->url));
    je_set(o, "display_url", e_str(&v->display_url));
    je_set(o, "expanded_url", e_str(&v->expanded_url));
    je_set(o, "type", e_str(&v->type));
    je_set(s, "medium", e_tw_size(&v->sizes.medium));
    je_set(s, "small", e_tw_size(&v->sizes.small));
    je_set(s, "thumb", e_tw_size(&v->sizes.thumb));
    je_set(s, "large", e_tw_size(&v->sizes.large));
    je_set(o, "sizes", s);
    if (v->source_status_id != 0)
        je_set(o, "source_status_id", je_i64(v->source_status_id));
    if (v->source_status_id_str.len != 0)
        je_set(o, "source_status_id_str", e_str(&v->source_status_id_str));
    return o;
}
#endif
DEF_E_SLICE(e_tw_medias, twitter_media_slice, e_tw_media)

#ifndef BENCH_NO_ENCODE
static J e_tw_entities(const twitter_entities *v)
{
    J o = je_obj();
    je_set(o, "hashtags", e_tw_hashtags(&v->hashtags));
    je_set(o, "symbols", e_tw_symbols(&v->symbols));
    je_set(o, "urls", e_tw_urls(&v->urls));
    je_set(o, "user_mentions", e_tw_mentions(&v->user_mentions));
    if (v->media.len != 0)
        je_set(o, "media", e_tw_medias(&v->media));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_user(const twitter_user *v)
{
    J o = je_obj(), e = je_obj();
    je_set(o, "id", je_i64(v->id));
    je_set(o, "id_str", e_str(&v->id_str));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "screen_name", e_str(&v->screen_name));
    je_set(o, "location", e_str(&v->location));
    je_set(o, "description", e_str(&v->description));
    je_set(o, "url", e_opt_str(v->has_url, &v->url));
    if (v->entities.url != NULL)
        je_set(e, "url", e_tw_ur_ls(v->entities.url));
    je_set(e, "description", e_tw_ur_ls(&v->entities.description));
    je_set(o, "entities", e);
    je_set(o, "protected", je_bool(v->protected_));
    je_set(o, "followers_count", je_i64(v->followers_count));
    je_set(o, "friends_count", je_i64(v->friends_count));
    je_set(o, "listed_count", je_i64(v->listed_count));
    je_set(o, "created_at", e_str(&v->created_at));
    je_set(o, "favourites_count", je_i64(v->favourites_count));
    je_set(o, "utc_offset", e_opt_i64(v->has_utc_offset, v->utc_offset));
    je_set(o, "time_zone", e_opt_str(v->has_time_zone, &v->time_zone));
    je_set(o, "geo_enabled", je_bool(v->geo_enabled));
    je_set(o, "verified", je_bool(v->verified));
    je_set(o, "statuses_count", je_i64(v->statuses_count));
    je_set(o, "lang", e_str(&v->lang));
    je_set(o, "contributors_enabled", je_bool(v->contributors_enabled));
    je_set(o, "is_translator", je_bool(v->is_translator));
    je_set(o, "is_translation_enabled", je_bool(v->is_translation_enabled));
    je_set(o, "profile_background_color", e_str(&v->profile_background_color));
    je_set(o, "profile_background_image_url", e_str(&v->profile_background_image_url));
    je_set(o, "profile_background_image_url_https", e_str(&v->profile_background_image_url_https));
    je_set(o, "profile_background_tile", je_bool(v->profile_background_tile));
    je_set(o, "profile_image_url", e_str(&v->profile_image_url));
    je_set(o, "profile_image_url_https", e_str(&v->profile_image_url_https));
    if (v->profile_banner_url.len != 0)
        je_set(o, "profile_banner_url", e_str(&v->profile_banner_url));
    je_set(o, "profile_link_color", e_str(&v->profile_link_color));
    je_set(o, "profile_sidebar_border_color", e_str(&v->profile_sidebar_border_color));
    je_set(o, "profile_sidebar_fill_color", e_str(&v->profile_sidebar_fill_color));
    je_set(o, "profile_text_color", e_str(&v->profile_text_color));
    je_set(o, "profile_use_background_image", je_bool(v->profile_use_background_image));
    je_set(o, "default_profile", je_bool(v->default_profile));
    je_set(o, "default_profile_image", je_bool(v->default_profile_image));
    je_set(o, "following", je_bool(v->following));
    je_set(o, "follow_request_sent", je_bool(v->follow_request_sent));
    je_set(o, "notifications", je_bool(v->notifications));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_point(const twitter_point *v)
{
    J o = je_obj();
    je_set(o, "type", e_str(&v->type));
    je_set(o, "coordinates", e_pt((double (*)[2]) & v->coordinates));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_contributor(const twitter_contributor *v)
{
    J o = je_obj();
    je_set(o, "id", je_i64(v->id));
    je_set(o, "id_str", e_str(&v->id_str));
    je_set(o, "screen_name", e_str(&v->screen_name));
    return o;
}
#endif
DEF_E_SLICE(e_tw_contributors, twitter_contributor_slice, e_tw_contributor)

DEF_E_SLICE(e_tw_ring, twitter_float64_array2_slice, e_pt)
DEF_E_SLICE(e_tw_rings, twitter_float64_array2_slice_slice, e_tw_ring)

#ifndef BENCH_NO_ENCODE
static J e_tw_strmap(const twitter_string_string_map *m)
{
    if (m->keys == NULL)
        return je_null();
    J o = je_obj();
    for (size_t i = 0; i < m->len; i++)
        je_setn(o, m->keys[i].ptr ? m->keys[i].ptr : "", m->keys[i].len, e_str(&m->vals[i]));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_place(const twitter_place *v)
{
    J o = je_obj(), b = je_obj();
    je_set(o, "id", e_str(&v->id));
    je_set(o, "url", e_str(&v->url));
    je_set(o, "place_type", e_str(&v->place_type));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "full_name", e_str(&v->full_name));
    je_set(o, "country_code", e_str(&v->country_code));
    je_set(o, "country", e_str(&v->country));
    je_set(b, "type", e_str(&v->bounding_box.type));
    je_set(b, "coordinates", e_tw_rings(&v->bounding_box.coordinates));
    je_set(o, "bounding_box", b);
    je_set(o, "attributes", e_tw_strmap(&v->attributes));
    return o;
}
#endif

#ifndef BENCH_NO_ENCODE
static J e_tw_status(const twitter_status *v)
{
    J o = je_obj(), m = je_obj();
    je_set(m, "result_type", e_str(&v->metadata.result_type));
    je_set(m, "iso_language_code", e_str(&v->metadata.iso_language_code));
    je_set(o, "metadata", m);
    je_set(o, "created_at", e_str(&v->created_at));
    je_set(o, "id", je_i64(v->id));
    je_set(o, "id_str", e_str(&v->id_str));
    je_set(o, "text", e_str(&v->text));
    je_set(o, "source", e_str(&v->source));
    je_set(o, "truncated", je_bool(v->truncated));
    je_set(o, "in_reply_to_status_id",
           e_opt_i64(v->has_in_reply_to_status_id, v->in_reply_to_status_id));
    je_set(o, "in_reply_to_status_id_str",
           e_opt_str(v->has_in_reply_to_status_id_str, &v->in_reply_to_status_id_str));
    je_set(o, "in_reply_to_user_id", e_opt_i64(v->has_in_reply_to_user_id, v->in_reply_to_user_id));
    je_set(o, "in_reply_to_user_id_str",
           e_opt_str(v->has_in_reply_to_user_id_str, &v->in_reply_to_user_id_str));
    je_set(o, "in_reply_to_screen_name",
           e_opt_str(v->has_in_reply_to_screen_name, &v->in_reply_to_screen_name));
    je_set(o, "user", e_tw_user(&v->user));
    je_set(o, "geo", v->geo ? e_tw_point(v->geo) : je_null());
    je_set(o, "coordinates", v->coordinates ? e_tw_point(v->coordinates) : je_null());
    je_set(o, "place", v->place ? e_tw_place(v->place) : je_null());
    je_set(o, "contributors", e_tw_contributors(&v->contributors));
    if (v->retweeted_status != NULL)
        je_set(o, "retweeted_status", e_tw_status(v->retweeted_status));
    je_set(o, "retweet_count", je_i64(v->retweet_count));
    je_set(o, "favorite_count", je_i64(v->favorite_count));
    je_set(o, "entities", e_tw_entities(&v->entities));
    je_set(o, "favorited", je_bool(v->favorited));
    je_set(o, "retweeted", je_bool(v->retweeted));
    if (v->has_possibly_sensitive)
        je_set(o, "possibly_sensitive", je_bool(v->possibly_sensitive));
    je_set(o, "lang", e_str(&v->lang));
    return o;
}
#endif
DEF_E_SLICE(e_tw_statuses, twitter_status_slice, e_tw_status)

#ifndef BENCH_NO_ENCODE
static J e_twitter(const twitter_search_result *v)
{
    const twitter_search_metadata *s = &v->search_metadata;
    J o = je_obj(), m = je_obj();
    je_set(o, "statuses", e_tw_statuses(&v->statuses));
    je_set(m, "completed_in", je_f64(s->completed_in));
    je_set(m, "max_id", je_i64(s->max_id));
    je_set(m, "max_id_str", e_str(&s->max_id_str));
    je_set(m, "next_results", e_str(&s->next_results));
    je_set(m, "query", e_str(&s->query));
    je_set(m, "refresh_url", e_str(&s->refresh_url));
    je_set(m, "count", je_i64(s->count));
    je_set(m, "since_id", je_i64(s->since_id));
    je_set(m, "since_id_str", e_str(&s->since_id_str));
    je_set(o, "search_metadata", m);
    return o;
}
#endif

DEF_CODEC(twitter, twitter_search_result, v_twitter, e_twitter)

/* MARK: - citm (maps keyed by ids) */

/* A reader for a map type (map[string]T): nil for null, empty non-nil for {},
 * else the pairs in the document's order (the generated decoder's order). */
#define DEF_V_MAP(name, mtype, elem_fn)                                              \
    static void name(D *d, J x, mtype *m)                                           \
    {                                                                                \
        JObjIt it;                                                                   \
        const char *k;                                                               \
        size_t kn, n, i = 0;                                                         \
        J val;                                                                       \
        if (jd_is_null(x))                                                           \
            return;                                                                  \
        if (!jd_is_obj(x)) {                                                         \
            d->bad = 1;                                                              \
            return;                                                                  \
        }                                                                            \
        n = jd_len(x);                                                               \
        if (n == 0) {                                                                \
            m->keys = AS_TYPE_OF(m->keys, TAGC_EMPTY);                               \
            m->vals = AS_TYPE_OF(m->vals, TAGC_EMPTY);                               \
            return;                                                                  \
        }                                                                            \
        if (!(m->keys = AS_TYPE_OF(m->keys, d_new(d, n * sizeof *m->keys))) ||       \
            !(m->vals = AS_TYPE_OF(m->vals, d_new(d, n * sizeof *m->vals)))) {       \
            m->keys = NULL;                                                          \
            m->vals = NULL;                                                          \
            return;                                                                  \
        }                                                                            \
        jd_obj_begin(x, &it);                                                        \
        while (i < n && jd_ok(val = jd_obj_next(&it, &k, &kn))) {                    \
            char *p = (char *)tagc_arena_alloc(d->a, kn + 1);                        \
            if (p == NULL) {                                                         \
                d->bad = 1;                                                          \
                return;                                                              \
            }                                                                        \
            memcpy(p, k, kn);                                                        \
            p[kn] = 0;                                                               \
            m->keys[i].ptr = p;                                                      \
            m->keys[i].len = kn;                                                     \
            elem_fn(d, val, &m->vals[i]);                                            \
            i++;                                                                     \
        }                                                                            \
        m->len = i;                                                                  \
    }

/* A writer for a map type: null for nil, else the pairs in the value's order. */
#ifdef BENCH_NO_ENCODE
#define DEF_E_MAP(name, mtype, elem_fn)
#else
#define DEF_E_MAP(name, mtype, elem_fn)                                                   \
    static J name(const mtype *m)                                                         \
    {                                                                                     \
        if (m->keys == NULL)                                                              \
            return je_null();                                                             \
        J o = je_obj();                                                                   \
        for (size_t i = 0; i < m->len; i++)                                               \
            je_setn(o, m->keys[i].ptr ? m->keys[i].ptr : "", m->keys[i].len,              \
                    elem_fn(&m->vals[i]));                                                \
        return o;                                                                         \
    }
#endif

DEF_V_SLICE(v_citm_ints, citm_int64_slice, v_i64)
DEF_E_SLICE(e_citm_ints, citm_int64_slice, e_i64)
DEF_V_MAP(v_citm_strmap, citm_string_string_map, v_str)
DEF_E_MAP(e_citm_strmap, citm_string_string_map, e_str)
DEF_V_MAP(v_citm_intsmap, citm_string_int64_slice_map, v_citm_ints)
DEF_E_MAP(e_citm_intsmap, citm_string_int64_slice_map, e_citm_ints)

static void v_citm_event(D *d, J o, citm_event *v)
{
    OBJ_OR_RETURN(d, o);
    v_opt_str(d, jd_get(o, "description"), &v->has_description, &v->description);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_opt_str(d, jd_get(o, "logo"), &v->has_logo, &v->logo);
    v_str(d, jd_get(o, "name"), &v->name);
    v_citm_ints(d, jd_get(o, "subTopicIds"), &v->sub_topic_ids);
    v_opt_str(d, jd_get(o, "subjectCode"), &v->has_subject_code, &v->subject_code);
    v_opt_str(d, jd_get(o, "subtitle"), &v->has_subtitle, &v->subtitle);
    v_citm_ints(d, jd_get(o, "topicIds"), &v->topic_ids);
}
DEF_V_MAP(v_citm_events, citm_string_event_map, v_citm_event)

static void v_citm_price(D *d, J o, citm_price *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "amount"), &v->amount);
    v_i64(d, jd_get(o, "audienceSubCategoryId"), &v->audience_sub_category_id);
    v_i64(d, jd_get(o, "seatCategoryId"), &v->seat_category_id);
}
DEF_V_SLICE(v_citm_prices, citm_price_slice, v_citm_price)

static void v_citm_area(D *d, J o, citm_area *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "areaId"), &v->area_id);
    v_citm_ints(d, jd_get(o, "blockIds"), &v->block_ids);
}
DEF_V_SLICE(v_citm_areas, citm_area_slice, v_citm_area)

static void v_citm_seat_category(D *d, J o, citm_seat_category *v)
{
    OBJ_OR_RETURN(d, o);
    v_citm_areas(d, jd_get(o, "areas"), &v->areas);
    v_i64(d, jd_get(o, "seatCategoryId"), &v->seat_category_id);
}
DEF_V_SLICE(v_citm_seat_categories, citm_seat_category_slice, v_citm_seat_category)

static void v_citm_performance(D *d, J o, citm_performance *v)
{
    OBJ_OR_RETURN(d, o);
    v_i64(d, jd_get(o, "eventId"), &v->event_id);
    v_i64(d, jd_get(o, "id"), &v->id);
    v_opt_str(d, jd_get(o, "logo"), &v->has_logo, &v->logo);
    v_opt_str(d, jd_get(o, "name"), &v->has_name, &v->name);
    v_citm_prices(d, jd_get(o, "prices"), &v->prices);
    v_citm_seat_categories(d, jd_get(o, "seatCategories"), &v->seat_categories);
    v_opt_str(d, jd_get(o, "seatMapImage"), &v->has_seat_map_image, &v->seat_map_image);
    v_i64(d, jd_get(o, "start"), &v->start);
    v_str(d, jd_get(o, "venueCode"), &v->venue_code);
}
DEF_V_SLICE(v_citm_performances, citm_performance_slice, v_citm_performance)

static void v_citm(D *d, J o, citm_catalog *v)
{
    OBJ_OR_RETURN(d, o);
    v_citm_strmap(d, jd_get(o, "areaNames"), &v->area_names);
    v_citm_strmap(d, jd_get(o, "audienceSubCategoryNames"), &v->audience_sub_category_names);
    v_citm_strmap(d, jd_get(o, "blockNames"), &v->block_names);
    v_citm_events(d, jd_get(o, "events"), &v->events);
    v_citm_performances(d, jd_get(o, "performances"), &v->performances);
    v_citm_strmap(d, jd_get(o, "seatCategoryNames"), &v->seat_category_names);
    v_citm_strmap(d, jd_get(o, "subTopicNames"), &v->sub_topic_names);
    v_citm_strmap(d, jd_get(o, "subjectNames"), &v->subject_names);
    v_citm_strmap(d, jd_get(o, "topicNames"), &v->topic_names);
    v_citm_intsmap(d, jd_get(o, "topicSubTopics"), &v->topic_sub_topics);
    v_citm_strmap(d, jd_get(o, "venueNames"), &v->venue_names);
}

#ifndef BENCH_NO_ENCODE
static J e_citm_event(const citm_event *v)
{
    J o = je_obj();
    je_set(o, "description", e_opt_str(v->has_description, &v->description));
    je_set(o, "id", je_i64(v->id));
    je_set(o, "logo", e_opt_str(v->has_logo, &v->logo));
    je_set(o, "name", e_str(&v->name));
    je_set(o, "subTopicIds", e_citm_ints(&v->sub_topic_ids));
    je_set(o, "subjectCode", e_opt_str(v->has_subject_code, &v->subject_code));
    je_set(o, "subtitle", e_opt_str(v->has_subtitle, &v->subtitle));
    je_set(o, "topicIds", e_citm_ints(&v->topic_ids));
    return o;
}

static J e_citm_price(const citm_price *v)
{
    J o = je_obj();
    je_set(o, "amount", je_i64(v->amount));
    je_set(o, "audienceSubCategoryId", je_i64(v->audience_sub_category_id));
    je_set(o, "seatCategoryId", je_i64(v->seat_category_id));
    return o;
}

static J e_citm_area(const citm_area *v)
{
    J o = je_obj();
    je_set(o, "areaId", je_i64(v->area_id));
    je_set(o, "blockIds", e_citm_ints(&v->block_ids));
    return o;
}
#endif
DEF_E_MAP(e_citm_events, citm_string_event_map, e_citm_event)
DEF_E_SLICE(e_citm_prices, citm_price_slice, e_citm_price)
DEF_E_SLICE(e_citm_areas, citm_area_slice, e_citm_area)

#ifndef BENCH_NO_ENCODE
static J e_citm_seat_category(const citm_seat_category *v)
{
    J o = je_obj();
    je_set(o, "areas", e_citm_areas(&v->areas));
    je_set(o, "seatCategoryId", je_i64(v->seat_category_id));
    return o;
}
#endif
DEF_E_SLICE(e_citm_seat_categories, citm_seat_category_slice, e_citm_seat_category)

#ifndef BENCH_NO_ENCODE
static J e_citm_performance(const citm_performance *v)
{
    J o = je_obj();
    je_set(o, "eventId", je_i64(v->event_id));
    je_set(o, "id", je_i64(v->id));
    je_set(o, "logo", e_opt_str(v->has_logo, &v->logo));
    je_set(o, "name", e_opt_str(v->has_name, &v->name));
    je_set(o, "prices", e_citm_prices(&v->prices));
    je_set(o, "seatCategories", e_citm_seat_categories(&v->seat_categories));
    je_set(o, "seatMapImage", e_opt_str(v->has_seat_map_image, &v->seat_map_image));
    je_set(o, "start", je_i64(v->start));
    je_set(o, "venueCode", e_str(&v->venue_code));
    return o;
}
#endif
DEF_E_SLICE(e_citm_performances, citm_performance_slice, e_citm_performance)

#ifndef BENCH_NO_ENCODE
static J e_citm(const citm_catalog *v)
{
    J o = je_obj();
    je_set(o, "areaNames", e_citm_strmap(&v->area_names));
    je_set(o, "audienceSubCategoryNames", e_citm_strmap(&v->audience_sub_category_names));
    je_set(o, "blockNames", e_citm_strmap(&v->block_names));
    je_set(o, "events", e_citm_events(&v->events));
    je_set(o, "performances", e_citm_performances(&v->performances));
    je_set(o, "seatCategoryNames", e_citm_strmap(&v->seat_category_names));
    je_set(o, "subTopicNames", e_citm_strmap(&v->sub_topic_names));
    je_set(o, "subjectNames", e_citm_strmap(&v->subject_names));
    je_set(o, "topicNames", e_citm_strmap(&v->topic_names));
    je_set(o, "topicSubTopics", e_citm_intsmap(&v->topic_sub_topics));
    je_set(o, "venueNames", e_citm_strmap(&v->venue_names));
    return o;
}
#endif

DEF_CODEC(citm, citm_catalog, v_citm, e_citm)

/* MARK: - the table */

/* in enum order (C++ has no array designators) */
const bench_codec BENCH_CODECS[W_COUNT] = {
    {dec_user, ENC(user)},
    {dec_order, ENC(order)},
    {dec_tree, ENC(tree)},
    {dec_twitter, ENC(twitter)},
    {dec_canada, ENC(canada)},
    {dec_citm, ENC(citm)},
};
