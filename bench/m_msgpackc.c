/*
 * m_msgpackc.c - the msgpack-c contender of the MessagePack rows: hand-written
 * mappings between MessagePack and the SAME C structs tagc generates, for the
 * workloads user, order and tree, the way one writes them with msgpack-c.
 *
 * Encoding: a msgpack_packer whose write callback appends to the caller's
 * tagc_buf (reset, not freed, between operations, as for tagc), then
 * msgpack_pack_map / msgpack_pack_str_with_body for every key and the
 * msgpack_pack_* of each field's type, fields in declared order.
 * time.Time is msgpack_pack_timestamp (the timestamp extension, -1).
 *
 * Decoding: msgpack_unpack into a reused msgpack_zone (cleared, not freed,
 * between operations; its chunk is sized from the largest input seen so that a
 * warm decode does not allocate), then a walk over the msgpack_object tree:
 * each map's keys compared by length and bytes, each value's type checked and
 * converted, strings and slices copied into the same tagc_arena tagc decodes
 * into (the zone is cleared right after, so copying is required). As in
 * tagc's decoder: nil and missing keys leave the zero value, nil is a nil
 * slice and an empty array an empty one (TAGC_EMPTY), unknown keys are
 * ignored, a value of the wrong type is an error.
 */
#include <string.h>

#include <msgpack.h>

#include "bench.h"

const char *bench_msgpackc_version(void)
{
    return msgpack_version();
}

/* MARK: - encoding */

static int buf_write(void *data, const char *p, size_t n)
{
    tagc_buf *b = data;
    if (n) /* an empty str's body may be a NULL pointer */
        tagc_buf_put(b, p, n);
    return b->err;
}

/* A key: a str of a constant text. */
#define KEY(pk, lit) msgpack_pack_str_with_body(pk, lit, sizeof lit - 1)

static void e_str(msgpack_packer *pk, const tagc_str *s)
{
    msgpack_pack_str_with_body(pk, s->ptr, s->len);
}

static void e_time(msgpack_packer *pk, const tagc_time *t)
{
    msgpack_timestamp ts = {tagc_time_unix(t), (uint32_t)t->nsec};
    msgpack_pack_timestamp(pk, &ts);
}

static void e_strings(msgpack_packer *pk, const tagc_str *p, size_t n)
{
    if (p == NULL) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_array(pk, n);
    for (size_t i = 0; i < n; i++)
        e_str(pk, &p[i]);
}

static void e_user(msgpack_packer *pk, const user_user *v)
{
    msgpack_pack_map(pk, 5);
    KEY(pk, "id");
    msgpack_pack_int64(pk, v->id);
    KEY(pk, "name");
    e_str(pk, &v->name);
    KEY(pk, "email");
    e_str(pk, &v->email);
    KEY(pk, "roles");
    e_strings(pk, v->roles.ptr, v->roles.len);
    KEY(pk, "meta");
    msgpack_pack_map(pk, 2);
    KEY(pk, "created_at");
    e_time(pk, &v->metadata.created_at);
    KEY(pk, "updated_at");
    e_time(pk, &v->metadata.updated_at);
}

