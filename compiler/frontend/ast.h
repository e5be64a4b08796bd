/*
 * ast.h - the typed syntax tree of a .tagc schema, and what the checker adds to it.
 *
 * The parser (parser.y) builds files, type declarations, type expressions,
 * fields and const blocks. The checker (check.c) then resolves every name,
 * turns const blocks into enums, parses tags, computes C names and the flat
 * wire-field lists the generators walk. Everything is allocated from the
 * program's pool and freed at once by ast_program_free.
 */
#ifndef TAGC_AST_H
#define TAGC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oom.h"

typedef struct ast_file ast_file;
typedef struct ast_decl ast_decl;
typedef struct ast_type ast_type;
typedef struct ast_field ast_field;
typedef struct ast_type_arg ast_type_arg;

/* A position in a source file: 1-based line and column (column counts bytes). */
typedef struct src_loc {
    const ast_file *file;
    int line;
    int col;
} src_loc;

/* The Go release whose encoding/json the generated code matches (tagc --go);
 * docs/profiles.md lists what differs. */
typedef enum go_profile {
    GO_1_26, /* Go 1.22-1.26, and 1.27 under GOEXPERIMENT=nojsonv2 */
    GO_1_27, /* Go 1.27: encoding/json on json/v2 (the default) */
    GO_1_19, /* Go 1.19-1.21 */
} go_profile;
#define GO_DEFAULT GO_1_27 /* tagc's default --go: the newest release */

/* MARK: - Types */

typedef enum type_kind {
    /* As parsed, every identifier is TK_NAME; the checker rewrites builtins. */
    TK_NAME,
    /* builtins, after checking */
    TK_BOOL,
    TK_INT8,
    TK_INT16,
    TK_INT32,
    TK_INT64, /* also int, and rune is TK_INT32 */
    TK_UINT8, /* also byte */
    TK_UINT16,
    TK_UINT32,
    TK_UINT64, /* also uint */
    TK_FLOAT32,
    TK_FLOAT64,
    TK_STRING,
    TK_TIME,     /* time.Time */
    TK_DURATION, /* time.Duration */
    TK_RAW,      /* json.RawMessage */
    TK_NUMBER,   /* json.Number */
    TK_ANY,      /* interface{} and any */
    /* a declared type of this or an imported file: ->decl */
    TK_NAMED,
    /* composites */
    TK_SLICE,  /* []elem */
    TK_ARRAY,  /* [array_len]elem */
    TK_PTR,    /* *elem */
    TK_MAP,    /* map[key]elem */
    TK_STRUCT, /* struct { fields } */
    /* read, never on the wire: func and chan types, interfaces with methods;
     * ->name says what it is ("a func type"). An error only where a wire
     * field needs it. */
    TK_NOWIRE,
    /* a declared type read and written by C functions of the user's
     * (`//tagc:codec`, check_codec.c): ->decl, whose ->codec says which */
    TK_CODEC,
} type_kind;

struct ast_type {
    type_kind kind;
    src_loc loc;
    /* TK_NAME: qualifier is "time", "json" or an imported package, or NULL */
    const char *qualifier;
    const char *name;
    /* TK_NAMED */
    ast_decl *decl;
    /* TK_SLICE, TK_ARRAY, TK_PTR, TK_MAP (the value type) */
    ast_type *elem;
    /* TK_MAP */
    ast_type *key;
    /* TK_ARRAY: the length as written (text, to report bad lengths), and its value */
    const char *array_len_text;
    int64_t array_len;
    const char *array_len_name; /* the length is a constant's name (pkg.Name too) */
    /* TK_NAME: type arguments (`Page[User]`), as written */
    ast_type_arg *args;
    /* TK_STRUCT */
    ast_field *fields; /* linked through ->next */
    /* TK_STRUCT, set by the checker: the wire fields in Go's order, embedded ones promoted */
    struct wire_field *wire;
    size_t wire_count;
    /* TK_STRUCT: its `json:",unknown"` field (a map[string]json.RawMessage), or NULL */
    struct ast_field *json_unknown;
    /* TK_STRUCT, MessagePack: a field promoted through a nil embedded pointer is written
     * as nil (vmihailenco/msgpack does so when no field of the struct has omitempty),
     * else left out */
    bool msgpack_nil_promoted;
    /* Set by the checker for anonymous structs: the C name of their typedef */
    const char *c_name;
    /* TK_STRUCT: the declaration or field it is written in (for naming) */
    int check_state; /* checker-private: 0 unvisited, 1 in progress, 2 done */
    /* TK_NOWIRE: why it has no wire form, for the error at a wire field;
     * unread: a type of a package tagc has not read (it may have one) */
    const char *why;
    bool unread;
    bool custom;   /* a declared type with its own MarshalJSON and the like (->decl) */
    /* TK_STRUCT, set by the checker: fields left out of the C struct (on no
     * wire, of a type with no C form), linked through ->next, for a note */
    ast_field *omitted;
};

