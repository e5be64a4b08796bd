/*
 * parser.y - the grammar of .tagc files (SPEC section 1, a subset of Go).
 *
 * The actions build the AST of ast.h directly, from the program's pool, so a
 * syntax error never leaks: error recovery just drops pool memory. Recovery
 * happens at three levels (top-level declaration, spec inside a group, struct
 * field), so every syntax error of a file is reported, not only the first.
 *
 * The parser is pure (reentrant): all state lives in the parse_ctx shared with
 * the lexer (lexer.l, which also holds parse_file).
 */
%define api.pure full
%define api.location.type {src_loc}
%define parse.error custom
%define parse.lac full
/* One conflict, resolved by shifting: a struct field that starts `IDENT [`
 * takes the field_decl rules written for it (`a []T`, `a [N]T`, `batch[Log]`),
 * not ident_list, which cannot tell an array from an instantiation. */
%expect 1
%locations
%param {yyscan_t scanner}
%parse-param {parse_ctx *ctx}

%code requires {
#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* The state of parsing one file, shared by the lexer and the parser. */
typedef struct parse_ctx {
    ast_program *prog;
    struct pool *pool;
    ast_file *file;
    diag *dg;
    int errors;           /* errors reported in this file */
    bool stop;            /* too many errors or nesting too deep: end the parse quietly */
    /* lexer */
    int line;             /* of the next byte */
    const char *line_start; /* where that line starts in the scanned text (columns are bytes) */
    const char *text_end; /* the end of the scanned text */
    bool semi;            /* a newline now ends a statement (Go's semicolon rule) */
    bool tok_auto_semi;   /* the last token is a ';' the lexer inserted */
    const char *tok;      /* the last token as written, for "found ..." (in the scanned */
    size_t tok_len;       /* text, which stays until the parse ends) */
    /* the token filter (yylex in lexer.l) */
    bool skipping;        /* inside code tagc reads and skips: literals are not checked */
    const char *nul_str;  /* the last string literal whose value has a NUL escape ("\x00"): */
    src_loc nul_loc;      /* Go allows it, a C string cannot hold it (the escape's place) */
    int depth;            /* brackets open among the tokens given to the parser */
    int last_tok;         /* the last token given to the parser (0 at the start) */
    int prev_tok;         /* the one before it */
    int type_group;       /* inside `type ( ... )`: the depth of its specs, else 0 */
    struct lex_pending *pending; /* a token read ahead (lexer-private) */
    const char *used_end, *prev_end; /* where the last token the filter used ends */
    /* parser */
    ast_decl **decl_tail;
    const_block **const_tail;
    ast_import **import_tail;
    bool seen_decl;       /* a type or const seen: imports must come before */
} parse_ctx;

typedef struct field_chain { ast_field *head, *tail; } field_chain;
typedef struct type_chain { ast_type_arg *head, *tail; } type_chain;
typedef struct spec_chain { const_spec *head, *tail; int count; } spec_chain;
typedef struct int_tok { const char *text; const char *dec; } int_tok;
typedef struct tag_tok { const char *text; src_loc loc; } tag_tok;
/* A function or method declaration, read and skipped: its receiver's base
 * type name (NULL for a function) and its name. */
typedef struct func_tok { const char *recv; const char *name; src_loc name_loc; } func_tok;
}

%code provides {
/* Reports an error of this file (lexical, syntax) and stops after too many. */
void parse_error(parse_ctx *ctx, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
}

%code {
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int yylex(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner);
static void yyerror(YYLTYPE *loc, yyscan_t scanner, parse_ctx *ctx, const char *msg);

/* A node's location is where its first symbol starts; an empty rule takes the
 * location of what precedes it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N) ((Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0))

/* The parser stack bounds how deeply types may nest. Each level of an
 * anonymous struct takes about four entries, so this allows some 2500 levels,
 * far beyond any real schema, and keeps every later (recursive) pass safe. */
#define YYMAXDEPTH 10000

/* Out of memory growing the stack is not "memory exhausted" (a syntax error):
 * it ends the compiler as every other allocation does. */
static void *parser_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p)
        tagc_out_of_memory();
    return p;
}
#define YYMALLOC parser_malloc

static ast_field *field_new(parse_ctx *c, const char *name, src_loc loc)
{
    ast_field *f = pool_alloc_uninit(c->pool, sizeof *f);
    *f = (ast_field){ .name = name, .loc = loc }; /* zeroed in line: no memset call */
    return f;
}