static void e_bool(msgpack_packer *pk, bool b)
{
    if (b)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

static void e_order(msgpack_packer *pk, const order_order *v)
{
    msgpack_pack_map(pk, 12);
    KEY(pk, "id");
    msgpack_pack_int64(pk, v->id);
    KEY(pk, "status"); /* an open enum: any string, as in Go */
    msgpack_pack_str_with_body(pk, v->status.ptr ? v->status.ptr : "", v->status.len);
    KEY(pk, "customer");
    {
        const order_customer *c = &v->customer;
        msgpack_pack_map(pk, 5);
        KEY(pk, "id");
        msgpack_pack_int64(pk, c->id);
        KEY(pk, "name");
        e_str(pk, &c->name);
        KEY(pk, "email");
        e_str(pk, &c->email);
        KEY(pk, "vip");
        e_bool(pk, c->vip);
        KEY(pk, "address");
        msgpack_pack_map(pk, 5);
        KEY(pk, "street");
        e_str(pk, &c->address.street);
        KEY(pk, "city");
        e_str(pk, &c->address.city);
        KEY(pk, "zip");
        e_str(pk, &c->address.zip);
        KEY(pk, "country");
        e_str(pk, &c->address.country);
        KEY(pk, "geo");
        msgpack_pack_map(pk, 2);
        KEY(pk, "lat");
        msgpack_pack_double(pk, c->address.geo.lat);
        KEY(pk, "lon");
        msgpack_pack_double(pk, c->address.geo.lon);
    }
    KEY(pk, "items");
    if (v->items.ptr == NULL) {
        msgpack_pack_nil(pk);
    } else {
        msgpack_pack_array(pk, v->items.len);
        for (size_t i = 0; i < v->items.len; i++) {
            const order_item *it = &v->items.ptr[i];
            msgpack_pack_map(pk, 7);
            KEY(pk, "sku");
            e_str(pk, &it->sku);
            KEY(pk, "name");
            e_str(pk, &it->name);
            KEY(pk, "qty");
            msgpack_pack_int32(pk, it->qty);
            KEY(pk, "price");
            msgpack_pack_double(pk, it->price);
            KEY(pk, "weight_kg");
            msgpack_pack_double(pk, it->weight_kg);
            KEY(pk, "tags");
            e_strings(pk, it->tags.ptr, it->tags.len);
            KEY(pk, "gift");
            e_bool(pk, it->gift);
        }
    }
    KEY(pk, "total");
    msgpack_pack_double(pk, v->total);
    KEY(pk, "currency");
    e_str(pk, &v->currency);
    KEY(pk, "discount");
    if (v->has_discount)
        msgpack_pack_double(pk, v->discount);
    else
        msgpack_pack_nil(pk);
    KEY(pk, "notes");
    e_str(pk, &v->notes);
    KEY(pk, "created_at");
    msgpack_pack_int64(pk, v->created_at);
    KEY(pk, "updated_at");
    msgpack_pack_int64(pk, v->updated_at);
    KEY(pk, "risk_score");
    msgpack_pack_double(pk, v->risk_score);
    KEY(pk, "attempts");
    msgpack_pack_int32(pk, v->attempts);
}

static void e_node(msgpack_packer *pk, const tree_node *v)
{
    msgpack_pack_map(pk, 3);
    KEY(pk, "id");
    msgpack_pack_int64(pk, v->id);
    KEY(pk, "val");
    msgpack_pack_int64(pk, v->val);
    KEY(pk, "children");
    if (v->children.ptr == NULL) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_array(pk, v->children.len);
    for (size_t i = 0; i < v->children.len; i++)
        e_node(pk, &v->children.ptr[i]);
}

#define DEF_ENC(name, T, fn)                                                                       \
    static int name(const void *value, tagc_buf *out)                                              \
    {                                                                                              \
        msgpack_packer pk;                                                                         \
        msgpack_packer_init(&pk, out, buf_write);                                                  \
        fn(&pk, (const T *)value);                                                                 \
        return out->err ? -1 : 0;                                                                  \
    }
DEF_ENC(enc_user, user_user, e_user)
DEF_ENC(enc_order, order_order, e_order)
DEF_ENC(enc_tree, tree_node, e_node)

/* MARK: - decoding */

typedef struct D {
    tagc_arena *a;
    int bad; /* set on the first type error or allocation failure */
} D;

static bool key_is(const msgpack_object *k, const char *s, size_t n)
{
    return k->via.str.size == n && memcmp(k->via.str.ptr, s, n) == 0;
}
#define IS(k, lit) key_is(k, lit, sizeof lit - 1)

/* Each v_ reads x into *out; nil leaves *out alone, a wrong type sets d->bad. */
static void v_i64(D *d, const msgpack_object *x, int64_t *out)
{
    if (x->type == MSGPACK_OBJECT_POSITIVE_INTEGER && x->via.u64 <= INT64_MAX)
        *out = (int64_t)x->via.u64;
    else if (x->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        *out = x->via.i64;
    else if (x->type != MSGPACK_OBJECT_NIL)
        d->bad = 1;
}

static void v_i32(D *d, const msgpack_object *x, int32_t *out)
{
    int64_t v = 0;
    if (x->type == MSGPACK_OBJECT_NIL)
        return;
    v_i64(d, x, &v);
    if (v < INT32_MIN || v > INT32_MAX)
        d->bad = 1;
    else
        *out = (int32_t)v;
}

static void v_f64(D *d, const msgpack_object *x, double *out)
{
    switch (x->type) {
    case MSGPACK_OBJECT_FLOAT64:
    case MSGPACK_OBJECT_FLOAT32:
        *out = x->via.f64;
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        *out = (double)x->via.u64;
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        *out = (double)x->via.i64;
        break;
    case MSGPACK_OBJECT_NIL:
        break;
    default:
        d->bad = 1;
    }
}

static void v_bool(D *d, const msgpack_object *x, bool *out)
{
    if (x->type == MSGPACK_OBJECT_BOOLEAN)
        *out = x->via.boolean;
    else if (x->type != MSGPACK_OBJECT_NIL)
        d->bad = 1;
}

static void v_str(D *d, const msgpack_object *x, tagc_str *out)
{
    if (x->type == MSGPACK_OBJECT_NIL)
        return;
    if (x->type != MSGPACK_OBJECT_STR) {
        d->bad = 1;
        return;
    }
    size_t n = x->via.str.size;
    char *p = tagc_arena_alloc(d->a, n + 1);
    if (p == NULL) {
        d->bad = 1;
        return;
    }
    memcpy(p, x->via.str.ptr, n);
    p[n] = 0;
    out->ptr = p;
    out->len = n;
}

static void v_time(D *d, const msgpack_object *x, tagc_time *out)
{
    msgpack_timestamp ts;
    if (x->type == MSGPACK_OBJECT_NIL)
        return;
    if (!msgpack_object_to_timestamp(x, &ts) || ts.tv_nsec >= 1000000000u) {
        d->bad = 1;
        return;
    }
    *out = tagc_time_from_unix(ts.tv_sec, (int32_t)ts.tv_nsec, 0);
}

/* An array of n elements of size sz in the arena, zeroed; NULL and d->bad on failure.
 * Empty: TAGC_EMPTY (an empty array is an empty slice, not nil). */
static void *v_array(D *d, const msgpack_object *x, size_t sz, size_t *n)
{
    if (x->type != MSGPACK_OBJECT_ARRAY) {
        d->bad = 1;
        return NULL;
    }
    *n = x->via.array.size;
    if (*n == 0)
        return TAGC_EMPTY;
    void *p = tagc_arena_alloc(d->a, *n * sz);
    if (p == NULL)
        d->bad = 1;
    else
        memset(p, 0, *n * sz);
    return p;
}

static void v_strings(D *d, const msgpack_object *x, tagc_str **ptr, size_t *len)
{
    size_t n;
    tagc_str *p;
    if (x->type == MSGPACK_OBJECT_NIL) {
        *ptr = NULL;
        *len = 0;
        return;
    }
    if ((p = v_array(d, x, sizeof *p, &n)) == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        v_str(d, &x->via.array.ptr[i], &p[i]);
    *ptr = p;
    *len = n;
}

/* The pairs of a struct's map; false (and d->bad unless nil) when x is not a map. */
static bool v_map(D *d, const msgpack_object *x)
{
    if (x->type == MSGPACK_OBJECT_MAP)
        return true;
    if (x->type != MSGPACK_OBJECT_NIL)
        d->bad = 1;
    return false;
}

/* Key k of pair i of map x, and its value; false (and d->bad) when the key is not a str. */
static bool pair(D *d, const msgpack_object *x, uint32_t i, const msgpack_object **k,
                 const msgpack_object **val)
{
    *k = &x->via.map.ptr[i].key;
    *val = &x->via.map.ptr[i].val;
    if ((*k)->type == MSGPACK_OBJECT_STR)
        return true;
    d->bad = 1;
    return false;
}

static void v_user_meta(D *d, const msgpack_object *x, user_user_metadata *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "created_at"))
            v_time(d, val, &v->created_at);
        else if (IS(k, "updated_at"))
            v_time(d, val, &v->updated_at);
    }
}