/* One type argument of an instantiation. */
struct ast_type_arg {
    ast_type_arg *next;
    ast_type *type;
};

/* MARK: - Fields */

/* A parsed struct tag: Go's reflect.StructTag with the json and msgpack keys understood. */
typedef struct tag_info {
    bool has_json;        /* a json key is present */
    const char *json_name; /* NULL or "" = use the field name */
    bool json_skip;       /* json:"-" */
    bool json_omitempty;
    bool json_omitzero;   /* Go 1.24's omitzero */
    bool json_string;
    bool json_unknown;    /* Go 1.27's `,embed` on a map[string]json.RawMessage: it collects
                           * the members no field takes (check_wire.c) */
    bool json_embed;      /* Go 1.27's `,embed` (no name): a struct's fields inlined */
    bool json_case_strict; /* Go 1.27's `case:strict`: the name matched exactly on decode */
    bool json_inline, json_noinline; /* vmihailenco/msgpack's options, read from the json
                                      * tag when it stands in for the msgpack one */
    bool has_msgpack;     /* a msgpack key with a non-empty value (vmihailenco reads an
                           * empty one as absent) */
    const char *msgpack_name;
    bool msgpack_skip;
    bool msgpack_omitempty;
    bool msgpack_omitzero;
    bool msgpack_inline, msgpack_noinline;
} tag_info;

struct ast_field {
    ast_field *next;
    src_loc loc;         /* of the name (or of the type, when embedded) */
    const char *name;    /* Go name; for an embedded field, the type's name */
    bool embedded;       /* `Base` or `*Base` with no field name */
    ast_type *type;
    const char *tag;     /* tag text without the quotes, or NULL */
    src_loc tag_loc;
    /* set by the checker */
    tag_info tags;
    bool exported;       /* Go name starts with an upper-case letter */
    bool on_wire;        /* a key of some struct's JSON or MessagePack wire */
    const char *left_out; /* in a struct's omitted list: what the header's note says */
    const char *c_name;  /* snake_case member name */
    const char *has_c_name; /* *T, T not a struct: the presence flag's member, has_<c_name>
                             * (with a `_` more while another member has that name) */
};

/*
 * One key on the wire of a struct, after Go's rules for embedded fields: the
 * field reached through `path` (path[0] a field of the struct itself, each next
 * one a field of the embedded struct before it; path_len >= 1).
 */
typedef struct wire_field {
    const char *json_name;     /* NULL when the field is not on the JSON wire */
    const char *msgpack_name;  /* NULL when not on the MessagePack wire */
    bool json_omitempty;
    bool json_omitzero;        /* omitted when Go's zero value (or IsZero) */
    bool json_string;          /* the `string` option, valid on this scalar */
    bool msgpack_omitempty;
    bool msgpack_omitzero;
    ast_field **path;
    size_t path_len;
    ast_field *field;          /* path[path_len - 1] */
} wire_field;

/* Whether a writer may leave the field out (omitempty or omitzero): strict
 * readers then do not require it. */
static inline bool wire_json_omittable(const wire_field *w)
{
    return w->json_omitempty || w->json_omitzero;
}
static inline bool wire_msgpack_omittable(const wire_field *w)
{
    return w->msgpack_omitempty || w->msgpack_omitzero;
}

/* MARK: - Declarations */

typedef enum enum_kind { ENUM_NONE, ENUM_STRING, ENUM_INT } enum_kind;

typedef struct enum_value {
    struct enum_value *next;
    src_loc loc;
    const char *name;   /* Go constant name */
    const char *c_name; /* SHOP_STATUS_PAID */
    const char *str;    /* ENUM_STRING: the value */
    int64_t num;        /* ENUM_INT: the value */
} enum_value;

