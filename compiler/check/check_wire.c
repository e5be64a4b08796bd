/*
 * check_wire.c - the keys of every struct on the wire, by encoding/json's
 * typeFields (Go 1.19), run once for JSON names and once for MessagePack
 * names:
 *   - breadth first: the fields of the struct, then of the structs embedded
 *     without a name tag, one level deeper each round; a struct type is
 *     explored once, and one reached twice at the same depth has its fields
 *     counted twice (so that they cancel, as in Go);
 *   - for each name the shallowest field wins, then a tagged one; a tie is
 *     an error in tagc (Go would silently drop both fields);
 *   - the survivors in index-sequence order: declared order, promoted fields
 *     at the position of the field that embeds them.
 * MessagePack: with no msgpack tag, the json tag stands in for it entirely
 * (name, "-" and options), as vmihailenco/msgpack's SetCustomStructTag("json")
 * does, and the keys follow vmihailenco/msgpack v5's getFields instead (see
 * vm_fields below): depth first, an embedded struct inlined even when its tag
 * names it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef enum codec { C_JSON, C_MSGPACK } codec;

typedef struct cand {
    ast_field **path;
    int *idx;
    size_t len;
    const char *name;
    bool tagged, omit, quoted;
    codec codec;
} cand;

typedef struct cands {
    cand *v;
    size_t n, cap;
} cands;

/* A struct to explore at the next depth. */
typedef struct entry {
    const ast_type *st;
    const void *ident; /* the declaration (or the root struct type) */
    ast_field **path, **dup_path;
    int *idx, *dup_idx;
    size_t len;
    int count;
} entry;

typedef struct entries {
    entry *v;
    size_t n, cap;
} entries;

#define GROW(arr)                                                              \
    do {                                                                       \
        if ((arr)->n == (arr)->cap) {                                          \
            (arr)->cap = (arr)->cap ? 2 * (arr)->cap : 16;                     \
            (arr)->v = realloc((arr)->v, (arr)->cap * sizeof *(arr)->v);       \
            if (!(arr)->v)                                                     \
                tagc_out_of_memory();                                          \
        }                                                                      \
    } while (0)

static void extend(struct pool *p, ast_field **path, int *idx, size_t len, ast_field *f, int i,
                   ast_field ***out_path, int **out_idx)
{
    *out_path = pool_alloc_uninit(p, (len + 1) * sizeof **out_path); /* written whole */
    *out_idx = pool_alloc_uninit(p, (len + 1) * sizeof **out_idx);
    if (len) {
        memcpy(*out_path, path, len * sizeof *path);
        memcpy(*out_idx, idx, len * sizeof *idx);
    }
    (*out_path)[len] = f;
    (*out_idx)[len] = i;
}

/* The field's name, skip and options for the codec. */
static bool codec_tag(const ast_field *f, codec c, const char **name, bool *omit, bool *quoted)
{
    const tag_info *t = &f->tags;
    *quoted = false;
    if (c == C_MSGPACK && t->has_msgpack) {
        *name = t->msgpack_name;
        *omit = t->msgpack_omitempty;
        return !t->msgpack_skip;
    }
    if (t->json_unknown && c == C_JSON)
        return false; /* the collector of unknown members: no key of its own (in MessagePack,
                       * an ordinary field: vmihailenco knows no embed) */
    *name = t->json_name;
    *omit = t->json_omitempty;
    if (c == C_JSON)
        *quoted = t->json_string && type_is_quotable(f->type);
    return !t->json_skip;
}

static entry *find_entry(entries *es, const void *ident)
{
    for (size_t i = 0; i < es->n; i++)
        if (es->v[i].ident == ident)
            return &es->v[i];
    return NULL;
}

static bool seen(const void **visited, size_t n, const void *ident)
{
    for (size_t i = 0; i < n; i++)
        if (visited[i] == ident)
            return true;
    return false;
}