static ast_decl *add_decl(parse_ctx *c, const char *name, src_loc loc, ast_type *type)
{
    ast_decl *d = pool_alloc(c->pool, sizeof *d);
    d->name = name;
    d->loc = loc;
    d->type = type;
    d->file = c->file;
    *c->decl_tail = d;
    c->decl_tail = &d->next;
    c->seen_decl = true;
    return d;
}

static void add_const_block(parse_ctx *c, src_loc loc, const_spec *specs)
{
    const_block *b = pool_alloc(c->pool, sizeof *b);
    b->loc = loc;
    b->specs = specs;
    *c->const_tail = b;
    c->const_tail = &b->next;
    c->seen_decl = true;
}

/* A tag or an import path is kept as a C string: a NUL escape in it is an error. */
static void no_nul(parse_ctx *c, const char *s)
{
    if (s == c->nul_str)
        parse_error(c, c->nul_loc, "invalid NUL character in string literal");
}

static void add_import(parse_ctx *c, const char *name, const char *path, src_loc loc)
{
    if (c->seen_decl)
        parse_error(c, loc, "imports must appear before other declarations");
    ast_import *im = pool_alloc(c->pool, sizeof *im);
    im->name = name;
    im->path = path;
    im->loc = loc;
    *c->import_tail = im;
    c->import_tail = &im->next;
}

/* Records a method (or function) of the file: what it is named matters
 * (MarshalJSON and the like), its body does not. */
static void add_method(parse_ctx *c, const func_tok *fn, src_loc loc)
{
    c->seen_decl = true;
    if (!fn->name)
        return;
    ast_method *m = pool_alloc(c->pool, sizeof *m);
    m->recv = fn->recv;
    m->name = fn->name;
    m->loc = fn->name_loc.file ? fn->name_loc : loc;
    m->next = c->file->methods;
    c->file->methods = m;
}

/* A type tagc reads but cannot put on the wire: an error only at a wire field. */
static ast_type *nowire_new(parse_ctx *c, src_loc loc, const char *what)
{
    /* ->qualifier holds the type as written, for messages */
    ast_type *t = ast_type_new(c->pool, TK_NOWIRE, loc);
    t->name = what;
    t->why = what[0] == 'a' && what[1] == 'n' ? "Go's encoding/json cannot decode into it"
                                              : "Go's encoding/json cannot encode it";
    return t;
}

static const_expr *expr_new(parse_ctx *c, const_expr_kind kind, src_loc loc,
                            const char *text, const_expr *a, const_expr *b)
{
    const_expr *e = pool_alloc(c->pool, sizeof *e);
    e->kind = kind;
    e->loc = loc;
    e->text = text;
    e->a = a;
    e->b = b;
    return e;
}

static void spec_append(spec_chain *ch, const_spec *s)
{
    if (!s)
        return;
    s->iota = ch->count++;
    if (ch->tail)
        ch->tail->next = s;
    else
        ch->head = s;
    ch->tail = s;
}

/* A field of one name and its type. */
static field_chain named_field(parse_ctx *c, const char *name, src_loc loc, ast_type *type, tag_tok tag)
{
    ast_field *f = field_new(c, name, loc);
    f->type = type;
    f->tag = tag.text;
    f->tag_loc = tag.loc;
    return (field_chain){ f, f };
}

/* An embedded field: T, *T, pkg.T, T[Args], *T[Args]; named after its type. */
static field_chain embedded_field(parse_ctx *c, ast_type *type, tag_tok tag)
{
    const ast_type *named = type->kind == TK_PTR ? type->elem : type;
    field_chain ch = named_field(c, named->name, named->loc, type, tag);
    ch.head->embedded = true;
    return ch;
}

static void fields_append(field_chain *ch, field_chain more)
{
    if (!more.head)
        return;
    if (ch->tail)
        ch->tail->next = more.head;
    else
        ch->head = more.head;
    ch->tail = more.tail;
}
}

%union {
    const char *str;
    int_tok num;
    tag_tok tag;
    ast_type *type;
    field_chain fields;
    const_expr *expr;
    const_spec *spec;
    spec_chain specs;
    func_tok func;
    const char **params;
    type_chain targs;
}

