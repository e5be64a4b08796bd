/*
 * check_directive.c - `//tagc:` comments: directives about the type
 * declaration that follows them, as Go's `//go:` ones are about what follows.
 *
 *   //tagc:closed
 *   type Status string
 *
 * A directive applies to the type declared on the next line that is neither
 * blank nor a `//` comment (so it can end a doc comment). Known directives:
 *
 *   closed   the enum declared next is closed: its codecs reject values that
 *            are not among its constants (TAGC_E_ENUM), and its C type is a C
 *            enum. Without it an enum is open, as in Go (see ast.h).
 *   codec    C functions of the user's read and write the type declared next
 *            (its settings follow: check_codec.c).
 *
 * A directive tagc does not know, or one that has nothing to apply to, is an
 * error: a misspelt `//tagc:closd` silently ignored would leave the enum open.
 */
#include <string.h>

#include "check.h"

/* The first byte of line `line` (1-based) of f's source, or NULL. */
static const char *line_start(const ast_file *f, int line)
{
    const char *s = f->source, *end = f->source + f->source_len;
    for (int n = 1; n < line; n++) {
        s = memchr(s, '\n', (size_t)(end - s));
        if (!s)
            return NULL;
        s++;
    }
    return s;
}

/* The line of the first thing after line `line` that is not blank or a `//` comment; 0 if none. */
static int next_code_line(const ast_file *f, int line)
{
    const char *end = f->source + f->source_len;
    const char *s = line_start(f, line + 1);
    for (int n = line + 1; s && s < end; n++) {
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        if (s < end && *s != '\n' && !(end - s >= 2 && s[0] == '/' && s[1] == '/'))
            return n;
        s = memchr(s, '\n', (size_t)(end - s));
        if (s)
            s++;
    }
    return 0;
}

/* The directive's name and whether anything but blanks follows it. */
static bool directive_is(const char *text, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(text, name, n) != 0)
        return false;
    for (const char *s = text + n; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            return false;
    return true;
}

/* The settings after "codec" and a blank, or NULL when text is not a codec directive. */
static const char *codec_settings(const char *text)
{
    if (strncmp(text, "codec", 5) != 0)
        return NULL;
    if (text[5] == '\0' || text[5] == ' ' || text[5] == '\t')
        return text + 5;
    return NULL;
}

static void apply(checker *ck, ast_file *f, const ast_directive *dv)
{
    const char *codec = codec_settings(dv->text);
    if (!codec && !directive_is(dv->text, "closed")) {
        check_error(ck, dv->loc, "unknown directive \"//tagc:%s\" (tagc knows //tagc:closed "
                                 "and //tagc:codec)", dv->text);
        return;
    }
    int line = next_code_line(f, dv->loc.line);
    ast_decl *target = NULL;
    for (ast_decl *d = f->decls; d && !target; d = d->next)
        if (d->loc.line == line)
            target = d;
    if (codec) {
        if (!target)
            check_error(ck, dv->loc, "//tagc:codec must come right before a type declaration");
        else
            check_codec_directive(ck, dv, codec, target);
        return;
    }
    if (!target) {
        check_error(ck, dv->loc, "//tagc:closed must come right before the type declaration of "
                                 "an enum");
        return;
    }
    if (target->enum_kind == ENUM_NONE) {
        check_error(ck, dv->loc, "//tagc:closed: type \"%s\" has no constants: only an enum can "
                                 "be closed", target->name);
        return;
    }
    target->enum_closed = true;
}

void check_directives(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++) {
        ast_file *f = ck->scopes[i].file;
        for (const ast_directive *dv = f->directives; dv; dv = dv->next)
            apply(ck, f, dv);
    }
}