static void add_cand(struct pool *p, cands *out, const entry *e, bool dup, ast_field *f, int i,
                     const char *name, bool omit, bool quoted, codec c)
{
    GROW(out);
    cand *k = &out->v[out->n++];
    extend(p, dup ? e->dup_path : e->path, dup ? e->dup_idx : e->idx, e->len, f, i, &k->path,
           &k->idx);
    k->len = e->len + 1;
    k->name = name ? name : f->name;
    k->tagged = name != NULL;
    k->omit = omit;
    k->quoted = quoted;
    k->codec = c;
}

static void explore(checker *ck, const entry *e, entries *next, cands *out, codec c)
{
    int i = 0;
    for (ast_field *f = e->st->fields; f; f = f->next, i++) {
        const ast_type *ft = f->type;
        if (ft && ft->kind == TK_PTR) /* Go: an unnamed pointer is looked through */
            ft = ft->elem;
        const ast_type *u = type_underlying(ft);
        bool is_struct = u && u->kind == TK_STRUCT;
        if (!f->exported && !(f->embedded && is_struct))
            continue;
        const char *name;
        bool omit, quoted;
        if (!codec_tag(f, c, &name, &omit, &quoted))
            continue;
        /* promoted: an embedded struct without a name, or Go 1.27's `json:",embed"` */
        bool inlined = f->embedded ? !name : c == C_JSON && f->tags.json_embed;
        if (!inlined || !is_struct) {
            add_cand(ck->pool, out, e, false, f, i, name, omit, quoted, c);
            if (e->count > 1) /* a second copy, so that the two cancel */
                add_cand(ck->pool, out, e, true, f, i, name, omit, quoted, c);
            continue;
        }
        const void *ident = ft->decl ? (const void *)ft->decl : u; /* embed takes `struct{...}` too */
        entry *n = find_entry(next, ident);
        if (n) {
            if (++n->count == 2)
                extend(ck->pool, e->path, e->idx, e->len, f, i, &n->dup_path, &n->dup_idx);
            continue;
        }
        GROW(next);
        n = &next->v[next->n++];
        memset(n, 0, sizeof *n);
        n->st = u;
        n->ident = ident;
        n->count = 1;
        extend(ck->pool, e->path, e->idx, e->len, f, i, &n->path, &n->idx);
        n->len = e->len + 1;
    }
}

static void collect(checker *ck, const ast_type *st, const void *ident, cands *out, codec c)
{
    entries cur = {0}, next = {0};
    const void **visited = NULL;
    size_t nvisited = 0;
    GROW(&next);
    next.v[next.n++] = (entry){st, ident, NULL, NULL, NULL, NULL, 0, 1};
    while (next.n) {
        entries t = cur;
        cur = next;
        next = t;
        next.n = 0;
        for (size_t i = 0; i < cur.n; i++) {
            if (seen(visited, nvisited, cur.v[i].ident))
                continue;
            visited = realloc(visited, (nvisited + 1) * sizeof *visited);
            if (!visited)
                tagc_out_of_memory();
            visited[nvisited++] = cur.v[i].ident;
            explore(ck, &cur.v[i], &next, out, c);
        }
    }
    free(cur.v);
    free(next.v);
    free(visited);
}

/* MARK: - Dominance */