%token END 0 "end of file"
%token <str> IDENT "identifier"
%token <num> INT "integer literal"
%token <str> STRING "string literal"
%token <str> KEYWORD "keyword"
%token <str> PUNCT "operator"
%token PACKAGE "'package'"
%token IMPORT "'import'"
%token TYPE "'type'"
%token CONST "'const'"
%token STRUCT "'struct'"
%token MAP "'map'"
%token INTERFACE "'interface'"
%token SHL "'<<'"
%token <str> RUNE "rune literal"
%token <str> FLOAT "floating-point literal"
%token <func> FUNC_DECL "function declaration"
%token VAR_DECL "var declaration"
%token <str> FUNC_TYPE "func type"
%token <str> CHAN_TYPE "channel type"
%token IFACE_TYPE "interface with methods"
%token <params> TYPE_PARAMS "type parameters"

%left PUNCT
%left '+' '-'
%left '*' SHL
%precedence UNARY

%type <type> type type_name embedded
%type <targs> type_args
%type <fields> field_list fields field_decl ident_list
%type <tag> opt_tag
%type <expr> expr
%type <spec> const_spec
%type <specs> const_list const_seq

%initial-action {
    @$ = (src_loc){ ctx->file, 1, 1 };
}

%%

file
    : package_clause decls
    ;

package_clause
    : PACKAGE IDENT ';'     { ctx->file->package = $2; ctx->file->package_loc = @2; }
    | error ';'
    ;

decls
    : %empty
    | decls decl ';'
    | decls error ';'
    ;

decl
    : import_decl
    | type_decl
    | const_decl
    | FUNC_DECL             { add_method(ctx, &$1, @1); }
    | VAR_DECL              { ctx->seen_decl = true; }
    ;

/* MARK: - Imports */

import_decl
    : IMPORT import_spec
    | IMPORT '(' import_list ')'
    ;

import_list
    : %empty
    | import_seq
    | import_seq ';'
    ;

import_seq
    : import_spec
    | import_seq ';' import_spec
    ;

import_spec
    : STRING                { no_nul(ctx, $1); add_import(ctx, NULL, $1, @1); }
    | IDENT STRING          { no_nul(ctx, $2); add_import(ctx, $1, $2, @2); } /* an alias, or _ */
    | '.' STRING            { no_nul(ctx, $2); add_import(ctx, ".", $2, @2); }
    ;

/* MARK: - Types */

type_decl
    : TYPE type_spec
    | TYPE '(' type_list ')'
    ;

type_list
    : %empty
    | type_seq
    | type_seq ';'
    ;

type_seq
    : type_spec
    | error
    | type_seq ';' type_spec
    | type_seq ';' error
    ;

type_spec
    : IDENT type            { add_decl(ctx, $1, @1, $2); }
    | IDENT '=' type        { add_decl(ctx, $1, @1, $3)->is_alias = true; }
    | IDENT TYPE_PARAMS type { add_decl(ctx, $1, @1, $3)->type_params = $2; }
    ;

type
    : type_name
    | type_name '[' type_args ']' { $$ = $1; $$->args = $3.head; }
    | '[' ']' type          { $$ = ast_type_new(ctx->pool, TK_SLICE, @1); $$->elem = $3; }
    | '[' INT ']' type
        {
            $$ = ast_type_new(ctx->pool, TK_ARRAY, @1);
            $$->elem = $4;
            $$->array_len_text = $2.text;
            /* dec holds the literal's value in decimal; -1 when it does not fit */
            errno = 0;
            unsigned long long v = strtoull($2.dec, NULL, 10);
            $$->array_len = errno || v > INT64_MAX ? -1 : (int64_t)v;
        }
    | '[' IDENT ']' type
        {
            /* a constant's name: check_resolve.c evaluates it */
            $$ = ast_type_new(ctx->pool, TK_ARRAY, @1);
            $$->elem = $4;
            $$->array_len_text = $2;
            $$->array_len_name = $2;
        }
    | '[' IDENT '.' IDENT ']' type
        {
            $$ = ast_type_new(ctx->pool, TK_ARRAY, @1);
            $$->elem = $6;
            $$->array_len_text = pool_printf(ctx->pool, "%s.%s", $2, $4);
            $$->array_len_name = $$->array_len_text;
        }
    | '*' type              { $$ = ast_type_new(ctx->pool, TK_PTR, @1); $$->elem = $2; }
    | MAP '[' type ']' type { $$ = ast_type_new(ctx->pool, TK_MAP, @1); $$->key = $3; $$->elem = $5; }
    | STRUCT '{' field_list '}' { $$ = ast_type_new(ctx->pool, TK_STRUCT, @1); $$->fields = $3.head; }
    | INTERFACE             { $$ = ast_type_new(ctx->pool, TK_ANY, @1); $$->name = "interface{}"; }
    | FUNC_TYPE             { $$ = nowire_new(ctx, @1, "a func type"); $$->qualifier = $1; }
    | CHAN_TYPE             { $$ = nowire_new(ctx, @1, "a channel type"); $$->qualifier = $1; }
    | IFACE_TYPE            { $$ = nowire_new(ctx, @1, "an interface with methods"); $$->qualifier = "interface{...}"; }
    | '(' type ')'          { $$ = $2; }
    ;

