/*
 * gen.h - what the C generators share: the file being generated, the types it
 * uses, and how each type is named and declared in C.
 *
 * Every type a schema file uses gets a C spelling:
 *   builtins      bool, int64_t, double, tagc_str, tagc_time, tagc_bytes, ...
 *   named types   their declaration's C name (shop_user, shop_status, shop_tags)
 *   anonymous     struct types: <enclosing>_<field> (user_user_metadata)
 *   []T           <pkg>_<T>_slice          struct { T *ptr; size_t len; }
 *   map[K]V       <pkg>_<K>_<V>_map        struct { K *keys; V *vals; size_t len; }
 *   *T, T struct  T *
 *   *T otherwise  a struct member pair `bool has_x; T x;`, or <pkg>_<T>_opt elsewhere
 *   [N]T          T x[N]
 * Composite types (slices, maps, arrays, pointers, anonymous structs) get static
 * helper functions named after them; named types get exported ones.
 */
#ifndef TAGC_GEN_H
#define TAGC_GEN_H

#include "fmt.h"
#include "pipeline.h"

/* A composite or anonymous type used by the file, with its generated names. */
typedef struct gen_type {
    ast_type *type;
    const char *name; /* C name: typedef and helper prefix (shop_string_slice) */
    bool on_wire;     /* reached from a field on the JSON wire: needs codec helpers */
    bool on_msgpack;  /* reached from a field on the MessagePack wire (set by gen_msgpack.c) */
    bool compared;    /* reached by an _equal function: needs an equality helper */
} gen_type;

/* A slot of gen.memo: what was computed for an address (a type node, a wire field). */
typedef struct gen_memo {
    const void *key; /* NULL: empty */
    void *val;
} gen_memo;

typedef struct gen {
    const ast_program *prog;
    const ast_file *file;
    const gen_opts *opts;
    strbuf *out;
    /* strings of the function being generated: the codecs release them after
     * each type's functions (gen_release) */
    struct pool *pool;
    struct pool *keep; /* what outlives that: the memo's names */
    const char *pkg; /* C prefix of the file's package */
    size_t pkg_len;
    gen_type *types; /* composites used, each once, inner ones first */
    size_t ntypes, captypes;
    size_t *type_slots; /* hash of types[] by name: index + 1, 0 = empty */
    size_t type_slots_cap;
    /* names the generators ask for again and again (a type's helper prefix,
     * a wire field's lvalue), computed once: by address, in gen and its pool
     * only, since two generators may share the read-only AST */
    gen_memo *memo;
    size_t memo_n, memo_cap;
    struct fmt_cache *fmts; /* emit's formats, parsed once */
    /* emit: inside a function (a `{` line in column 0, up to a `}` one), from
     * out offset fn_body on; the output is flushed only outside functions */
    bool in_fn;
    size_t fn_body;
} gen;

void gen_init(gen *g, const ast_program *prog, const ast_file *f, const gen_opts *o, strbuf *out);
void gen_done(gen *g);

/* Around the code of one type: gen_release frees the strings g->pool got
 * since gen_mark (none of them may be used after it). */
pool_mark gen_mark(gen *g);
void gen_release(gen *g, pool_mark m);

/* MARK: - Types (gen_types.c) */

/* The memo's slot for key (an address no other user of the memo takes as a key):
 * NULL until set. Valid until the next call. */
void **gen_memo_slot(gen *g, const void *key);

/* The type after following named types to their definition. */
ast_type *ty_under(ast_type *t);
/* The declaration of a named enum type, or NULL. */
const ast_decl *ty_enum(const ast_type *t);
/* True when *T of this type is a C pointer (T is a struct); else it is a has_/value pair. */
bool ty_is_struct(ast_type *t);
/* True when t needs a helper function (not a builtin, not a named type). */
bool ty_is_composite(const ast_type *t);
/* The C name of a type (for named, anonymous and composite types, and builtins).
 * Arrays have no plain name: use ty_decl. */
const char *ty_cname(gen *g, ast_type *t);
/* A C declaration of `name` with type t ("double m[3][3]", "shop_user *next"). */
const char *ty_decl(gen *g, ast_type *t, const char *name);
/* The same declaration with its elements read-only: `const T name` or, when T is a
 * pointer (any, *Struct), `T *const name`, so the argument converts without a cast. */