static int cmp_idx(const cand *a, const cand *b)
{
    for (size_t i = 0; i < a->len && i < b->len; i++)
        if (a->idx[i] != b->idx[i])
            return a->idx[i] < b->idx[i] ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int cmp_name_depth(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    if (a->tagged != b->tagged)
        return a->tagged ? -1 : 1;
    return cmp_idx(a, b);
}

static int cmp_index(const cand *a, const cand *b)
{
    int c = cmp_idx(a, b);
    return c ? c : (int)a->codec - (int)b->codec;
}

/* Sorts v[0..n) by cmp_index, stably, using tmp[0..n). A merge sort that
 * skips merging runs already in order: the lists are mostly in order (the
 * struct's fields, then the promoted ones), so this is close to one pass. */
static void sort_by_index(cand *v, cand *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t mid = n / 2;
    sort_by_index(v, tmp, mid);
    sort_by_index(v + mid, tmp, n - mid);
    if (cmp_index(&v[mid - 1], &v[mid]) <= 0)
        return;
    memcpy(tmp, v, n * sizeof *v);
    size_t a = 0, b = mid, o = 0;
    while (a < mid && b < n)
        v[o++] = cmp_index(&tmp[b], &tmp[a]) < 0 ? tmp[b++] : tmp[a++];
    while (a < mid)
        v[o++] = tmp[a++];
    while (b < n)
        v[o++] = tmp[b++];
}

static const char *path_text(checker *ck, const cand *k)
{
    char *s = pool_strdup(ck->pool, k->path[0]->name);
    for (size_t i = 1; i < k->len; i++)
        s = pool_printf(ck->pool, "%s.%s", s, k->path[i]->name);
    return s;
}

/* Reports a tie, unless it lies inside one embedded struct (reported there). */
static void report_tie(checker *ck, const cand *g, size_t tied, codec c)
{
    const cand *a = &g[0], *b = NULL;
    for (size_t j = 1; j < tied && !b; j++)
        if (a->len == 1 || g[j].path[0] != a->path[0])
            b = &g[j];
    if (!b)
        return;
    const ast_field *fa = a->path[a->len - 1], *fb = b->path[b->len - 1];
    if (a->len == 1 && strcmp(fa->name, fb->name) == 0)
        return; /* a duplicate field, reported as such */
    if (c == C_MSGPACK && !fa->tags.has_msgpack && !fb->tags.has_msgpack)
        return; /* the names are the JSON ones: reported for JSON */
    if (!a->tagged)
        return; /* names no tag asked for: Go drops them all, silently, and so does tagc */
    check_error(ck, b->path[0]->loc,
                "duplicate %s name \"%s\" of field \"%s\" (field \"%s\" at %s has the same name "
                "and depth)%s",
                c == C_JSON ? "JSON" : "MessagePack", a->name, path_text(ck, b), path_text(ck, a),
                check_where(ck, a->path[a->len - 1]->loc),
                c == C_JSON ? ": Go's encoding/json drops both from the wire" : "");
}

/* A tie of a name: g[0..n) sorted by cmp_name_depth, reported once all are found. */
typedef struct tie {
    cand *g;
    size_t n;
} tie;

static int cmp_tie(const void *pa, const void *pb)
{
    return strcmp(((const tie *)pa)->g[0].name, ((const tie *)pb)->g[0].name);
}

static size_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a, 64-bit on every target */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

/*
 * Keeps the dominant field of each name, in place; returns how many. The
 * candidates are grouped by name with a hash table, in one pass: most names
 * have one candidate, and only groups of two or more need sorting (by
 * cmp_name_depth, as Go does). Ties are reported in name order, as when the
 * whole list was sorted by name. The survivors keep no particular order (build
 * sorts them by index, a total order).
 */
static size_t dominant(checker *ck, cand *v, size_t n, codec c)
{
    if (n < 2)
        return n;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    size_t *slots = malloc(cap * sizeof *slots);  /* 1 + the first candidate of a name, 0 if free */
    size_t *next = malloc(n * sizeof *next);      /* 1 + the next candidate of the same name */
    size_t *last = malloc(n * sizeof *last);      /* of a first candidate: its group's last */
    size_t *size = malloc(n * sizeof *size);      /* of a first candidate: its group's size */
    if (!slots || !next || !last || !size)
        tagc_out_of_memory();
    memset(slots, 0, cap * sizeof *slots);
    bool any_group = false;
    for (size_t i = 0; i < n; i++) {
        next[i] = 0;
        size_t s = hash_name(v[i].name) & (cap - 1);
        while (slots[s] && strcmp(v[slots[s] - 1].name, v[i].name) != 0)
            s = (s + 1) & (cap - 1);
        if (!slots[s]) {
            slots[s] = i + 1;
            last[i] = i;
            size[i] = 1;
            continue;
        }
        size_t first = slots[s] - 1;
        size[i] = 0;
        next[last[first]] = i + 1;
        last[first] = i;
        size[first]++;
        any_group = true;
    }
    free(slots);
    if (!any_group) { /* every name once: all survive, as they are */
        free(next);
        free(last);
        free(size);
        return n;
    }
    /* The groups are moved out of v before v is rewritten in place. */
    cand *groups = malloc(n * sizeof *groups);
    size_t *group_at = last; /* reused: where a first candidate's group starts in groups */
    tie *ties = NULL;
    size_t nties = 0, ng = 0;
    if (!groups)
        tagc_out_of_memory();
    for (size_t i = 0; i < n; i++) {
        if (size[i] < 2) /* not a first candidate, or alone */
            continue;
        group_at[i] = ng;
        for (size_t k = i + 1; k; k = next[k - 1])
            groups[ng++] = v[k - 1];
    }
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (size[i] == 1) {
            v[out++] = v[i];
            size[i] = 0; /* v[i] may be overwritten later: mark it handled */
        }
    }
    /* now only the first candidate of a group of two or more has a size */
    for (size_t i = 0; i < n; i++) {
        size_t adv = size[i];
        if (adv < 2)
            continue;
        cand *g = &groups[group_at[i]];
        qsort(g, adv, sizeof *g, cmp_name_depth);
        if (g[0].len == g[1].len && g[0].tagged == g[1].tagged) {
            size_t tied = 2;
            while (tied < adv && g[tied].len == g[0].len && g[tied].tagged == g[0].tagged)
                tied++;
            ties = realloc(ties, (nties + 1) * sizeof *ties);
            if (!ties)
                tagc_out_of_memory();
            ties[nties++] = (tie){g, tied};
            continue;
        }
        v[out++] = g[0];
    }
    if (nties > 1)
        qsort(ties, nties, sizeof *ties, cmp_tie);
    for (size_t i = 0; i < nties; i++)
        report_tie(ck, ties[i].g, ties[i].n, c);
    free(ties);
    free(groups);
    free(next);
    free(last);
    free(size);
    return out;
}

