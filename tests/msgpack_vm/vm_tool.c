/*
 * vm_tool.c - the C side of the differential test against vmihailenco/msgpack
 * v5 (run.py). Reads gen.go's records on stdin, one a line:
 *   V TYPE HEX [-]    Go's MessagePack of a random value: it must decode, and
 *                     re-encode to the same bytes (with "-": Go's own decode of them
 *                     does not re-encode to them either: compared by value only, in
 *                     gen.go's check); prints "T TYPE HEX"
 *   J TYPE HEX [=]    encoding/json's JSON of the same value (hex): decoded as
 *                     JSON, written as MessagePack; prints "U TYPE HEX"; with "=",
 *                     the bytes must be Go's of the V record before (no random map order)
 *   C Ints HEX        vmihailenco's bytes with UseCompactInts(true): decoded and
 *                     written by vmc.tagc's code (--msgpack-compact-ints), the same
 *   M TYPE OK HEX     a mutated document and whether Go's Unmarshal took it
 *                     (1/0): tagc must agree, unless tagc rejects bytes after the
 *                     value, which Go's Unmarshal ignores, a timestamp's
 *                     nanoseconds >= 10^9, which Go normalises, or an integer out of
 *                     its field's range, which Go truncates, or a json.RawMessage
 *                     bin that is not JSON, which Go keeps (counted apart)
 * Mismatches go to stderr; exit 1 if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.tagc.h"
#include "vmc.tagc.h"
#include "vms.tagc.h"

typedef struct vm_type {
    const char *name;
    size_t size;
    int (*decode_mp)(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e);
    int (*decode_json)(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e);
    int (*encode_mp)(const void *v, tagc_buf *out);
} vm_type;

#define VM_TYPE(T, NAME)                                                                  \
    static int dm_##T(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e) \
    {                                                                                     \
        return T##_decode_msgpack(v, s, n, a, e);                                         \
    }                                                                                     \
    static int dj_##T(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e)    \
    {                                                                                     \
        return T##_decode_json(v, s, n, a, e, NULL);                                      \
    }                                                                                     \
    static int em_##T(const void *v, tagc_buf *out) { return T##_encode_msgpack(v, out); }
VM_TYPE(vm_sink, "Sink")
VM_TYPE(vm_omit, "Omit")
VM_TYPE(vm_base, "Base")
VM_TYPE(vm_meta, "Meta")
VM_TYPE(vm_sorted, "Sorted")

static const vm_type types[] = {
    {"Sink", sizeof(vm_sink), dm_vm_sink, dj_vm_sink, em_vm_sink},
    {"Omit", sizeof(vm_omit), dm_vm_omit, dj_vm_omit, em_vm_omit},
    {"Base", sizeof(vm_base), dm_vm_base, dj_vm_base, em_vm_base},
    {"Meta", sizeof(vm_meta), dm_vm_meta, dj_vm_meta, em_vm_meta},
    {"Sorted", sizeof(vm_sorted), dm_vm_sorted, dj_vm_sorted, em_vm_sorted},
};

static const vm_type *find(const char *name)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(types[i].name, name) == 0)
            return &types[i];
    return NULL;
}

/* Reverses the entries of an interface{} object, at every depth. */
static void reverse_any(tagc_any *a)
{
    if (!a)
        return;
    if (a->kind == TAGC_ANY_ARRAY)
        for (size_t i = 0; i < a->u.arr.len; i++)
            reverse_any(a->u.arr.items[i]);
    if (a->kind != TAGC_ANY_OBJECT)
        return;
    for (size_t i = 0, j = a->u.obj.len; i + 1 < j; i++, j--) {
        tagc_str k = a->u.obj.keys[i];
        tagc_any *v = a->u.obj.vals[i];
        a->u.obj.keys[i] = a->u.obj.keys[j - 1];
        a->u.obj.vals[i] = a->u.obj.vals[j - 1];
        a->u.obj.keys[j - 1] = k;
        a->u.obj.vals[j - 1] = v;
    }
    for (size_t i = 0; i < a->u.obj.len; i++)
        reverse_any(a->u.obj.vals[i]);
}