static void v_user(D *d, const msgpack_object *x, user_user *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "id"))
            v_i64(d, val, &v->id);
        else if (IS(k, "name"))
            v_str(d, val, &v->name);
        else if (IS(k, "email"))
            v_str(d, val, &v->email);
        else if (IS(k, "roles"))
            v_strings(d, val, &v->roles.ptr, &v->roles.len);
        else if (IS(k, "meta"))
            v_user_meta(d, val, &v->metadata);
    }
}

static void v_geo(D *d, const msgpack_object *x, order_geo *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "lat"))
            v_f64(d, val, &v->lat);
        else if (IS(k, "lon"))
            v_f64(d, val, &v->lon);
    }
}

static void v_address(D *d, const msgpack_object *x, order_address *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "street"))
            v_str(d, val, &v->street);
        else if (IS(k, "city"))
            v_str(d, val, &v->city);
        else if (IS(k, "zip"))
            v_str(d, val, &v->zip);
        else if (IS(k, "country"))
            v_str(d, val, &v->country);
        else if (IS(k, "geo"))
            v_geo(d, val, &v->geo);
    }
}

static void v_customer(D *d, const msgpack_object *x, order_customer *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "id"))
            v_i64(d, val, &v->id);
        else if (IS(k, "name"))
            v_str(d, val, &v->name);
        else if (IS(k, "email"))
            v_str(d, val, &v->email);
        else if (IS(k, "vip"))
            v_bool(d, val, &v->vip);
        else if (IS(k, "address"))
            v_address(d, val, &v->address);
    }
}

static void v_item(D *d, const msgpack_object *x, order_item *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "sku"))
            v_str(d, val, &v->sku);
        else if (IS(k, "name"))
            v_str(d, val, &v->name);
        else if (IS(k, "qty"))
            v_i32(d, val, &v->qty);
        else if (IS(k, "price"))
            v_f64(d, val, &v->price);
        else if (IS(k, "weight_kg"))
            v_f64(d, val, &v->weight_kg);
        else if (IS(k, "tags"))
            v_strings(d, val, &v->tags.ptr, &v->tags.len);
        else if (IS(k, "gift"))
            v_bool(d, val, &v->gift);
    }
}