/* MARK: - MessagePack: vmihailenco/msgpack's getFields */

/* The keys vm_fields has listed at one depth: name -> 1 + its index in the list
 * (NULL once dropped), so that wide structs take linear time. */
static size_t vm_find(const smap *seen, const char *name)
{
    return (size_t)(uintptr_t)smap_get(seen, name);
}

static void vm_append(cands *out, smap *seen, const cand *k)
{
    GROW(out);
    smap_set(seen, k->name, (void *)(uintptr_t)(out->n + 1));
    out->v[out->n++] = *k;
}

typedef struct vm_stack { /* the structs being listed, outermost first */
    const ast_type **v;
    size_t n, cap;
} vm_stack;

/*
 * Appends the keys of struct st as vmihailenco/msgpack v5 lists them (types.go
 * getFields), each path prefixed by path[0..len): fields in declared order; an
 * embedded struct (or pointer to one) without `noinline` has its own keys put
 * in its place, unless one of them is already a key here, in which case it is
 * one key holding a map (its tag's name, else its type's); with `inline`, the
 * keys already here are dropped from it instead. A field after a promoted one
 * of its name: vmihailenco writes both keys and reads the key into the later
 * field; tagc keeps the later one only. Two fields of st itself with one name
 * are an error (reported when `report`: st's own list, not an embedded one's).
 * A struct embedded in itself (Go's getFields would recurse for ever) is one
 * key holding a map.
 */
