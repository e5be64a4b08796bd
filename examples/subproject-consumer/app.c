/*
 * app.c - decodes an order (JSON, from the file named on the command line or
 * standard input), prints a line about it, then encodes it back as Go would.
 */
#include <stdio.h>
#include <stdlib.h>

#include "shop.tagc.h"

static char *read_all(FILE *fp, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap)
            break;
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            return NULL;
        }
        buf = more;
        cap *= 2;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!fp) {
        perror(argv[1]);
        return 2;
    }
    size_t len = 0;
    char *src = read_all(fp, &len);
    if (fp != stdin)
        fclose(fp);
    if (!src) {
        fputs("app: out of memory\n", stderr);
        return 2;
    }

    tagc_arena arena;
    tagc_error err;
    shop_order order;
    int status = 0;
    tagc_arena_init(&arena);
    if (shop_order_decode_json(&order, src, len, &arena, &err, NULL) != 0) {
        fprintf(stderr, "app: %u:%u: %s: %s\n", err.line, err.column, err.path, err.message);
        status = 1;
    } else {
        int64_t total = 0;
        for (size_t i = 0; i < order.items.len; i++)
            total += order.items.ptr[i].qty * order.items.ptr[i].price.amount;
        printf("order %lld: %zu items, %lld cents\n", (long long)order.id, order.items.len,
               (long long)total);
        tagc_buf out;
        tagc_buf_init(&out);
        if (shop_order_encode_json(&order, &out, NULL) == 0) {
            printf("%.*s\n", (int)out.len, (const char *)out.data);
        } else {
            fputs("app: cannot encode\n", stderr);
            status = 1;
        }
        tagc_buf_free(&out);
    }
    tagc_arena_free(&arena);
    free(src);
    return status;
}
