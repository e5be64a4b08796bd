/*
 * check_recursion.c - a type that contains itself by value has no finite size
 * (Go: "invalid recursive type"). Containment goes through struct fields,
 * arrays and named types; a pointer, slice or map breaks it.
 *
 * A depth-first walk over declarations: reaching a declaration that is still
 * on the stack closes a cycle, reported once at that declaration.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { UNSEEN = 0, ON_STACK = 1, DONE = 2 };

typedef struct walk {
    checker *ck;
    ast_decl **stack;
    size_t depth, cap;
} walk;

static void visit_decl(walk *w, ast_decl *d);

static void report_cycle(walk *w, ast_decl *target)
{
    size_t from = 0;
    while (from < w->depth && w->stack[from] != target)
        from++;
    char *chain = pool_strdup(w->ck->pool, target->name);
    for (size_t i = from + 1; i < w->depth; i++)
        chain = pool_printf(w->ck->pool, "%s contains %s", chain, w->stack[i]->name);
    chain = pool_printf(w->ck->pool, "%s contains %s", chain, target->name);
    check_error(w->ck, target->loc,
                "invalid recursive type \"%s\": %s by value (use a pointer, slice or map)",
                target->name, chain);
}

/* Walks what t holds by value. */
static void visit_type(walk *w, const ast_type *t)
{
    while (t) {
        switch (t->kind) {
        case TK_NAMED:
            if (t->decl->check_state == ON_STACK)
                report_cycle(w, t->decl);
            else if (t->decl->check_state == UNSEEN)
                visit_decl(w, t->decl);
            return;
        case TK_ARRAY:
            t = t->elem;
            break;
        case TK_STRUCT:
            for (const ast_field *f = t->fields; f; f = f->next)
                visit_type(w, f->type);
            return;
        default:
            return;
        }
    }
}

static void visit_decl(walk *w, ast_decl *d)
{
    if (w->depth == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->stack = realloc(w->stack, w->cap * sizeof *w->stack);
        if (!w->stack)
            tagc_out_of_memory();
    }
    w->stack[w->depth++] = d;
    d->check_state = ON_STACK;
    visit_type(w, d->type);
    d->check_state = DONE;
    w->depth--;
}

void check_recursion(checker *ck)
{
    walk w = {ck, NULL, 0, 0};
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            if (d->check_state == UNSEEN)
                visit_decl(&w, d);
    free(w.stack);
    /* Later passes use check_state for their own purposes. */
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            d->check_state = 0;
}
