/*
 * build_order.c - builds an order from scratch, with the helpers of <tagc.h>
 * and of the generated header (docs/mapping.md, "Building values"), then sends
 * it: prints it as JSON, and its MessagePack size. Everything the order points
 * to is a literal or lives in the arena, so nothing else has to outlive it.
 */
#include <stdio.h>

#include "shop.tagc.h"

/* The customer's name arrives in a buffer that is reused: the order keeps a copy. */
static int set_customer(shop_order *o, tagc_arena *arena, int id)
{
    char buf[64];
    snprintf(buf, sizeof buf, "customer-%d", id);
    return tagc_str_copy_cstr(arena, &o->customer, buf);
}

static int build(shop_order *o, tagc_arena *arena)
{
    shop_order_init(o);
    o->id = 1001;
    o->status = shop_status_of(SHOP_STATUS_PAID); /* an open enum: any string */
    if (set_customer(o, arena, 7) != 0)
        return TAGC_E_NOMEM;

    shop_item *it = shop_item_slice_append(&o->items, arena);
    if (!it)
        return TAGC_E_NOMEM;
    it->sku = TAGC_STR("A-1");
    it->qty = 2;
    it->cents = 950;
    tagc_str *tag = shop_string_slice_append(&it->tags, arena);
    if (!tag)
        return TAGC_E_NOMEM;
    *tag = TAGC_STR("gift");

    it = shop_item_slice_append(&o->items, arena); /* the first item's pointer is stale now */
    if (!it)
        return TAGC_E_NOMEM;
    it->sku = tagc_str_from_cstr("B-7");
    it->qty = 1;
    it->cents = 1999;
    if (shop_string_slice_alloc(&it->tags, arena, 0) != 0) /* [] rather than null */
        return TAGC_E_NOMEM;

    tagc_str *v = shop_string_string_map_put(&o->attrs, arena, TAGC_STR("channel"));
    if (!v)
        return TAGC_E_NOMEM;
    *v = TAGC_STR("web");
    v = shop_string_string_map_put(&o->attrs, arena, TAGC_STR("channel")); /* the same entry */
    if (!v)
        return TAGC_E_NOMEM;
    *v = TAGC_STR("app");
    v = shop_string_string_map_put(&o->attrs, arena, TAGC_STR("coupon"));
    if (!v)
        return TAGC_E_NOMEM;
    *v = TAGC_STR("SPRING");

    o->has_discount = true; /* *float64: a has/value pair */
    o->discount = 0.1;
    return 0; /* o->note stays nil: omitted */
}

int main(void)
{
    tagc_arena arena;
    tagc_arena_init(&arena);
    shop_order order;
    tagc_buf json, mp;
    tagc_buf_init(&json);
    tagc_buf_init(&mp);
    int status = 1;
    if (build(&order, &arena) != 0)
        fputs("build_order: out of memory\n", stderr);
    else if (shop_order_encode_json(&order, &json, NULL) != 0 ||
             shop_order_encode_msgpack(&order, &mp) != 0)
        fputs("build_order: cannot encode\n", stderr);
    else {
        printf("%.*s\n", (int)json.len, (const char *)json.data);
        printf("msgpack: %zu bytes\n", mp.len);
        status = 0;
    }
    tagc_buf_free(&mp);
    tagc_buf_free(&json);
    tagc_arena_free(&arena);
    return status;
}
