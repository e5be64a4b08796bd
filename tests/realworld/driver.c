/*
 * driver.c - the C side of the real-world corpus (run.py), for the root types
 * of one project, listed by the generated rw_types.c (rw_types.h).
 *
 *   driver TYPE PAYLOAD   decode the JSON payload, encode it as JSON: the bytes on
 *                         stdout ("REJECT" / "ENCODE-ERROR" when it fails)
 *   driver batch          MessagePack, one task a line on stdin, one result a line
 *                         on stdout:
 *     tomp TYPE JSON OUT  the JSON payload decoded, written as MessagePack to OUT
 *     back TYPE MP OUT    vmihailenco's MessagePack decoded; "same" when it
 *                         re-encodes to its own bytes; its JSON written to OUT
 *                         Results: "ok same", "ok differs AT", "ok" (tomp), or
 *                         "reject OFFSET PATH: MESSAGE", "encode-error CODE".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw_types.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int spill(const char *path, const tagc_buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(b->data, 1, b->len, f);
    return fclose(f) == 0 && n == b->len ? 0 : -1;
}

static const rw_type *find(const char *name)
{
    for (size_t i = 0; i < rw_ntypes; i++)
        if (strcmp(rw_types[i].name, name) == 0)
            return &rw_types[i];
    return NULL;
}

/* The JSON round trip of one payload, as Go's json.Marshal(json.Unmarshal(payload)). */
static int json_once(const rw_type *t, const char *path)
{
    size_t len = 0;
    char *src = slurp(path, &len);
    void *v = calloc(1, t->size);
    if (!src || !v)
        return 2;
    tagc_arena arena;
    tagc_error err;
    tagc_buf out;
    tagc_arena_init(&arena);
    tagc_buf_init(&out);
    int rc = t->decode_json(v, src, len, &arena, &err), enc = -1;
    if (rc == 0)
        enc = t->encode_json(v, &out);
    if (rc != 0)
        fputs("REJECT", stdout);
    else if (enc != 0)
        fputs("ENCODE-ERROR", stdout);
    else
        fwrite(out.data, 1, out.len, stdout);
    tagc_buf_free(&out);
    tagc_arena_free(&arena);
    free(v);
    free(src);
    return 0;
}

/* One MessagePack task (see the top of the file); prints its result line. */
static void mp_task(const char *op, const rw_type *t, const char *in, const char *outp)
{
    size_t len = 0;
    char *src = slurp(in, &len);
    void *v = calloc(1, t->size);
    if (!src || !v) {
        printf("io-error %s\n", in);
        free(src);
        free(v);
        return;
    }
    tagc_arena arena;
    tagc_error err;
    tagc_buf out, again;
    tagc_arena_init(&arena);
    tagc_buf_init(&out);
    tagc_buf_init(&again);
    bool tomp = strcmp(op, "tomp") == 0;
    int rc = tomp ? t->decode_json(v, src, len, &arena, &err)
                  : t->decode_mp(v, (const uint8_t *)src, len, &arena, &err);
    if (rc != 0) {
        printf("reject %zu %s: %s\n", err.offset, err.path, err.message);
    } else if ((rc = tomp ? t->encode_mp(v, &out) : t->encode_json(v, &out)) != 0) {
        printf("encode-error %d\n", rc);
    } else if (spill(outp, &out) != 0) {
        printf("io-error %s\n", outp);
    } else if (tomp) {
        puts("ok");
    } else if ((rc = t->encode_mp(v, &again)) != 0) {
        printf("encode-error %d\n", rc);
    } else if (again.len == len && memcmp(again.data, src, len) == 0) {
        puts("ok same");
    } else {
        size_t at = 0;
        while (at < len && at < again.len && (uint8_t)src[at] == again.data[at])
            at++;
        printf("ok differs %zu\n", at);
    }
    fflush(stdout);
    tagc_buf_free(&again);
    tagc_buf_free(&out);
    tagc_arena_free(&arena);
    free(v);
    free(src);
}

int main(int argc, char **argv)
{
    if (argc == 3) {
        const rw_type *t = find(argv[1]);
        return t ? json_once(t, argv[2]) : 2;
    }
    if (argc != 2 || strcmp(argv[1], "batch") != 0)
        return 2;
    char line[4 * 4096], op[16], type[256], in[4096], outp[4096];
    while (fgets(line, sizeof line, stdin)) {
        const rw_type *t;
        if (sscanf(line, "%15s %255s %4095s %4095s", op, type, in, outp) != 4 ||
            !(t = find(type))) {
            printf("bad-task %s", line);
            continue;
        }
        mp_task(op, t, in, outp);
    }
    return 0;
}