static void vm_fields(checker *ck, const ast_type *st, ast_field **path, int *idx, size_t len,
                      vm_stack *stack, bool report, cands *out)
{
    size_t base = out->n;
    smap seen;
    smap_init(&seen);
    int i = 0;
    for (ast_field *f = st->fields; f; f = f->next, i++) {
        const ast_type *ft = f->type;
        if (ft && ft->kind == TK_PTR)
            ft = ft->elem;
        const ast_type *u = type_underlying(ft);
        bool is_struct = u && u->kind == TK_STRUCT;
        if (!f->exported && !(f->embedded && is_struct))
            continue;
        const char *name;
        bool omit, quoted;
        if (!codec_tag(f, C_MSGPACK, &name, &omit, &quoted))
            continue;
        const tag_info *t = &f->tags;
        bool inl = t->has_msgpack ? t->msgpack_inline : t->json_inline;
        bool noinl = t->has_msgpack ? t->msgpack_noinline : t->json_noinline;
        cand k = {0};
        extend(ck->pool, path, idx, len, f, i, &k.path, &k.idx);
        k.len = len + 1;
        k.name = name ? name : f->name;
        k.tagged = name != NULL;
        k.omit = omit;
        k.codec = C_MSGPACK;
        bool cycle = false;
        for (size_t j = 0; j < stack->n && !cycle; j++)
            cycle = stack->v[j] == u;
        if (f->embedded && is_struct && !noinl && !cycle) {
            cands sub = {0};
            GROW(stack);
            stack->v[stack->n++] = u;
            vm_fields(ck, u, k.path, k.idx, k.len, stack, false, &sub);
            stack->n--;
            bool clash = false;
            for (size_t j = 0; j < sub.n && !clash; j++)
                clash = vm_find(&seen, sub.v[j].name) != 0;
            if (inl || !clash) {
                for (size_t j = 0; j < sub.n; j++)
                    if (!vm_find(&seen, sub.v[j].name)) /* shadowed: dropped */
                        vm_append(out, &seen, &sub.v[j]);
                free(sub.v);
                continue;
            }
            free(sub.v);
        }
        size_t at = vm_find(&seen, k.name);
        if (at) {
            cand *o = &out->v[at - 1];
            if (o->len == k.len) { /* two fields of this struct */
                const ast_field *of = o->path[o->len - 1];
                /* the same Go name: a duplicate field; no msgpack tags: reported for JSON */
                if (strcmp(of->name, f->name) != 0 && report &&
                    (of->tags.has_msgpack || f->tags.has_msgpack))
                    check_error(ck, f->loc,
                                "duplicate MessagePack name \"%s\" of field \"%s\" (field \"%s\" "
                                "at %s has the same name and depth)",
                                k.name, f->name, o->path[o->len - 1]->name,
                                check_where(ck, o->path[o->len - 1]->loc));
                continue;
            }
            /* after a promoted field: vmihailenco/msgpack writes both keys and reads
             * the key into the later field; tagc keeps the later one only (the
             * earlier one is marked here and left out below) */
            o->name = NULL;
        }
        vm_append(out, &seen, &k);
    }
    smap_free(&seen);
    size_t n = base;
    for (size_t j = base; j < out->n; j++)
        if (out->v[j].name)
            out->v[n++] = out->v[j];
    out->n = n;
}

/* The MessagePack keys of st, as vm_fields lists them. */
static void vm_collect(checker *ck, const ast_type *st, cands *out)
{
    vm_stack stack = {0};
    GROW(&stack);
    stack.v[stack.n++] = st;
    vm_fields(ck, st, NULL, NULL, 0, &stack, true, out);
    free(stack.v);
}

/* MARK: - The wire list */

#define TAGC_MAX_WIRE_FIELDS 65535

/* Whether the generators can test a value of t for omitzero (gen_types.c,
 * ty_zero_cond): an expression, so arrays of more than 32 elements only when
 * their bytes tell (integers, booleans, closed enums). */