const char *ty_const_decl(gen *g, ast_type *t, const char *name);
/* The name used for t inside composite names ("string", "user", "common_address"). */
const char *ty_short(gen *g, ast_type *t);
/* The composite entry of t in g->types, or NULL. */
gen_type *ty_find(gen *g, ast_type *t);
/* The prefix of t's helper functions (shop_user, shop_string_slice). */
const char *ty_fn(gen *g, ast_type *t);

/* Shapes the codecs share. */
bool ty_is_signed_int(type_kind k);   /* intN, and time.Duration */
bool ty_is_unsigned_int(type_kind k);
bool ty_is_float(type_kind k);
/* The runtime's reader of an integer of kind k: tagc_json_read_i8 .. tagc_mp_read_u64. */
const char *ty_int_reader(type_kind k, bool msgpack);
const char *ty_int_min(type_kind k);    /* INT8_MIN ..: the C limits of a width */
const char *ty_int_max(type_kind k);
bool ty_null_keeps(type_kind k);      /* a builtin scalar that null (nil) leaves unchanged, as in Go */
bool ty_is_bytes(const ast_type *t);  /* []byte */
bool ty_is_opt(ast_type *t);          /* *T, T not a struct: a has/value pair */
/* Whether a key name is printable ASCII without '"' or '\\': its compact JSON
 * key ("name":) is its text as is, and a C literal shows it as is. */
bool name_is_plain(const char *name);
/* A C condition true when the value at lv is not empty in Go's omitempty sense
 * (it is written); NULL: never empty; "false": always empty. */
const char *ty_nonempty_cond(gen *g, ast_type *t, const char *lv);
/* A C condition true when the value at lv is Go's zero value, as omitzero
 * decides: reflect.Value.IsZero as of Go 1.22 (v == zero: -0 is zero, NaN is
 * not; nil slices and maps only; structs and arrays element by element,
 * unexported fields included),
 * or for a field of type time.Time itself its IsZero method (the instant only).
 * "1": always zero. */
const char *ty_zero_cond(gen *g, ast_type *t, const char *lv);
/* When the writer puts wire field w (at lv) on the JSON (or MessagePack) wire,
 * after omitempty and omitzero (either omits): NULL always, "false" never. */
const char *wire_present_cond(gen *g, const wire_field *w, const char *lv, bool msgpack);
/* Whether the writer may leave w out (a condition is needed). */
bool wire_may_omit(gen *g, const wire_field *w, bool msgpack);
/* A struct reader's strict-mode check that the fields in required (their bits,
 * words of 64) are in seen: fail(d, keys, word, missing) reports the first not. */
void gen_required_check(gen *g, const char *fail, const char *keys, const uint64_t *required,
                        size_t words);
/* The lvalue of a wire field of the struct at `v`, through embedded structs (path[0..upto)). */
const char *wire_lvalue(gen *g, const wire_field *w, size_t upto);
/* The flag of a has/value pair whose value is at lv ("v->a.x" -> "v->a.has_x"). */
const char *wire_has_lvalue(gen *g, const char *lv, const ast_field *f);

/* `static const uint16_t <table>[] = {...};`: the indexes of names[0..n) in the
 * order of their length, then bytes (unsigned): the order the runtime's
 * binary searches of struct keys expect (tagc_json_key_find, tagc_mp_key_find). */
void gen_name_order(gen *g, const char *table, const char *const *names, size_t n);

/* Header: forward declarations, enums, typedefs and struct definitions in an order C accepts. */
void gen_type_definitions(gen *g);

/* Header: <slice>_alloc, <slice>_append and <map>_put for the file's slice and map types (gen_build.c). */
void gen_build_helpers(gen *g);
/* MARK: - Nesting (gen_nest.c): the encoders' depth limit */

/* The most levels (objects/arrays, maps/arrays) a value of t opens, -1: unbounded
 * (recursive types, any, json.RawMessage and what holds them). */
int ty_nesting(gen *g, ast_type *t);
/* True when the writers of t count levels (its nesting is unbounded). */
bool ty_nest_counts(gen *g, ast_type *t);
/* The most levels of the fields of struct st on one wire: a counting writer's margin. */
int ty_nest_margin(gen *g, const ast_type *st, bool msgpack);
/* The Go spelling of t ("tree.Node", "[]tree.Node"), for the cycle message. */
const char *ty_go_name(gen *g, ast_type *t);
/* go_type as a C string literal. */
const char *gen_nest_type_lit(gen *g, const char *go_type);
/* A counting writer's first and last statements: enter returns when the limit is
 * passed (limit: the C expression of the max depth). */