/* --msgpack-sort-keys: Go's sorted bytes of a Sorted, decoded by the sorted
 * build, its entries put in reverse order, written again: Go's bytes. */
static bool sorted_again(const uint8_t *src, size_t n)
{
    vms_sorted v;
    tagc_arena a;
    tagc_buf out;
    tagc_arena_init(&a);
    tagc_buf_init(&out);
    bool same = vms_sorted_decode_msgpack(&v, src, n, &a, NULL) == 0;
    if (same) {
        for (size_t i = 0, j = v.labels.len; i + 1 < j; i++, j--) {
            tagc_str k = v.labels.keys[i], x = v.labels.vals[i];
            v.labels.keys[i] = v.labels.keys[j - 1];
            v.labels.vals[i] = v.labels.vals[j - 1];
            v.labels.keys[j - 1] = k;
            v.labels.vals[j - 1] = x;
        }
        reverse_any(v.any);
        same = vms_sorted_encode_msgpack(&v, &out) == 0 && out.len == n &&
               memcmp(out.data, src, n) == 0;
    }
    tagc_buf_free(&out);
    tagc_arena_free(&a);
    return same;
}

/* --msgpack-compact-ints: vmihailenco's UseCompactInts(true) bytes of an Ints
 * decode and re-encode to themselves. */
static bool compact_again(const uint8_t *src, size_t n)
{
    vmc_ints v;
    tagc_arena a;
    tagc_buf out;
    tagc_arena_init(&a);
    tagc_buf_init(&out);
    bool same = vmc_ints_decode_msgpack(&v, src, n, &a, NULL) == 0 &&
                vmc_ints_encode_msgpack(&v, &out) == 0 && out.len == n &&
                memcmp(out.data, src, n) == 0;
    tagc_buf_free(&out);
    tagc_arena_free(&a);
    return same;
}

