/*
 * mapfile.c - the --map files: what a type of a Go package tagc does not read
 * is on the wire, written once by the user.
 *
 *   # comment
 *   k8s.io/apimachinery/pkg/api/resource.Quantity  string
 *   github.com/google/uuid.UUID                    string
 *   k8s.io/apimachinery/pkg/util/intstr.IntOrString json.RawMessage
 *
 * One mapping a line: the import path and type name joined by the last '.'
 * (after the last '/'), then the wire type: a Go builtin (bool, string, int,
 * int8..int64, uint..uint64, byte, rune, float32, float64, any), time.Time,
 * time.Duration or json.RawMessage; or `codec` and the settings of a
 * //tagc:codec comment (check_codec.c), for C functions of the user's:
 *
 *   github.com/google/go-github/v50/github.Timestamp codec ctype=tagc_time json=gh_ts_json wire=string|integer
 */
#include "pipeline.h"
#include "oom.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wire_types[] = {
    "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "byte", "rune", "float32", "float64", "any", "interface{}",
    "time.Time", "time.Duration", "json.RawMessage",
};

static bool known_wire(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof wire_types / sizeof *wire_types; i++)
        if (strlen(wire_types[i]) == n && strncmp(wire_types[i], s, n) == 0)
            return true;
    return false;
}

static size_t span(const char *p, const char *end, bool space)
{
    size_t n = 0;
    while (p + n < end && (p[n] == ' ' || p[n] == '\t' || p[n] == '\r') == space)
        n++;
    return n;
}

static void parse_map(ast_program *prog, ast_file *f, diag *dg)
{
    const char *p = f->source, *end = f->source + f->source_len;
    for (int line = 1; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *s = p + span(p, eol, true);
        p = eol + 1;
        if (s == eol || *s == '#' || (eol - s >= 2 && s[0] == '/' && s[1] == '/'))
            continue;
        const char *line_start = s;
        while (line_start > f->source && line_start[-1] != '\n')
            line_start--;
        src_loc at = { f, line, (int)(s - line_start) + 1 };
        size_t name_len = span(s, eol, false);
        const char *w = s + name_len;
        w += span(w, eol, true);
        size_t wire_len = span(w, eol, false);
        const char *rest = w + wire_len;
        rest += span(rest, eol, true);
        const char *dot = NULL; /* the last '.' after the last '/' */
        for (const char *q = s; q < s + name_len; q++) {
            if (*q == '/')
                dot = NULL;
            else if (*q == '.')
                dot = q;
        }
        if (!dot || dot == s || dot + 1 == s + name_len) {
            diag_error(dg, at, "expected IMPORT/PATH.Type and a wire type, as in "
                               "\"github.com/google/uuid.UUID string\"");
            continue;
        }
        src_loc wat = { f, line, (int)(w - line_start) + 1 };
        if (wire_len == 0) {
            diag_error(dg, wat, "missing the wire type of %.*s (string, int64, bool, float64, "
                                "time.Time, json.RawMessage...)", (int)name_len, s);
            continue;
        }
        bool codec = wire_len == 5 && strncmp(w, "codec", 5) == 0;
        if (!codec && !known_wire(w, wire_len)) {
            diag_error(dg, wat, "unknown wire type \"%.*s\" (want a Go builtin such as string or "
                                "int64, time.Time, time.Duration, json.RawMessage, or codec)",
                       (int)wire_len, w);
            continue;
        }
        if (!codec && rest < eol && *rest != '#') {
            src_loc rat = { f, line, (int)(rest - line_start) + 1 };
            diag_error(dg, rat, "unexpected text after the wire type");
            continue;
        }
        type_map *m = pool_alloc(prog->pool, sizeof *m);
        m->path = pool_strndup(prog->pool, s, (size_t)(dot - s));
        m->name = pool_strndup(prog->pool, dot + 1, (size_t)(s + name_len - dot - 1));
        m->wire = pool_strndup(prog->pool, w, wire_len);
        if (codec) /* its settings: the rest of the line */
            m->codec = pool_strndup(prog->pool, rest, (size_t)(eol - rest));
        m->loc = at;
        for (const type_map *o = prog->maps; o; o = o->next)
            if (!strcmp(o->path, m->path) && !strcmp(o->name, m->name)) {
                diag_error(dg, at, "%s.%s is mapped twice", m->path, m->name);
                break;
            }
        m->next = prog->maps;
        prog->maps = m;
    }
}

int load_maps(ast_program *prog, diag *dg)
{
    int before = dg->errors;
    ast_file **tail = &prog->map_files;
    for (const char *const *path = prog->map_paths; path && *path; path++) {
        FILE *fp = fopen(*path, "rb");
        if (!fp && errno == ENOMEM)
            tagc_out_of_memory();
        if (!fp) {
            diag_error_file(dg, *path, "cannot open mapping file");
            continue;
        }
        strbuf sb;
        sb_init(&sb);
        char buf[4096];
        for (size_t n; (n = fread(buf, 1, sizeof buf, fp)) > 0;)
            sb_put(&sb, buf, n);
        fclose(fp);
        ast_file *f = pool_alloc(prog->pool, sizeof *f);
        f->path = f->display = pool_strdup(prog->pool, *path);
        f->source = pool_strndup(prog->pool, sb.data ? sb.data : "", sb.len);
        f->source_len = sb.len;
        sb_free(&sb);
        *tail = f;
        tail = &f->next;
        parse_map(prog, f, dg);
    }
    return dg->errors - before;
}

const type_map *find_map(const ast_program *prog, const char *path, const char *name)
{
    for (type_map *m = prog->maps; m; m = m->next)
        if (!strcmp(m->path, path) && !strcmp(m->name, name)) {
            m->used = true;
            return m;
        }
    return NULL;
}