static bool zero_testable(const ast_type *t, int depth)
{
    t = type_underlying(t);
    if (!t || depth > 64)
        return t != NULL;
    if (t->kind == TK_STRUCT) {
        for (const ast_field *f = t->fields; f; f = f->next)
            if (f->type->kind != TK_PTR && !zero_testable(f->type, depth + 1))
                return false;
        return true;
    }
    if (t->kind != TK_ARRAY || t->array_len <= 32)
        return t->kind != TK_ARRAY || zero_testable(t->elem, depth + 1);
    const ast_type *e = t->elem;
    while (e && e->kind == TK_ARRAY)
        e = e->elem;
    const ast_type *u = type_underlying(e);
    if (!u)
        return true;
    if (u->kind == TK_STRING)
        return e->kind == TK_NAMED && decl_is_closed_enum(e->decl);
    return u->kind == TK_BOOL || u->kind == TK_DURATION || type_is_integer(u->kind);
}

static void check_omitzero(checker *ck, const wire_field *x)
{
    if (!x->json_omitzero && !x->msgpack_omitzero)
        return;
    if (!zero_testable(x->field->type, 0))
        check_error(ck, x->field->loc, "omitzero on a value holding an array of more than 32 "
                                       "elements that are not integers or booleans is not supported");
    /* Go calls the type's IsZero (of T, or through a *T): tagc needs its C form */
    const ast_type *t = x->field->type;
    if (t->kind == TK_PTR)
        t = t->elem;
    const ast_decl *d = t && t->kind == TK_NAMED ? t->decl : NULL;
    if (!d || !d->is_zero_method || d->zero_fn || (d->codec && d->codec->is_zero) ||
        (d->type && d->type->kind == TK_TIME))
        return;
    check_error_note(ck, x->field->loc, d->is_zero_method->loc, "IsZero is declared here",
                     "omitzero on field %s: Go calls %s's IsZero method to decide, which tagc cannot "
                     "translate; give its C form with `//tagc:zero FUNC \"header.h\"` right before "
                     "`type %s` (bool FUNC(const %s *))%s",
                     x->field->name, d->name, d->name, d->c_name ? d->c_name : d->name,
                     d->codec ? ", or zero=FUNC in its //tagc:codec" : "");
}

/* The collector of st (check_embeds): one at most, so that decoding can keep
 * each unknown member's bytes. */
static void find_collector(checker *ck, ast_type *st)
{
    for (ast_field *f = st->fields; f; f = f->next) {
        if (!f->tags.json_unknown)
            continue;
        if (st->json_unknown)
            check_error(ck, f->tag_loc, "a second map with the embed option (the first is %s): Go 1.27 "
                                        "then collects the unknown members in neither; keep one",
                        st->json_unknown->name);
        else
            st->json_unknown = f;
    }
}

/* Go 1.27's `json:",embed"` fields of st: a struct (or pointer to one) has its
 * members inlined (explore); a map[string]json.RawMessage collects the members
 * no field takes (Go 1.27's fallback: json_unknown); any other map Go fills
 * the same way, which tagc does not build; any other type Go ignores the
 * option for. */
static void check_embeds(checker *ck, ast_type *st)
{
    for (ast_field *f = st->fields; f; f = f->next) {
        if (!f->tags.json_embed || !f->type)
            continue;
        const ast_type *t = f->type->kind == TK_PTR ? f->type->elem : f->type;
        const ast_type *u = type_underlying(t);
        if (u && u->kind == TK_STRUCT)
            continue;
        bool raw_map = u && u->kind == TK_MAP && f->type->kind == TK_MAP && u->key->kind == TK_STRING &&
                       u->elem->kind == TK_RAW;
        if (raw_map) {
            f->tags.json_embed = false;
            f->tags.json_unknown = true;
        } else if (u && u->kind == TK_MAP)
            check_error(ck, f->tag_loc, "embed on map field %s: Go 1.27 collects the members no "
                                        "field takes in it, which tagc builds for a "
                                        "map[string]json.RawMessage only: use that type, or drop the "
                                        "option (the map is then an ordinary member)",
                        f->name);
        else
            check_warning(ck, f->tag_loc, "embed on field %s of type %s is ignored by Go 1.27 (it "
                                          "inlines a struct): the field is an ordinary member",
                          f->name, type_text(ck->pool, f->type));
    }
}