static int hexval(int c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* Decodes hex text s in place; returns the byte count. */
static size_t unhex(char *s)
{
    size_t n = strlen(s) / 2;
    for (size_t i = 0; i < n; i++)
        s[i] = (char)(hexval((unsigned char)s[2 * i]) << 4 | hexval((unsigned char)s[2 * i + 1]));
    return n;
}

static void put_hex(const char *tag, const char *type, const uint8_t *p, size_t n)
{
    printf("%s %s ", tag, type);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    putchar('\n');
}

int main(void)
{
    size_t cap = 1 << 20, line_no = 0;
    char *go_bytes = NULL; /* the last V record's bytes */
    size_t go_len = 0, go_cap = 0;
    char *line = malloc(cap);
    size_t values = 0, value_only = 0, compact = 0, jsons = 0, same_json = 0;
    size_t mutated = 0, agree = 0, trailing = 0, nsec = 0, range = 0, notjson = 0, bad = 0;
    if (!line)
        return 2;
    for (;;) {
        size_t len = 0;
        int c;
        while ((c = getchar()) != EOF && c != '\n') {
            if (len + 2 >= cap && (line = realloc(line, cap *= 2)) == NULL)
                return 2;
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0)
            break;
        line[len] = '\0';
        line_no++;
        char kind = line[0];
        char *type = line + 2, *sp = strchr(type, ' ');
        if (!sp)
            continue;
        *sp = '\0';
        char *rest = sp + 1;
        int go_ok = 1;
        if (kind == 'M') {
            go_ok = rest[0] == '1';
            rest += 2;
        }
        char *again = strchr(rest, ' ');
        if (again)
            *again++ = '\0';
        size_t n = unhex(rest);
        bool by_value = again && kind == 'V';
        bool same_as_go = again && kind == 'J';
        if (kind == 'C') {
            compact++;
            if (!compact_again((const uint8_t *)rest, n)) {
                fprintf(stderr, "line %zu: Ints: --msgpack-compact-ints does not give Go's bytes\n",
                        line_no);
                bad++;
            }
            continue;
        }
        const vm_type *t = find(type);
        if (!t) {
            fprintf(stderr, "line %zu: unknown type %s\n", line_no, type);
            bad++;
            continue;
        }
        void *v = calloc(1, t->size);
        tagc_arena a;
        tagc_error err;
        tagc_buf out;
        tagc_arena_init(&a);
        tagc_buf_init(&out);
        int rc = kind == 'J' ? t->decode_json(v, rest, n, &a, &err)
                             : t->decode_mp(v, (const uint8_t *)rest, n, &a, &err);
        if (kind == 'M') {
            mutated++;
            if ((rc == 0) == go_ok) {
                agree++;
            } else if (go_ok && rc == TAGC_E_SYNTAX && strstr(err.message, "after")) {
                trailing++; /* Go's Unmarshal reads one value and ignores the rest */
            } else if (go_ok && rc == TAGC_E_RANGE && strstr(err.message, "nanoseconds")) {
                nsec++; /* by design (docs/msgpack.md): Go's time.Unix normalises them */
            } else if (go_ok && rc == TAGC_E_INVALID && strstr(err.message, "RawMessage")) {
                notjson++; /* by design: Go keeps any bytes in a json.RawMessage */
            } else if (go_ok && rc == TAGC_E_RANGE && strstr(err.message, "out of range")) {
                range++; /* by design: Go truncates an integer too wide for its field */
            } else {
                fprintf(stderr, "line %zu: %s: Go %s, tagc %s (offset %zu, %s: %s)\n", line_no, type,
                        go_ok ? "accepts" : "rejects", rc == 0 ? "accepts" : "rejects", err.offset,
                        rc ? err.path : "", rc ? err.message : "");
                bad++;
            }
        } else if (rc != 0) {
            fprintf(stderr, "line %zu: %s: tagc rejects Go's %s: offset %zu, %s: %s\n", line_no, type,
                    kind == 'J' ? "JSON" : "MessagePack", err.offset, err.path, err.message);
            bad++;
        } else if ((rc = t->encode_mp(v, &out)) != 0) {
            fprintf(stderr, "line %zu: %s: encode: %s\n", line_no, type, tagc_strerror(rc));
            bad++;
        } else if (kind == 'V') {
            values++;
            if (by_value) {
                value_only++;
            } else if (out.len != n || memcmp(out.data, rest, n) != 0) {
                fprintf(stderr, "line %zu: %s: re-encoded bytes differ from Go's\n", line_no, type);
                bad++;
            }
            if (strcmp(type, "Sorted") == 0 && !sorted_again((const uint8_t *)rest, n)) {
                fprintf(stderr, "line %zu: Sorted: --msgpack-sort-keys does not give Go's sorted bytes\n",
                        line_no);
                bad++;
            }
            put_hex("T", type, out.data, out.len);
            /* kept for the J record after it */
            if (n > go_cap && (go_bytes = realloc(go_bytes, go_cap = n)) == NULL)
                return 2;
            memcpy(go_bytes, rest, n);
            go_len = n;
        } else {
            jsons++;
            same_json += same_as_go;
            if (same_as_go && (out.len != go_len || memcmp(out.data, go_bytes, go_len) != 0)) {
                fprintf(stderr, "line %zu: %s: tagc's MessagePack of the JSON differs from Go's\n",
                        line_no, type);
                bad++;
            }
            put_hex("U", type, out.data, out.len);
        }
        tagc_buf_free(&out);
        tagc_arena_free(&a);
        free(v);
    }
    free(line);
    free(go_bytes);
    fprintf(stderr, "vm_tool: %zu values re-encoded (%zu compared by value only), %zu compact, %zu JSON documents encoded "
                    "(%zu compared with Go's bytes), %zu mutated "
                    "(%zu verdicts agree, %zu with bytes after the value, %zu with nanoseconds >= 10^9, "
                    "%zu with integers out of their field's range, %zu json.RawMessage not JSON), "
                    "%zu mismatches\n",
            values, value_only, compact, jsons, same_json, mutated, agree, trailing, nsec, range, notjson, bad);
    return bad ? 1 : 0;
}