void gen_nest_enter(gen *g, int ind, const char *limit, int margin, const char *v, const char *go_type);
void gen_nest_leave(gen *g, int ind);
/* After writing a value of type t in a counting writer: when t counts too, the
 * early return on failure; check is the tagc_enc_failed_* call, cleanup (or NULL)
 * a statement before the return. */
void gen_nest_after(gen *g, int ind, ast_type *t, const char *check, const char *cleanup);

/* MARK: - Enums (gen_enum.c): names and known values, for every codec */

void gen_enum_prototypes(gen *g, const ast_decl *d);
void gen_enum_functions(gen *g, const ast_decl *d);

/* MARK: - JSON (gen_json.c) */

void gen_json_prototypes(gen *g, bool exported);
/* The functions of a named type (exported), and of a composite on the JSON wire (static). */
void gen_named_json(gen *g, const ast_decl *d);
void gen_composite_json(gen *g, const gen_type *gt);

/* MARK: - MessagePack (gen_msgpack.c) */

/* <type>_write_msgpack / <type>_read_msgpack: exported ones for the named types
 * (header), or static ones for the composites on the MessagePack wire (source). */
void gen_msgpack_prototypes(gen *g, bool exported);
/* Sets on_msgpack of the composites the MessagePack code calls: before the two below. */
void gen_msgpack_mark(gen *g);
void gen_named_msgpack(gen *g, const ast_decl *d);
void gen_composite_msgpack(gen *g, const gen_type *gt);

/* MARK: - Custom codecs (gen_codec.c): //tagc:codec types */

/* Header: the #include lines of the codecs' include= settings. */
void gen_codec_includes(gen *g);
/* Header: `typedef CTYPE name;` for a codec type. */
void gen_codec_typedef(gen *g, const ast_decl *d);
/* Header: the prototypes of the user's functions. */
void gen_codec_prototypes(gen *g);
/* The type's _write_json/_read_json (and MessagePack ones), calling the user's. */
void gen_codec_json(gen *g, const ast_decl *d);
void gen_codec_msgpack(gen *g, const ast_decl *d);
/* The body of its _equal (a, b): the user's equal= or the bytes. */
void gen_codec_equal_body(gen *g, const ast_decl *d);
/* Go's IsZero of the value at lv: the user's zero= or all-zero bytes. */
const char *gen_codec_zero_cond(gen *g, const ast_decl *d, const char *lv);

/* MARK: - Values (gen_c.c): init and equality */

void gen_equal_call(gen *g, ast_type *t, const char *a, const char *b);

/* MARK: - Emitting text */

/* After a function body written from offset `body` of g->out: adds `(void)name;`
 * at its top for each of the space-separated parameters it does not use. The
 * function must be open: its `{` line emitted (in column 0), its `}` not yet. */
void mark_unused(gen *g, size_t body, const char *params);
/* A C string literal for bytes s[0..n) (with quotes). */
const char *c_literal(gen *g, const char *s, size_t n);
/* emit(g, ind, fmt, ...): appends a formatted line indented by `ind` levels of
 * four spaces. Between functions, it hands what g->out holds to its flush
 * function (if any) once that is more than EMIT_FLUSH_AT bytes.
 *
 * fmt must be a string literal: its length is taken at compile time, and a
 * line with no arguments and no '%' (most of them) is copied as it is
 * (emit_text), without going through the formatter. */
enum { EMIT_FLUSH_AT = 128 * 1024 };
void emit_text(gen *g, int ind, const char *text, size_t len);
void emit_fmt(gen *g, int ind, const char *fmt, size_t fmt_len, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 5)))
#endif
    ;
/* emit with no argument after fmt: EMIT_LINE_; with some: EMIT_FMT_. The
 * strchr of a literal is folded by the compiler (at -O1 and up). */
#define EMIT_LINE_(g, ind, fmt)                                                                  \
    (strchr("" fmt, '%') ? emit_fmt(g, ind, fmt, sizeof("" fmt) - 1)                            \
                         : emit_text(g, ind, fmt, sizeof("" fmt) - 1))
#define EMIT_FMT_(g, ind, fmt, ...) emit_fmt(g, ind, "" fmt, sizeof("" fmt) - 1, __VA_ARGS__)
#define EMIT_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17,   \
                   a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32,    \
                   name, ...)                                                                    \
    name
#define emit(g, ind, ...)                                                                        \
    EMIT_PICK_(__VA_ARGS__, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_,     \
               EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_,      \
               EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_,      \
               EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_,      \
               EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_FMT_, EMIT_LINE_, unused_)                  \
    (g, ind, __VA_ARGS__)

#endif /* TAGC_GEN_H */
