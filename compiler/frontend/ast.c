/*
 * ast.c - the program's memory pool and the few AST helpers the parser needs.
 *
 * Every node, string and source text of a compilation lives in one pool, so a
 * whole program is freed at once, and no pass has to walk the tree (which may
 * be deeply nested) to free it.
 */
#include "ast.h"
#include "fmt.h"
#include "pipeline.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { POOL_CHUNK = 64 * 1024, POOL_BIG_CHUNK = 2 * 1024 * 1024 };

/* A chunk of the pool: allocations are carved from data[] in order. */
typedef struct pool_chunk {
    struct pool_chunk *next;
    size_t used, cap;
    bool solo; /* a big block's own chunk (pool_alloc_raw) */
    _Alignas(max_align_t) unsigned char data[];
} pool_chunk;

struct pool {
    pool_chunk *chunks; /* the newest chunk first */
    pool_chunk *spare;  /* chunks pool_release emptied, for chunk_new_raw */
    strbuf scratch;     /* pool_printf formats here */
    fmt_cache *fmts;    /* and parses its formats once */
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        tagc_out_of_memory();
    }
    return p;
}

struct pool *pool_new(void)
{
    return xcalloc(1, sizeof(struct pool));
}

void pool_free(struct pool *p)
{
    if (!p)
        return;
    for (pool_chunk *lists[2] = {p->chunks, p->spare}, **l = lists; l < lists + 2; l++) {
        pool_chunk *c = *l;
        while (c) {
            pool_chunk *next = c->next;
            free(c);
            c = next;
        }
    }
    sb_free(&p->scratch);
    fmt_cache_free(p->fmts);
    free(p);
}

/* Marks released memory: under AddressSanitizer, a use of a string released
 * is reported (until the pool hands the bytes out again); elsewhere they are
 * overwritten, so such a use shows in the output instead of passing unseen. */
#if defined(__SANITIZE_ADDRESS__)
#define POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_ASAN 1
#endif
#endif
#ifdef POOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

static void poison(void *mem, size_t n)
{
#ifdef POOL_ASAN
    ASAN_POISON_MEMORY_REGION(mem, n);
#else
    (void)mem;
    (void)n;
#endif
}

static void unpoison(void *mem, size_t n)
{
#ifdef POOL_ASAN
    ASAN_UNPOISON_MEMORY_REGION(mem, n);
#else
    (void)mem;
    (void)n;
#endif
}

static pool_chunk *chunk_new(size_t cap)
{
    pool_chunk *c = big_calloc(1, sizeof(pool_chunk) + cap);
    c->cap = cap;
    return c;
}

/* A chunk whose data is not zeroed: pool_alloc zeroes each block it hands out,
 * the strings (most of what the generators allocate) are written whole.
 * Chunks are 2 MB, in huge pages (big_alloc). */
static pool_chunk *chunk_new_raw(size_t cap)
{
    pool_chunk *c = big_alloc(POOL_BIG_CHUNK);
    cap = POOL_BIG_CHUNK - sizeof(pool_chunk);
    c->next = NULL;
    c->used = 0;
    c->cap = cap;
    c->solo = false;
    return c;
}

/* pool_alloc's block, not zeroed unless it has a chunk of its own. */
static void *pool_alloc_raw(struct pool *p, size_t size)
{
    /* the AST's nodes hold pointers and 64-bit integers at most: their alignment is enough */
    const size_t align = _Alignof(int64_t) > _Alignof(void *) ? _Alignof(int64_t) : _Alignof(void *);
    if (size == 0)
        size = 1;
    if (size > SIZE_MAX - align) {
        tagc_out_of_memory();
    }
    size = (size + align - 1) / align * align;
    /* Big blocks (source texts) get a chunk of their own, kept behind the
     * current one so its free space is not wasted. */
    if (size > POOL_CHUNK / 4) {
        pool_chunk *c = chunk_new(size);
        c->used = size;
        c->solo = true;
        if (p->chunks) {
            c->next = p->chunks->next;
            p->chunks->next = c;
        } else {
            p->chunks = c;
        }
        return c->data;
    }
    pool_chunk *c = p->chunks;
    if (!c || c->cap - c->used < size) {
        if (p->spare) { /* one pool_release emptied: its pages are mapped already */
            c = p->spare;
            p->spare = c->next;
            c->used = 0;
        } else {
            c = chunk_new_raw(POOL_CHUNK);
        }
        c->next = p->chunks;
        p->chunks = c;
    }
    void *mem = c->data + c->used;
    c->used += size;
    unpoison(mem, size);
    return mem;
}

