/*
 * depfile.c - a Make-style depfile: `out.h out.c: in1 in2 ...`, then an empty
 * rule per input so make and ninja do not fail when a schema is deleted.
 * Accepted by GNU make's include and by ninja/Meson's depfile parser.
 */
#include "pipeline.h"

/* Make's escapes: a space is `\ `, `$` is `$$`, `#` is `\#`. */
static void put_escaped(strbuf *sb, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '#')
            sb_put(sb, "\\", 1);
        else if (*p == '$')
            sb_put(sb, "$", 1);
        sb_put(sb, p, 1);
    }
}

/* The inputs in a stable order: the root files, then the files they import,
 * then the mapping files. */
static void put_inputs(strbuf *sb, const ast_program *prog, const char *before, const char *after)
{
    for (int roots = 1; roots >= 0; roots--) {
        for (const ast_file *f = prog->files; f; f = f->next) {
            if (f->is_root != (roots == 1))
                continue;
            sb_puts(sb, before);
            put_escaped(sb, f->path);
            sb_puts(sb, after);
        }
    }
    for (const ast_file *f = prog->map_files; f; f = f->next) { /* --map files are read too */
        sb_puts(sb, before);
        put_escaped(sb, f->path);
        sb_puts(sb, after);
    }
}

int write_depfile(const char *path, const char *const *targets, int ntargets,
                  const ast_program *prog, diag *dg)
{
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < ntargets; i++) {
        if (i > 0)
            sb_puts(&sb, " ");
        put_escaped(&sb, targets[i]);
    }
    sb_puts(&sb, ":");
    put_inputs(&sb, prog, " ", "");
    sb_puts(&sb, "\n");
    put_inputs(&sb, prog, "", ":\n");
    int rc = emit_file(path, sb.data, sb.len, dg);
    sb_free(&sb);
    return rc;
}
