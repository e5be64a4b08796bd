/*
 * demo.c - what using tagc looks like: decode a document into a C struct,
 * encode it back byte for byte as Go would, and see the error for a bad one.
 *
 *   demo user.json user.go.json order.json bad_user.json
 *
 * user.go.json is what Go's json.Marshal writes for user.json decoded into the
 * same declarations (schemas/user.tagc), made once by
 *   sh tests/roundtrip/go_check/run.sh schemas/user.tagc User $PWD/examples/demo/user.json OUT
 * and kept in the repository (tests/roundtrip checks it against Go again).
 * Exit status 0 only if the re-encoding is identical to Go's and the bad
 * document is rejected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", path);
        exit(2);
    }
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* The error as a compiler prints it, then the line it points at and a caret. */
static void print_error(const char *path, const char *src, const tagc_error *err)
{
    printf("%s:%u:%u: error: %s: %s\n", path, (unsigned)err->line, (unsigned)err->column,
           err->path, err->message);
    const char *line = src;
    for (uint32_t l = 1; l < err->line && strchr(line, '\n'); l++)
        line = strchr(line, '\n') + 1;
    int width = (int)strcspn(line, "\n");
    printf("%5u | %.*s\n      | %*s^\n", (unsigned)err->line, width, line, (int)err->column - 1, "");
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: demo user.json user.go.json order.json bad_user.json\n");
        return 2;
    }
    const char *user_path = argv[1], *go_path = argv[2], *order_path = argv[3], *bad_path = argv[4];
    int status = 0;
    tagc_arena arena;
    tagc_buf out;
    tagc_error err;
    size_t len;
    tagc_arena_init(&arena);
    tagc_buf_init(&out);

    /* A user: decode into the generated struct, read its fields. */
    char *src = read_file(user_path, &len);
    printf("-- decode %s (indented, \\u escapes) into a user_user:\n%s", user_path, src);
    user_user u;
    if (user_user_decode_json(&u, src, len, &arena, &err, NULL) != 0) {
        print_error(user_path, src, &err);
        return 1;
    }
    printf("u.id = %lld, u.name = \"%s\", u.email = \"%s\", u.roles.len = %zu\n", (long long)u.id,
           u.name.ptr, u.email.ptr, u.roles.len);
    free(src);

    /* Encode it again and compare with what Go wrote for the same document. */
    printf("\n-- user_user_encode_json(&u, ...): Go's escaping (<, >, &, U+2028), Go's time format:\n");
    user_user_encode_json(&u, &out, NULL);
    printf("%.*s\n", (int)out.len, (const char *)out.data);
    size_t go_len;
    char *go = read_file(go_path, &go_len);
    if (go_len == out.len && memcmp(go, out.data, go_len) == 0) {
        printf("byte for byte what Go's json.Marshal wrote (%s, %zu bytes): identical\n", go_path, go_len);
    } else {
        printf("DIFFERENT from Go's json.Marshal output in %s\n", go_path);
        status = 1;
    }
    free(go);

    /* An order: nested structs, a slice of items, a nullable discount. */
    src = read_file(order_path, &len);
    printf("\n-- decode %s: nested structs, a slice, a nullable field\n", order_path);
    order_order o;
    if (order_order_decode_json(&o, src, len, &arena, &err, NULL) != 0) {
        print_error(order_path, src, &err);
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
    printf("indented as json.MarshalIndent does, the first lines:\n%.*s...\n", 120,
           (const char *)out.data);
    free(src);

    /* A bad document: the error says where (line:column) and which value (its path). */
    src = read_file(bad_path, &len);
    printf("\n-- decode %s, where a role is a number:\n%s", bad_path, src);
    if (user_user_decode_json(&u, src, len, &arena, &err, NULL) != 0) {
        print_error(bad_path, src, &err);
    } else {
        printf("accepted: it should not have been\n");
        status = 1;
    }
    free(src);

    tagc_buf_free(&out);
    tagc_arena_free(&arena);
    return status;
}
