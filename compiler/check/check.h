/*
 * check.h - what the checker's files (check*.c, names.c) share; not used by
 * the other passes except the naming helpers at the end.
 */
#ifndef TAGC_CHECK_H
#define TAGC_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* A string -> pointer hash map whose keys live in the pool. */
typedef struct smap {
    const char **keys;
    void **vals;
    size_t cap, len;
} smap;
void smap_init(smap *m);
/* An empty map with room for n keys: it never grows while it holds at most n. */
void smap_init_for(smap *m, size_t n);
void smap_free(smap *m);
void *smap_get(const smap *m, const char *key);
/* Returns the previous value (and keeps it), or NULL after inserting val. */
void *smap_put(smap *m, const char *key, void *val);
/* Inserts key or replaces its value. */
void smap_set(smap *m, const char *key, void *val);

/* One collected diagnostic: printed sorted by position at the end, so that
 * errors found by different passes still read top to bottom. */
typedef struct check_msg {
    src_loc loc;
    int file_index;
    size_t seq;
    bool warning; /* not an error: printed, not counted */
    char *text; /* the full text diag.c wrote for the error and its note */
} check_msg;

/* A file's package prefix and its declarations by Go name. */
typedef struct file_scope {
    ast_file *file;
    const char *prefix; /* "shop": the snake_case package name */
    smap decls;
} file_scope;

typedef struct checker {
    ast_program *prog;
    file_scope *scopes; /* one per file, in the program's order */
    size_t nscopes;
    struct pool *pool;
    diag *dg;
    check_msg *msgs;
    size_t nmsgs, capmsgs;
    smap c_names; /* every global C identifier -> the src_loc * that took it */
    smap instances; /* "file.Page[User]" -> the instantiation's decl (check_resolve.c) */
    int inst_depth; /* instantiations being resolved inside each other */
} checker;

void check_error(checker *ck, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A warning: printed in order with the errors, but the schema still compiles. */
void check_warning(checker *ck, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Like check_error, with a note at note_loc attached. */
void check_error_note(checker *ck, src_loc loc, src_loc note_loc, const char *note,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* "file:line:col" of loc, for "(previous declaration at ...)". */
const char *check_where(checker *ck, src_loc loc);
/* Claims a global C identifier; reports a clash with what took it first. */
void check_claim_c_name(checker *ck, const char *c_name, src_loc loc, const char *what);

file_scope *check_scope(checker *ck, const ast_file *f);
/* Finds a declared type visible in f (its own, then its imports'), or a
 * qualified one of an imported package; NULL if none. Reports ambiguity. */
ast_decl *check_lookup(checker *ck, ast_file *f, const char *qual, const char *name,
                       src_loc loc);

/* The passes, in order (check.c runs them). */
void check_resolve(checker *ck);   /* check_resolve.c: names -> builtins / decls */
void check_methods(checker *ck);   /* check_methods.c: MarshalJSON and the like */
void check_recursion(checker *ck); /* check_recursion.c: structs containing themselves */
void check_fields(checker *ck);    /* check_fields.c: tags, field names, keys, options */
void check_enums(checker *ck);     /* check_enum.c: const blocks -> enums */
void check_directives(checker *ck); /* check_directive.c: //tagc:closed and the like */
void check_go_directive(checker *ck); /* check_directive.c: //tagc:go, the package's profile */
void check_wire(checker *ck);      /* check_wire.c: Go's typeFields for every struct */
void check_nowire(checker *ck);    /* check_nowire.c: what has no wire form stays off it */
/* check_codec.c: `//tagc:codec SETTINGS` before declaration d (check_directive.c calls it). */
void check_codec_directive(checker *ck, const ast_directive *dv, const char *settings,
                           ast_decl *d);

/* check_tags.c: parses a field's tag into f->tags, reporting malformed tags. */
void check_parse_tag(checker *ck, ast_field *f);

/* check_types.c: type helpers. */
/* Follows named types to the type they are defined as (NULL if cyclic/unresolved). */
const ast_type *type_underlying(const ast_type *t);
bool type_is_integer(type_kind k);
/* Go's reflect.Kind of t is bool, a number or a string (the `string` option works). */
bool type_is_quotable(const ast_type *t);
/* The type as Go writes it: "[]map[string]*shop.User". */
const char *type_text(struct pool *p, const ast_type *t);
bool go_exported(const char *name);

/* names.c, beyond pipeline.h: generated names avoid C and C++ keywords and the
 * names standard headers define; c_safe_name appends '_' to one that is such a
 * name (and returns name itself otherwise). */
bool c_is_reserved(const char *name);
char *c_safe_name(struct pool *p, char *name);
char *c_member_name(struct pool *p, const char *go_name);

#endif /* TAGC_CHECK_H */