struct ast_decl {
    ast_decl *next;
    src_loc loc;
    const char *name; /* Go name */
    ast_type *type;   /* the type it is defined as */
    ast_file *file;
    /* set by the checker */
    const char *c_name;  /* shop_user */
    const char *c_upper; /* SHOP_USER, the prefix of enum constants */
    enum_kind enum_kind;
    enum_value *values;
    size_t value_count;
    /* An enum is open by default, as in Go: a field of its type holds any value
     * of the underlying type, and the codecs treat it as that type. A closed one
     * (`//tagc:closed` before it) is a C enum whose codecs reject other values. */
    bool enum_closed;
    int check_state; /* checker-private */
    bool is_alias;   /* `type A = B`: the same type as B (check_resolve.c replaces uses) */
    const char **type_params; /* `type Page[T any]`: the names, NULL-terminated; a
                               * generic type is generated per instantiation */
    struct ast_decl *generic; /* an instantiation (`Page[User]`): its generic type */
    /* check_methods.c: the encoding/json methods of its method set (its
     * own, or promoted from embedded fields): JM_* bits. A type with any
     * that tagc does not know (time.Time's) is Go's to encode, not a plain
     * struct: its type is then a TK_NOWIRE (custom) and the type as written
     * is kept in json_type, for a C codec to take over. */
    unsigned json_methods, json_own; /* the set; those declared with it as receiver */
    const struct ast_method *json_method; /* the first such method declared, for messages */
    ast_type *json_type;
    /* //tagc:codec: the user's C codec (its type is then a TK_CODEC), or NULL */
    const struct type_codec *codec;
    /* an IsZero() bool method (own, or promoted from an embedded declared type):
     * Go's omitzero calls it (check_methods.c); is_zero_method, the first seen */
    const struct ast_method *is_zero_method;
    /* //tagc:zero FUNC [HEADER]: its C form, `bool FUNC(const T *)`, and the
     * header that declares it (included by the generated source), or NULL */
    const char *zero_fn, *zero_include;
};

/* The JSON values a custom codec reads and writes (its declared wire shape):
 * what `tagc validate`, the JSON Schema and `tagc compat` go by. */
enum {
    CW_STRING = 1, CW_INTEGER = 2, CW_NUMBER = 4, /* NUMBER takes in INTEGER */
    CW_BOOLEAN = 8, CW_OBJECT = 16, CW_ARRAY = 32, CW_NULL = 64,
    CW_ANY = 127,
};

/* `//tagc:codec ctype=... json=... msgpack=... wire=...`: the user's C codec
 * for a named type (check_codec.c). Function names are prefixes: json=P names
 * P_read and P_write. */
typedef struct type_codec {
    src_loc loc;           /* of the directive */
    const char *ctype;     /* the C type that holds a value ("tagc_time", "struct ts") */
    const char *include;   /* a header the generated one includes for ctype, or NULL */
    const char *json;      /* prefix of its JSON reader and writer, or NULL */
    const char *msgpack;   /* prefix of its MessagePack ones, or NULL */
    const char *equal;     /* bool equal(const T *, const T *), or NULL: bytewise */
    const char *is_zero;   /* bool is_zero(const T *) (Go's IsZero), or NULL: all-zero bytes */
    const char *wire_text; /* as written ("string|integer") */
    unsigned wire;         /* CW_* bits */
} type_codec;

/* In the order of json_method_names (check_nowire.c). The last three count
 * under --go 1.27 only: Go 1.27's encoding/json honours them, older ones do not. */
enum {
    JM_MARSHAL_JSON = 1, JM_UNMARSHAL_JSON = 2, JM_MARSHAL_TEXT = 4, JM_UNMARSHAL_TEXT = 8,
    JM_MARSHAL_JSON_TO = 16, JM_UNMARSHAL_JSON_FROM = 32, JM_APPEND_TEXT = 64,
    JM_GO_1_27 = JM_MARSHAL_JSON_TO | JM_UNMARSHAL_JSON_FROM | JM_APPEND_TEXT,
};
/* An enum whose codecs check its values (see enum_closed). */
static inline bool decl_is_closed_enum(const ast_decl *d)
{
    return d->enum_kind != ENUM_NONE && d->enum_closed;
}

/* A `//tagc:NAME rest` comment: a directive to tagc about what follows it. */
typedef struct ast_directive {
    struct ast_directive *next;
    src_loc loc;
    const char *text; /* after "//tagc:", to the end of the line */
} ast_directive;

/* A const expression, as parsed; the checker evaluates it with the right iota. */
typedef enum const_expr_kind {
    CE_INT, CE_STRING, CE_IOTA, CE_NAME, CE_NEG, CE_ADD, CE_SUB, CE_MUL, CE_SHL, CE_PAREN,
    CE_CONV,  /* Name(a): a conversion (Status("x")) or a call */
    CE_OTHER, /* a constant tagc reads and does not evaluate (floats, runes, time.Second...) */
} const_expr_kind;

typedef struct const_expr {
    const_expr_kind kind;
    src_loc loc;
    const char *text; /* CE_INT digits, CE_STRING value (unescaped), CE_NAME identifier */
    struct const_expr *a, *b;
} const_expr;

/* One line of a const block: `Name Type = expr`, `Name = expr` or just `Name`
 * (which repeats the previous type and expression, as in Go). */
typedef struct const_spec {
    struct const_spec *next;
    src_loc loc;
    const char *name;
    const char *type_name; /* NULL when omitted */
    src_loc type_loc;
    const_expr *value;     /* NULL when omitted */
    int iota;
} const_spec;

typedef struct const_block {
    struct const_block *next;
    src_loc loc;
    const_spec *specs;
} const_block;