pool_mark pool_get_mark(struct pool *p)
{
    return (pool_mark){p->chunks, p->chunks ? p->chunks->used : 0};
}

void pool_release(struct pool *p, pool_mark m)
{
    /* the chunks carved since the mark are the ones before it in the list;
     * big blocks' own chunks among them stay (freed by pool_free) */
    pool_chunk **link = &p->chunks;
    while (*link != m.chunk) {
        pool_chunk *c = *link;
        if (c->solo) {
            link = &c->next;
            continue;
        }
        *link = c->next;
        poison(c->data, c->used);
        c->next = p->spare;
        p->spare = c;
    }
    if (m.chunk) {
        poison(m.chunk->data + m.used, m.chunk->used - m.used);
        m.chunk->used = m.used;
    }
}

void *pool_alloc_uninit(struct pool *p, size_t size)
{
    return pool_alloc_raw(p, size);
}

void *pool_alloc(struct pool *p, size_t size)
{
    void *mem = pool_alloc_raw(p, size);
    if (size <= POOL_CHUNK / 4) /* a big block has a calloc'ed chunk of its own */
        memset(mem, 0, size);
    return mem;
}

char *pool_strndup(struct pool *p, const char *s, size_t n)
{
    char *d = pool_alloc_raw(p, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *pool_strdup(struct pool *p, const char *s)
{
    return pool_strndup(p, s, strlen(s));
}

char *pool_printf_(struct pool *p, const char *fmt, ...)
{
    /* formatted in the pool's scratch buffer (strbuf.c's fast printf), then copied */
    strbuf *sb = &p->scratch;
    if (!sb->data) {
        sb_init(sb);
        p->fmts = fmt_cache_new();
    }
    sb->len = 0;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf_cached(sb, p->fmts, fmt, ap);
    va_end(ap);
    return pool_strndup(p, sb->data, sb->len);
}

char *pool_cat_(struct pool *p, const char *s, ...)
{
    enum { MAX_PARTS = 8 };
    const char *part[MAX_PARTS];
    size_t len[MAX_PARTS];
    size_t n = 0, total = 0;
    va_list ap;
    va_start(ap, s);
    for (const char *a = s; a; a = va_arg(ap, const char *)) {
        if (n == MAX_PARTS) {
            fputs("tagc: internal error: pool_cat of more than 8 strings\n", stderr);
            abort();
        }
        part[n] = a;
        len[n] = strlen(a);
        total += len[n++];
    }
    va_end(ap);
    char *r = pool_alloc_raw(p, total + 1);
    char *d = r;
    for (size_t i = 0; i < n; i++) {
        memcpy(d, part[i], len[i]);
        d += len[i];
    }
    *d = '\0';
    return r;
}

ast_type *ast_type_new(struct pool *p, type_kind kind, src_loc loc)
{
    ast_type *t = pool_alloc_uninit(p, sizeof *t);
    *t = (ast_type){ .kind = kind, .loc = loc }; /* zeroed in line: no memset call */
    return t;
}

const char *type_kind_name(type_kind k)
{
    switch (k) {
    case TK_NAME: return "name";
    case TK_BOOL: return "bool";
    case TK_INT8: return "int8";
    case TK_INT16: return "int16";
    case TK_INT32: return "int32";
    case TK_INT64: return "int64";
    case TK_UINT8: return "uint8";
    case TK_UINT16: return "uint16";
    case TK_UINT32: return "uint32";
    case TK_UINT64: return "uint64";
    case TK_FLOAT32: return "float32";
    case TK_FLOAT64: return "float64";
    case TK_STRING: return "string";
    case TK_TIME: return "time.Time";
    case TK_DURATION: return "time.Duration";
    case TK_RAW: return "json.RawMessage";
    case TK_NUMBER: return "json.Number";
    case TK_ANY: return "interface{}";
    case TK_NAMED: return "named type";
    case TK_SLICE: return "slice";
    case TK_ARRAY: return "array";
    case TK_PTR: return "pointer";
    case TK_MAP: return "map";
    case TK_STRUCT: return "struct";
    case TK_NOWIRE: return "type without a wire form";
    case TK_CODEC: return "type with a C codec";
    }
    return "?";
}

void ast_program_free(ast_program *prog)
{
    if (!prog)
        return;
    pool_free(prog->pool);
    prog->pool = NULL;
    prog->files = NULL;
}
