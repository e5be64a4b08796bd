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
 *   go       VERSION, anywhere in a file named on the command line: the wire
 *            profile of the package (docs/profiles.md), as `tagc --go VERSION`,
 *            which wins over it (check_go_directive, before the other passes).
 *   zero     FUNC [HEADER]: the C form of the IsZero method of the type declared
 *            next, `bool FUNC(const T *)`, which omitzero then calls as Go's
 *            does; HEADER ("money.h" or <money.h>), which declares it, is
 *            included by the generated source after its own header.
 *
 * A directive tagc does not know, or one that has nothing to apply to, is an
 * error: a misspelt `//tagc:closd` silently ignored would leave the enum open.
 */
#include <string.h>

#include "check.h"
#include "pipeline.h"

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

/* The settings after `name` and a blank, or NULL when text is not that directive. */
static const char *settings_of(const char *text, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(text, name, n) != 0)
        return NULL;
    if (text[n] == '\0' || text[n] == ' ' || text[n] == '\t')
        return text + n;
    return NULL;
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

/* //tagc:zero FUNC [HEADER] before the type d. */
static void zero_directive(checker *ck, const ast_directive *dv, const char *s, ast_decl *d)
{
    s = skip_blanks(s);
    const char *fn = s;
    while (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
        s++;
    size_t fn_len = (size_t)(s - fn);
    const char *hdr = skip_blanks(s);
    size_t hdr_len = strlen(hdr);
    while (hdr_len > 0 && (hdr[hdr_len - 1] == ' ' || hdr[hdr_len - 1] == '\t' || hdr[hdr_len - 1] == '\r'))
        hdr_len--;
    bool hdr_ok = hdr_len == 0 ||
                  (hdr_len > 2 && ((hdr[0] == '"' && hdr[hdr_len - 1] == '"') ||
                                   (hdr[0] == '<' && hdr[hdr_len - 1] == '>')) &&
                   !memchr(hdr + 1, '"', hdr_len - 2));
    if (fn_len == 0 || (*fn >= '0' && *fn <= '9') || (*s && *s != ' ' && *s != '\t') || !hdr_ok) {
        check_error(ck, dv->loc, "//tagc:zero: expected FUNC [HEADER], as //tagc:zero money_is_zero "
                                 "\"money.h\" (FUNC: bool FUNC(const T *), Go's IsZero in C)");
        return;
    }
    if (d->zero_fn) {
        check_error(ck, dv->loc, "//tagc:zero: type \"%s\" is given a zero function twice", d->name);
        return;
    }
    d->zero_fn = pool_strndup(ck->pool, fn, fn_len);
    if (c_is_reserved(d->zero_fn)) {
        check_error(ck, dv->loc, "//tagc:zero: %s is not a C function name", d->zero_fn);
        d->zero_fn = NULL;
        return;
    }
    d->zero_include = hdr_len ? pool_strndup(ck->pool, hdr, hdr_len) : NULL;
}

static void apply(checker *ck, ast_file *f, const ast_directive *dv)
{
    const char *codec = settings_of(dv->text, "codec"), *zero = settings_of(dv->text, "zero");
    if (settings_of(dv->text, "go"))
        return; /* check_go_directive's */
    if (!codec && !zero && !directive_is(dv->text, "closed")) {
        check_error(ck, dv->loc, "unknown directive \"//tagc:%s\" (tagc knows //tagc:closed, "
                                 "//tagc:codec, //tagc:go and //tagc:zero)", dv->text);
        return;
    }
    /* the type declared on that line of this file: a package's declarations are
     * all held by its first file (f->pkg) */
    int line = next_code_line(f, dv->loc.line);
    ast_decl *target = NULL;
    for (ast_decl *d = (f->pkg ? f->pkg : f)->decls; d && !target; d = d->next)
        if (d->loc.line == line && d->loc.file == f)
            target = d;
    if (codec) {
        if (!target)
            check_error(ck, dv->loc, "//tagc:codec must come right before a type declaration");
        else
            check_codec_directive(ck, dv, codec, target);
        return;
    }
    if (zero) {
        if (!target)
            check_error(ck, dv->loc, "//tagc:zero must come right before a type declaration");
        else
            zero_directive(ck, dv, zero, target);
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

void check_go_directive(checker *ck)
{
    const ast_directive *first = NULL;
    go_profile chosen = ck->prog->go;
    for (size_t i = 0; i < ck->nscopes; i++) {
        const ast_file *f = ck->scopes[i].file;
        for (const ast_directive *dv = f->directives; dv && f->is_root; dv = dv->next) {
            const char *s = settings_of(dv->text, "go");
            if (!s)
                continue;
            s = skip_blanks(s);
            size_t n = strcspn(s, " \t\r");
            char value[16];
            go_profile p;
            if (n >= sizeof value || *skip_blanks(s + n) != '\0' ||
                (memcpy(value, s, n), value[n] = '\0', !go_profile_parse(value, &p))) {
                check_error(ck, dv->loc, "//tagc:go: expected a Go release tagc matches: 1.27, 1.26 or "
                                         "1.19, as //tagc:go 1.26");
            } else if (first && p != chosen) {
                check_error(ck, dv->loc, "//tagc:go %s: the package already says //tagc:go %s (at %s)",
                            value, go_profile_name(chosen), check_where(ck, first->loc));
            } else {
                first = dv;
                chosen = p;
            }
        }
    }
    if (first && !ck->prog->go_given)
        ck->prog->go = chosen;
}

void check_directives(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++) {
        ast_file *f = ck->scopes[i].file;
        for (const ast_directive *dv = f->directives; dv; dv = dv->next)
            apply(ck, f, dv);
    }
}