/* A function or method declared in the file (its body is skipped). */
typedef struct ast_method {
    struct ast_method *next;
    src_loc loc;        /* of the name */
    const char *recv;   /* the receiver's type name, NULL for a function */
    const char *name;
} ast_method;

typedef struct ast_import {
    struct ast_import *next;
    src_loc loc;
    const char *path;   /* as written, unquoted */
    const char *name;   /* the alias as written ("_" blank, "." dot), or NULL */
    const char *pkg;    /* set by the loader: the name it is known by in the file (alias,
                         * the package read, or Go's guess from the path); NULL for _ and . */
    ast_file *target;   /* set by the loader for .tagc imports and packages read; NULL for
                         * "time", "encoding/json" and packages not read */
} ast_import;

struct ast_file {
    ast_file *next;        /* in the program's list, in load order */
    const char *path;      /* as given or as resolved from the importer */
    const char *display;   /* path used in diagnostics */
    char *source;          /* whole text, NUL-terminated */
    size_t source_len;
    const char *package;   /* package name */
    src_loc package_loc;
    ast_import *imports;
    ast_decl *decls;
    const_block *consts;
    ast_method *methods;   /* functions and methods, last first */
    ast_decl *nowire_decls; /* set by the checker: types with no wire form, left out of the C */
    ast_directive *directives; /* in source order */
    bool is_root;          /* named on the command line */
    ast_file *pkg;         /* a .go file of a package of several: the file that holds the
                            * package's declarations (loader); NULL otherwise */
    const char *out_base;  /* a package's outputs: OUT_BASE.h and .c (loader); NULL: the file's name */
    const char *c_prefix;  /* a package's C prefix when not its name's (gopkg.c: core_v1); or NULL */
    int load_state;        /* loader-private */
};

/* -I: where the Go packages of an import path are (main.c sets, load.c reads). */
typedef struct import_dir {
    struct import_dir *next;
    const char *prefix; /* an import path (its packages are below dir), or NULL:
                         * dir is a root where DIR/IMPORT/PATH is the package */
    const char *dir;
} import_dir;

/* --map: a type of a Go package not read, and what it is on the wire. */
typedef struct type_map {
    struct type_map *next;
    const char *path;   /* the import path */
    const char *name;   /* the type's name */
    const char *wire;   /* a builtin ("string", "int64", "time.Time", "json.RawMessage"...),
                         * or "codec" */
    const char *codec;  /* wire "codec": the //tagc:codec settings that follow it */
    src_loc loc;        /* in the mapping file */
    bool used;
} type_map;

/* A whole compilation: the files named on the command line and everything they import. */
typedef struct ast_program {
    ast_file *files;
    struct pool *pool;
    import_dir *import_dirs; /* -I, in the order given */
    const char *const *map_paths; /* --map files, NULL-terminated (or NULL) */
    type_map *maps;          /* what they say (load.c) */
    ast_file *map_files;     /* the mapping files, for positions and the depfile */
    go_profile go;           /* tagc --go: which tag options and methods count */
    bool go_given;           /* --go was given: it wins over a //tagc:go directive */
} ast_program;

/* MARK: - Construction (used by the parser) */

struct pool;
struct pool *pool_new(void);
void pool_free(struct pool *p);
void *pool_alloc(struct pool *p, size_t size); /* zeroed */
void *pool_alloc_uninit(struct pool *p, size_t size); /* not zeroed: for what is written whole */
char *pool_strndup(struct pool *p, const char *s, size_t n);
char *pool_strdup(struct pool *p, const char *s);
/* printf into the pool. fmt must be a string literal: the pool parses each
 * format once (fmt.h), by its address. */
#define pool_printf(p, fmt, ...) pool_printf_(p, "" fmt, __VA_ARGS__)
char *pool_printf_(struct pool *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A point in a pool's allocations: pool_release frees what was allocated
 * after it (the chunks are kept for what comes next), so a pass that makes
 * many short-lived strings does not grow the pool. Blocks of their own (big
 * ones, as pool_alloc makes them) are kept until pool_free. */
typedef struct pool_mark {
    struct pool_chunk *chunk;
    size_t used;
} pool_mark;
pool_mark pool_get_mark(struct pool *p);
void pool_release(struct pool *p, pool_mark m);

/* The concatenation of the strings given (pool_cat(p, a, b, c), 8 at most):
 * for names, without a format. */
char *pool_cat_(struct pool *p, const char *s, ...);
#define pool_cat(p, ...) pool_cat_(p, __VA_ARGS__, (const char *)NULL)

ast_type *ast_type_new(struct pool *p, type_kind kind, src_loc loc);
const char *type_kind_name(type_kind k);

void ast_program_free(ast_program *prog);

#endif /* TAGC_AST_H */
