/*
 * demo.c - what using tagc looks like: decode a document into a C struct,
 * use and change it, encode it back, and see the error for a bad document.
 *
 *   demo user.json order.json
 */
#include <stdio.h>
#include <stdlib.h>

#include "order.tagc.h"
#include "user.tagc.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: demo user.json order.json\n");
        return 2;
    }
    tagc_arena arena;
    tagc_buf out;
    tagc_error err;
    size_t len;
    tagc_arena_init(&arena);
    tagc_buf_init(&out);

    /* A user: decode, read the fields, change one, encode. */
    char *src = read_file(argv[1], &len);
    user_user u;
    if (user_user_decode_json(&u, src, len, &arena, &err, NULL) != 0) {
        fprintf(stderr, "%s:%u:%u: error: %s: %s\n", argv[1], err.line, err.column, err.path, err.message);
        return 1;
    }
    printf("user %lld: %s <%s>, %zu roles, first \"%s\"\n", (long long)u.id, u.name.ptr, u.email.ptr,
           u.roles.len, u.roles.len ? u.roles.ptr[0].ptr : "");
    u.name = (tagc_str){(char *)"Alice <admin> & co", 18};
    user_user_encode_json(&u, &out, NULL);
    printf("re-encoded (Go's escaping): %.*s\n", (int)out.len, (const char *)out.data);
    free(src);

    /* An order: nested structs, a slice of items, a nullable discount. */
    src = read_file(argv[2], &len);
    order_order o;
    if (order_order_decode_json(&o, src, len, &arena, &err, NULL) != 0) {
        fprintf(stderr, "%s:%u:%u: error: %s: %s\n", argv[2], err.line, err.column, err.path, err.message);
        return 1;
    }
    double sum = 0;
    for (size_t i = 0; i < o.items.len; i++)
        sum += o.items.ptr[i].price * o.items.ptr[i].qty;
    printf("order %lld for %s in %s: %zu items, total %.2f (recomputed %.2f), discount %s\n",
           (long long)o.id, o.customer.name.ptr, o.customer.address.city.ptr, o.items.len, o.total, sum,
           o.has_discount ? "set" : "null");
    tagc_buf_reset(&out);
    tagc_json_opts pretty = {.indent = "  "};
    order_order_encode_json(&o, &out, &pretty);
    printf("pretty-printed, first lines:\n%.*s...\n", 120, (const char *)out.data);
    free(src);

    /* A bad document: the error says where and which value. */
    const char *bad = "{\"id\": 7, \"name\": \"Bob\",\n \"roles\": [\"admin\", 42]}";
    if (user_user_decode_json(&u, bad, strlen(bad), &arena, &err, NULL) != 0)
        printf("bad document -> <input>:%u:%u: error: %s: %s\n", err.line, err.column, err.path, err.message);

    tagc_buf_free(&out);
    tagc_arena_free(&arena);
    return 0;
}