static void v_items(D *d, const msgpack_object *x, order_item_slice *v)
{
    size_t n;
    order_item *p;
    if (x->type == MSGPACK_OBJECT_NIL) {
        v->ptr = NULL;
        v->len = 0;
        return;
    }
    if ((p = v_array(d, x, sizeof *p, &n)) == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        v_item(d, &x->via.array.ptr[i], &p[i]);
    v->ptr = p;
    v->len = n;
}

static void v_order(D *d, const msgpack_object *x, order_order *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "id"))
            v_i64(d, val, &v->id);
        else if (IS(k, "status"))
            v_str(d, val, &v->status); /* an open enum: any string */
        else if (IS(k, "customer"))
            v_customer(d, val, &v->customer);
        else if (IS(k, "items"))
            v_items(d, val, &v->items);
        else if (IS(k, "total"))
            v_f64(d, val, &v->total);
        else if (IS(k, "currency"))
            v_str(d, val, &v->currency);
        else if (IS(k, "discount")) {
            if (val->type == MSGPACK_OBJECT_NIL) {
                v->has_discount = false;
                v->discount = 0;
            } else {
                v->has_discount = true;
                v_f64(d, val, &v->discount);
            }
        } else if (IS(k, "notes"))
            v_str(d, val, &v->notes);
        else if (IS(k, "created_at"))
            v_i64(d, val, &v->created_at);
        else if (IS(k, "updated_at"))
            v_i64(d, val, &v->updated_at);
        else if (IS(k, "risk_score"))
            v_f64(d, val, &v->risk_score);
        else if (IS(k, "attempts"))
            v_i32(d, val, &v->attempts);
    }
}

static void v_node(D *d, const msgpack_object *x, tree_node *v);

static void v_nodes(D *d, const msgpack_object *x, tree_node_slice *v)
{
    size_t n;
    tree_node *p;
    if (x->type == MSGPACK_OBJECT_NIL) {
        v->ptr = NULL;
        v->len = 0;
        return;
    }
    if ((p = v_array(d, x, sizeof *p, &n)) == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        v_node(d, &x->via.array.ptr[i], &p[i]);
    v->ptr = p;
    v->len = n;
}

static void v_node(D *d, const msgpack_object *x, tree_node *v)
{
    if (!v_map(d, x))
        return;
    for (uint32_t i = 0; i < x->via.map.size; i++) {
        const msgpack_object *k, *val;
        if (!pair(d, x, i, &k, &val))
            continue;
        if (IS(k, "id"))
            v_i64(d, val, &v->id);
        else if (IS(k, "val"))
            v_i64(d, val, &v->val);
        else if (IS(k, "children"))
            v_nodes(d, val, &v->children);
    }
}

/* The reused zone: its first chunk is kept by msgpack_zone_clear, so it is
 * made large enough for the largest input seen (the objects of a document take
 * a few times its size); a larger input re-makes it. */
static msgpack_zone zone;
static size_t zone_chunk;

static msgpack_zone *zone_for(size_t len)
{
    size_t want = len * 8 + 4096;
    if (want > zone_chunk) {
        if (zone_chunk)
            msgpack_zone_destroy(&zone);
        if (!msgpack_zone_init(&zone, want)) {
            zone_chunk = 0;
            return NULL;
        }
        zone_chunk = want;
    } else {
        msgpack_zone_clear(&zone);
    }
    return &zone;
}

#define DEF_DEC(name, T, fn)                                                                       \
    static int name(const char *src, size_t len, void *value, tagc_arena *a)                       \
    {                                                                                              \
        msgpack_zone *z = zone_for(len);                                                           \
        msgpack_object obj;                                                                        \
        size_t off = 0;                                                                            \
        D d = {a, 0};                                                                              \
        memset(value, 0, sizeof(T));                                                               \
        if (z == NULL || msgpack_unpack(src, len, &off, z, &obj) != MSGPACK_UNPACK_SUCCESS)        \
            return -1;                                                                             \
        fn(&d, &obj, (T *)value);                                                                  \
        return d.bad ? -1 : 0;                                                                     \
    }
DEF_DEC(dec_user, user_user, v_user)
DEF_DEC(dec_order, order_order, v_order)
DEF_DEC(dec_tree, tree_node, v_node)

const bench_codec bench_msgpackc_codecs[W_COUNT] = {
    [W_USER] = {dec_user, enc_user},
    [W_ORDER] = {dec_order, enc_order},
    [W_TREE] = {dec_tree, enc_tree},
};