type_name
    : IDENT                 { $$ = ast_type_new(ctx->pool, TK_NAME, @1); $$->name = $1; }
    | IDENT '.' IDENT       { $$ = ast_type_new(ctx->pool, TK_NAME, @1); $$->qualifier = $1; $$->name = $3; }
    ;

type_args
    : type
        {
            ast_type_arg *a = pool_alloc(ctx->pool, sizeof *a);
            a->type = $1;
            $$ = (type_chain){ a, a };
        }
    | type_args ',' type
        {
            ast_type_arg *a = pool_alloc(ctx->pool, sizeof *a);
            a->type = $3;
            $$ = $1;
            $$.tail->next = a;
            $$.tail = a;
        }
    ;

/* MARK: - Struct fields */

field_list
    : %empty                { $$ = (field_chain){ NULL, NULL }; }
    | fields
    | fields ';'
    ;

fields
    : field_decl
    | error                 { $$ = (field_chain){ NULL, NULL }; }
    | fields ';' field_decl { $$ = $1; fields_append(&$$, $3); }
    | fields ';' error
    ;

field_decl
    : ident_list type opt_tag
        {
            /* `Left, Right *User`: the names share one type expression, as in Go's AST */
            for (ast_field *f = $1.head; f; f = f->next) {
                f->type = $2;
                f->tag = $3.text;
                f->tag_loc = $3.loc;
            }
            $$ = $1;
        }
    | embedded opt_tag      { $$ = embedded_field(ctx, $1, $2); }
    /* `batch[Log]` (an embedded instantiation) or `a [N]T`, `a []T`: one name
     * then a bracket, told apart by what follows the bracket */
    | IDENT '[' type_args ']' opt_tag
        {
            ast_type *t = ast_type_new(ctx->pool, TK_NAME, @1);
            t->name = $1;
            t->args = $3.head;
            $$ = embedded_field(ctx, t, $5);
        }
    | IDENT '[' type_args ']' type opt_tag
        {
            /* `a [N]T`: N a constant's name (type_args read it as a type name) */
            const ast_type *n = $3.head->type;
            if ($3.head->next || n->kind != TK_NAME || n->args) {
                parse_error(ctx, @3, "expected an array length (a constant), found a list of types");
                YYERROR;
            }
            ast_type *t = ast_type_new(ctx->pool, TK_ARRAY, @2);
            t->elem = $5;
            t->array_len_text = n->qualifier ? pool_printf(ctx->pool, "%s.%s", n->qualifier, n->name) : n->name;
            t->array_len_name = t->array_len_text;
            $$ = named_field(ctx, $1, @1, t, $6);
        }
    | IDENT '[' ']' type opt_tag
        {
            ast_type *t = ast_type_new(ctx->pool, TK_SLICE, @2);
            t->elem = $4;
            $$ = named_field(ctx, $1, @1, t, $5);
        }
    | IDENT '[' INT ']' type opt_tag
        {
            ast_type *t = ast_type_new(ctx->pool, TK_ARRAY, @2);
            t->elem = $5;
            t->array_len_text = $3.text;
            errno = 0;
            unsigned long long v = strtoull($3.dec, NULL, 10);
            t->array_len = errno || v > INT64_MAX ? -1 : (int64_t)v;
            $$ = named_field(ctx, $1, @1, t, $6);
        }
    ;

ident_list
    : IDENT                 { ast_field *f = field_new(ctx, $1, @1); $$ = (field_chain){ f, f }; }
    | ident_list ',' IDENT
        {
            ast_field *f = field_new(ctx, $3, @3);
            $$ = $1;
            $$.tail->next = f;
            $$.tail = f;
        }
    ;

