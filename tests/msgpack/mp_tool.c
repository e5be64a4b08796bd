/*
 * mp_tool.c - the generated codecs from the command line, for interop.py:
 *   mp_tool json2mp TYPE   JSON on stdin  -> tagc's MessagePack on stdout
 *   mp_tool mp2json TYPE   MessagePack on stdin -> tagc's JSON on stdout
 *   mp_tool json2json TYPE JSON on stdin -> tagc's JSON on stdout (Go's form)
 * TYPE is a C type name (user_user, sink_sink, ...). Exit status 1 with the
 * error (offset, path, message) on stderr when the input does not decode.
 */
#include <stdio.h>

#include "workloads.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mp_tool json2mp|mp2json|json2json TYPE\n");
        return 2;
    }
    const codec *c = find_codec(argv[2]);
    if (!c) {
        fprintf(stderr, "mp_tool: unknown type %s\n", argv[2]);
        return 2;
    }
    size_t len;
    char *in = read_file("/dev/stdin", &len);
    if (!in)
        return 2;
    void *v = calloc(1, c->size);
    tagc_arena arena;
    tagc_error err;
    tagc_buf out;
    tagc_arena_init(&arena);
    tagc_buf_init(&out);
    int rc;
    bool to_mp = strcmp(argv[1], "json2mp") == 0;
    bool from_json = to_mp || strcmp(argv[1], "json2json") == 0;
    if (from_json)
        rc = c->decode_json(v, in, len, &arena, &err);
    else
        rc = c->decode_mp(v, (const uint8_t *)in, len, &arena, &err, NULL);
    if (rc != 0) {
        fprintf(stderr, "mp_tool: offset %zu, %s: %s\n", err.offset, err.path, err.message);
    } else {
        rc = to_mp ? c->encode_mp(v, &out) : c->encode_json(v, &out);
        if (rc != 0)
            fprintf(stderr, "mp_tool: encode: %s\n", tagc_strerror(rc));
        else
            fwrite(out.data, 1, out.len, stdout);
    }
    tagc_buf_free(&out);
    tagc_arena_free(&arena);
    free(v);
    free(in);
    return rc != 0;
}