static void build(checker *ck, ast_type *st, const void *ident)
{
    check_embeds(ck, st);
    find_collector(ck, st);
    cands j = {0}, m = {0};
    collect(ck, st, ident, &j, C_JSON);
    vm_collect(ck, st, &m);
    size_t nj = dominant(ck, j.v, j.n, C_JSON);
    size_t nm = m.n;
    st->msgpack_nil_promoted = true;
    for (size_t i = 0; i < nm; i++)
        if (m.v[i].omit)
            st->msgpack_nil_promoted = false;
    cands all = {0};
    all.n = nj + nm;
    all.v = malloc(2 * (all.n ? all.n : 1) * sizeof *all.v); /* the list, then sort_by_index's room */
    if (!all.v)
        tagc_out_of_memory();
    if (nj)
        memcpy(all.v, j.v, nj * sizeof *all.v);
    if (nm)
        memcpy(all.v + nj, m.v, nm * sizeof *all.v);
    sort_by_index(all.v, all.v + all.n, all.n);
    wire_field *w = pool_alloc(ck->pool, (all.n ? all.n : 1) * sizeof *w);
    size_t nw = 0;
    for (size_t i = 0; i < all.n; i++) {
        const cand *k = &all.v[i];
        if (i == 0 || cmp_idx(k, &all.v[i - 1]) != 0) { /* not the other codec's twin */
            w[nw].path = k->path;
            w[nw].path_len = k->len;
            w[nw].field = k->path[k->len - 1];
            nw++;
        }
        wire_field *x = &w[nw - 1];
        if (k->codec == C_JSON) {
            x->json_name = k->name;
            x->json_omitempty = k->omit;
            x->json_omitzero = x->field->tags.json_omitzero;
            x->json_string = k->quoted;
        } else {
            /* without a msgpack key, the json key's options (as codec_tag) */
            const tag_info *t = &x->field->tags;
            x->msgpack_name = k->name;
            x->msgpack_omitempty = k->omit;
            x->msgpack_omitzero = t->has_msgpack ? t->msgpack_omitzero : t->json_omitzero;
        }
    }
    for (size_t i = 0; i < nw; i++)
        check_omitzero(ck, &w[i]);
    if (nw > TAGC_MAX_WIRE_FIELDS) /* the generated key tables index fields with uint16_t */
        check_error(ck, st->loc, "struct has %zu fields on the wire; at most %d are supported", nw,
                    TAGC_MAX_WIRE_FIELDS);
    st->wire = w;
    st->wire_count = nw;
    free(j.v);
    free(m.v);
    free(all.v);
}

static void walk(checker *ck, ast_type *t)
{
    while (t) {
        switch (t->kind) {
        case TK_STRUCT:
            build(ck, t, t);
            for (ast_field *f = t->fields; f; f = f->next)
                walk(ck, f->type);
            return;
        case TK_PTR:
        case TK_ARRAY:
        case TK_SLICE:
        case TK_MAP:
            t = t->elem;
            break;
        default:
            return;
        }
    }
}

void check_wire(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next) {
            if (d->type && d->type->kind == TK_STRUCT) {
                build(ck, d->type, d);
                for (ast_field *f = d->type->fields; f; f = f->next)
                    walk(ck, f->type);
            } else {
                walk(ck, d->type);
            }
        }
}