embedded
    : type_name
    | '*' type_name         { $$ = ast_type_new(ctx->pool, TK_PTR, @1); $$->elem = $2; }
    | '*' type_name '[' type_args ']'
        {
            $2->args = $4.head;
            $$ = ast_type_new(ctx->pool, TK_PTR, @1);
            $$->elem = $2;
        }
    ;

opt_tag
    : %empty                { $$ = (tag_tok){ NULL, { NULL, 0, 0 } }; }
    | STRING                { no_nul(ctx, $1); $$ = (tag_tok){ $1, @1 }; }
    ;

/* MARK: - Constants */

const_decl
    : CONST const_spec      { spec_chain ch = { NULL, NULL, 0 }; spec_append(&ch, $2); add_const_block(ctx, @1, ch.head); }
    | CONST '(' const_list ')' { add_const_block(ctx, @1, $3.head); }
    ;

const_list
    : %empty                { $$ = (spec_chain){ NULL, NULL, 0 }; }
    | const_seq
    | const_seq ';'
    ;

const_seq
    : const_spec            { $$ = (spec_chain){ NULL, NULL, 0 }; spec_append(&$$, $1); }
    | error                 { $$ = (spec_chain){ NULL, NULL, 1 }; }
    | const_seq ';' const_spec { $$ = $1; spec_append(&$$, $3); }
    | const_seq ';' error   { $$ = $1; $$.count++; }
    ;

const_spec
    : IDENT
        {
            $$ = pool_alloc(ctx->pool, sizeof *$$);
            $$->name = $1;
            $$->loc = @1;
        }
    | IDENT '=' expr
        {
            $$ = pool_alloc(ctx->pool, sizeof *$$);
            $$->name = $1;
            $$->loc = @1;
            $$->value = $3;
        }
    | IDENT type_name '=' expr
        {
            $$ = pool_alloc(ctx->pool, sizeof *$$);
            $$->name = $1;
            $$->loc = @1;
            $$->type_name = $2->qualifier ? pool_printf(ctx->pool, "%s.%s", $2->qualifier, $2->name)
                                          : $2->name;
            $$->type_loc = @2;
            $$->value = $4;
        }
    ;

expr
    : INT                   { $$ = expr_new(ctx, CE_INT, @1, $1.dec, NULL, NULL); }
    | STRING                { /* with a NUL: read, not evaluated (an enum value cannot hold it) */
                              $$ = $1 == ctx->nul_str ? expr_new(ctx, CE_OTHER, @1, NULL, NULL, NULL)
                                                      : expr_new(ctx, CE_STRING, @1, $1, NULL, NULL); }
    | IDENT
        {
            bool iota = strcmp($1, "iota") == 0;
            $$ = expr_new(ctx, iota ? CE_IOTA : CE_NAME, @1, $1, NULL, NULL);
        }
    | '-' expr %prec UNARY  { $$ = expr_new(ctx, CE_NEG, @1, NULL, $2, NULL); }
    | '+' expr %prec UNARY  { $$ = $2; }
    | expr '+' expr         { $$ = expr_new(ctx, CE_ADD, @2, NULL, $1, $3); }
    | expr '-' expr         { $$ = expr_new(ctx, CE_SUB, @2, NULL, $1, $3); }
    | expr '*' expr         { $$ = expr_new(ctx, CE_MUL, @2, NULL, $1, $3); }
    | expr SHL expr         { $$ = expr_new(ctx, CE_SHL, @2, NULL, $1, $3); }
    | '(' expr ')'          { $$ = expr_new(ctx, CE_PAREN, @1, NULL, $2, NULL); }
    /* Go's other constants, read and not evaluated (CE_OTHER): floats, runes,
     * other packages' constants (time.Millisecond), the other operators, calls */
    | FLOAT                 { $$ = expr_new(ctx, CE_OTHER, @1, $1, NULL, NULL); }
    | RUNE                  { $$ = expr_new(ctx, CE_OTHER, @1, $1, NULL, NULL); }
    | IDENT '.' IDENT       { $$ = expr_new(ctx, CE_OTHER, @1, pool_printf(ctx->pool, "%s.%s", $1, $3), NULL, NULL); }
    | expr PUNCT expr       { $$ = expr_new(ctx, CE_OTHER, @2, $2, $1, $3); }
    | PUNCT expr %prec UNARY { $$ = expr_new(ctx, CE_OTHER, @1, $1, $2, NULL); }
    | IDENT '(' expr ')'    { $$ = expr_new(ctx, CE_CONV, @1, $1, $3, NULL); }
    | IDENT '.' IDENT '(' expr ')' { $$ = expr_new(ctx, CE_OTHER, @1, pool_printf(ctx->pool, "%s.%s", $1, $3), $5, NULL); }
    ;

