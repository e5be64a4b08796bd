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

typedef struct ast_file ast_file;
typedef struct ast_decl ast_decl;
typedef struct ast_type ast_type;
typedef struct ast_field ast_field;

/* A position in a source file: 1-based line and column (column counts bytes). */
typedef struct src_loc {
    const ast_file *file;
    int line;
    int col;
} src_loc;

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
    TK_ANY,      /* interface{} and any */
    /* a declared type of this or an imported file: ->decl */
    TK_NAMED,
    /* composites */
    TK_SLICE,  /* []elem */
    TK_ARRAY,  /* [array_len]elem */
    TK_PTR,    /* *elem */
    TK_MAP,    /* map[key]elem */
    TK_STRUCT, /* struct { fields } */
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
    /* TK_STRUCT */
    ast_field *fields; /* linked through ->next */
    /* TK_STRUCT, set by the checker: the wire fields in Go's order, embedded ones promoted */
    struct wire_field *wire;
    size_t wire_count;
    /* TK_STRUCT, MessagePack: a field promoted through a nil embedded pointer is written
     * as nil (vmihailenco/msgpack does so when no field of the struct has omitempty),
     * else left out */
    bool msgpack_nil_promoted;
    /* Set by the checker for anonymous structs: the C name of their typedef */
    const char *c_name;
    /* TK_STRUCT: the declaration or field it is written in (for naming) */
    int check_state; /* checker-private: 0 unvisited, 1 in progress, 2 done */
};

/* MARK: - Fields */

/* A parsed struct tag: Go's reflect.StructTag with the json and msgpack keys understood. */
typedef struct tag_info {
    bool has_json;        /* a json key is present */
    const char *json_name; /* NULL or "" = use the field name */
    bool json_skip;       /* json:"-" */
    bool json_omitempty;
    bool json_string;
    bool json_inline, json_noinline; /* vmihailenco/msgpack's options, read from the json
                                      * tag when it stands in for the msgpack one */
    bool has_msgpack;     /* a msgpack key with a non-empty value (vmihailenco reads an
                           * empty one as absent) */
    const char *msgpack_name;
    bool msgpack_skip;
    bool msgpack_omitempty;
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
    const char *c_name;  /* snake_case member name */
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
    bool json_string;          /* the `string` option, valid on this scalar */
    bool msgpack_omitempty;
    ast_field **path;
    size_t path_len;
    ast_field *field;          /* path[path_len - 1] */
} wire_field;

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
    int check_state; /* checker-private */
};

/* A const expression, as parsed; the checker evaluates it with the right iota. */
typedef enum const_expr_kind {
    CE_INT, CE_STRING, CE_IOTA, CE_NAME, CE_NEG, CE_ADD, CE_SUB, CE_MUL, CE_SHL, CE_PAREN
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

typedef struct ast_import {
    struct ast_import *next;
    src_loc loc;
    const char *path;   /* as written, unquoted */
    ast_file *target;   /* set by the loader for .tagc imports; NULL for "time", "encoding/json" */
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
    bool is_root;          /* named on the command line */
    int load_state;        /* loader-private */
};

/* A whole compilation: the files named on the command line and everything they import. */
typedef struct ast_program {
    ast_file *files;
    struct pool *pool;
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