%%

enum { MAX_ERRORS_PER_FILE = 50 };

void parse_error(parse_ctx *ctx, src_loc loc, const char *fmt, ...)
{
    if (ctx->stop)
        return;
    if (ctx->errors >= MAX_ERRORS_PER_FILE) {
        diag_note(ctx->dg, loc, "too many errors in this file; giving up on it");
        ctx->stop = true;
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(ctx->dg, loc, "%s", msg);
    ctx->errors++;
}

/* Bison calls yyerror only when its stack is full: the input nests too deeply. */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, parse_ctx *ctx, const char *msg)
{
    (void)scanner;
    (void)msg;
    parse_error(ctx, *loc, "nesting too deep");
    ctx->stop = true;
}

static bool has_token(const yysymbol_kind_t *set, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(yysymbol_name(set[i]), name) == 0)
            return true;
    return false;
}

enum { TOKEN_TEXT_MAX = 44 };

/* The last token as shown: what snprintf("%.*s") would keep of its first
 * TOKEN_TEXT_MAX bytes (it stops at a NUL), then "..." when cut. */
static const char *token_text(const parse_ctx *ctx, char out[TOKEN_TEXT_MAX + 4])
{
    size_t len = ctx->tok_len;
    size_t n = 0;
    while (n < len && n < TOKEN_TEXT_MAX && ctx->tok[n])
        n++;
    memcpy(out, ctx->tok, n);
    if (len > TOKEN_TEXT_MAX)
        memcpy(out + n, "...", 4);
    else
        out[n] = '\0';
    return out;
}

/* What was found: the text of names and numbers, "newline" for an inserted ';'. */
static void describe_found(const parse_ctx *ctx, yysymbol_kind_t k, char *buf, size_t size)
{
    char text[TOKEN_TEXT_MAX + 4];
    switch (k) {
    case YYSYMBOL_IDENT:
    case YYSYMBOL_INT:
    case YYSYMBOL_KEYWORD:
    case YYSYMBOL_PUNCT:
        snprintf(buf, size, "'%s'", token_text(ctx, text));
        return;
    default:
        break;
    }
    if (ctx->tok_auto_semi && strcmp(yysymbol_name(k), "';'") == 0) {
        snprintf(buf, size, "newline");
        return;
    }
    snprintf(buf, size, "%s", yysymbol_name(k));
}

/*
 * "expected type, found '}'": the expected tokens, grouped where a group has a
 * name a user knows (type, expression); when too many to list, just what was found.
 */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner, parse_ctx *ctx)
{
    (void)scanner;
    if (ctx->stop)
        return 0;
    char found[96];
    describe_found(ctx, yypcontext_token(yyctx), found, sizeof found);

    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(yyctx, exp, YYNTOKENS);
    if (n < 0)
        n = 0;
    const char *names[YYNTOKENS];
    int count = 0;
    bool types = has_token(exp, n, "'['") && has_token(exp, n, "'map'");
    bool exprs = has_token(exp, n, "'-'") && has_token(exp, n, "integer literal");
    if (types && has_token(exp, n, "integer literal")) /* after `name [`: a length, `]` or a type */
        names[count++] = "an array length, ']' or a type";
    else if (types)
        names[count++] = "type";
    else if (exprs)
        names[count++] = "expression";
    else {
        for (int i = 0; i < n; i++)
            names[count++] = yysymbol_name(exp[i]);
    }

    const src_loc loc = *yypcontext_location(yyctx);
    if (count == 0 || count > 5) {
        parse_error(ctx, loc, "syntax error: unexpected %s", found);
        return 0;
    }
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; i < count; i++) {
        const char *sep = i == 0 ? "" : i == count - 1 ? " or " : ", ";
        int w = snprintf(list + len, sizeof list - len, "%s%s", sep, names[i]);
        if (w < 0 || (size_t)w >= sizeof list - len)
            break;
        len += (size_t)w;
    }
    parse_error(ctx, loc, "expected %s, found %s", list, found);
    return 0;
}
