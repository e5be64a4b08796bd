/*
 * gen_codec.c - the generated side of a `//tagc:codec` type (check_codec.c):
 * the header includes the user's header, names the C type and declares the
 * user's functions; the type's own _read_json, _write_json, _read_msgpack and
 * _write_msgpack call them, so that every use of the type (a field, a slice's
 * element, a map's value, a pointer's target) goes through the user's code the
 * way every other named type goes through its generated code.
 *
 * A reader that fails without saying why (it returned a code and set no error)
 * gets an error at the value it was given; either way the callers add the path
 * on the way out, as for any other value.
 */
#include <string.h>

#include "gen.h"

void gen_codec_includes(gen *g)
{
    for (ast_decl *d = g->file->decls; d; d = d->next) {
        const type_codec *c = d->codec;
        if (!c || !c->include)
            continue;
        bool dup = false;
        for (ast_decl *e = g->file->decls; e != d && !dup; e = e->next)
            dup = e->codec && e->codec->include && !strcmp(e->codec->include, c->include);
        if (dup)
            continue;
        if (c->include[0] == '<')
            emit(g, 0, "#include %s", c->include);
        else
            emit(g, 0, "#include \"%s\"", c->include);
    }
}

void gen_codec_typedef(gen *g, const ast_decl *d)
{
    emit(g, 0, "/* %s: read and written by C functions of the user's (//tagc:codec, wire %s) */",
         d->name, d->codec->wire_text);
    emit(g, 0, "typedef %s %s;", d->codec->ctype, d->c_name);
    emit(g, 0, "%s", "");
}

void gen_codec_prototypes(gen *g)
{
    bool any = false;
    for (ast_decl *d = g->file->decls; d; d = d->next) {
        const type_codec *c = d->codec;
        if (!c)
            continue;
        if (!any)
            emit(g, 0, "/* MARK: - Custom codecs (//tagc:codec): the user's functions, called by the generated code */");
        emit(g, 0, "%s", "");
        any = true;
        const char *n = d->c_name;
        emit(g, 0, "/* %s. A reader reads one value at d->p (null included, as Go's UnmarshalJSON",
             d->name);
        emit(g, 0, " * does) and returns 0, or a TAGC_E_* code after tagc_json_fail; a writer writes one");
        emit(g, 0, " * value, or calls tagc_buf_fail(out, TAGC_E_INVALID). */");
        if (c->json && g->opts->json) {
            emit(g, 0, "int %s_read(tagc_json_dec *d, %s *v);", c->json, n);
            emit(g, 0, "void %s_write(tagc_buf *out, const %s *v, const tagc_json_opts *o);", c->json, n);
        }
        if (c->msgpack && g->opts->msgpack) {
            emit(g, 0, "int %s_read(tagc_mp_dec *d, %s *v);", c->msgpack, n);
            emit(g, 0, "void %s_write(tagc_buf *out, const %s *v);", c->msgpack, n);
        }
        if (c->equal)
            emit(g, 0, "bool %s(const %s *a, const %s *b);", c->equal, n, n);
        if (c->is_zero)
            emit(g, 0, "bool %s(const %s *v);", c->is_zero, n);
    }
    if (any)
        emit(g, 0, "%s", "");
}

/* The reader: the user's, with an error at the value when it set none. */
static void codec_reader(gen *g, const ast_decl *d, const char *user, bool msgpack)
{
    const char *n = d->c_name;
    const char *dec = msgpack ? "tagc_mp_dec" : "tagc_json_dec";
    emit(g, 0, "int %s_read_%s(%s *d, %s *v)", n, msgpack ? "msgpack" : "json", dec, n);
    emit(g, 0, "{");
    if (!user) {
        emit(g, 1, "(void)v;");
        emit(g, 1, "return tagc_json_fail(d, TAGC_E_TYPE, \"%s has no %s codec (//tagc:codec %s=)\");",
             d->name, msgpack ? "MessagePack" : "JSON", msgpack ? "msgpack" : "json");
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    emit(g, 1, "const char *at;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    if (!msgpack)
        emit(g, 1, "tagc_json_ws(d);");
    emit(g, 1, "at = d->p;");
    emit(g, 1, "if ((rc = %s_read(d, v)) == 0 || d->err->code != 0)", user);
    emit(g, 2, "return rc;");
    emit(g, 1, "d->p = at; /* it said nothing: the error is at its value */");
    emit(g, 1, "return tagc_json_fail(d, rc < 0 && rc >= TAGC_E_IO ? rc : TAGC_E_TYPE,");
    emit(g, 1, "                      \"%s: %s_read failed\");", d->name, user);
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

void gen_codec_json(gen *g, const ast_decl *d)
{
    const type_codec *c = d->codec;
    const char *n = d->c_name;
    emit(g, 0, "void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", n, n);
    emit(g, 0, "{");
    if (c->json) {
        emit(g, 1, "%s_write(out, v, o);", c->json);
    } else {
        emit(g, 1, "(void)v;");
        emit(g, 1, "(void)o;");
        emit(g, 1, "tagc_buf_fail(out, TAGC_E_INVALID); /* no json= codec */");
    }
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    codec_reader(g, d, c->json, false);
}

void gen_codec_msgpack(gen *g, const ast_decl *d)
{
    const type_codec *c = d->codec;
    const char *n = d->c_name;
    emit(g, 0, "void %s_write_msgpack(tagc_buf *out, const %s *v)", n, n);
    emit(g, 0, "{");
    if (c->msgpack) {
        emit(g, 1, "%s_write(out, v);", c->msgpack);
    } else {
        emit(g, 1, "(void)v;");
        emit(g, 1, "tagc_buf_fail(out, TAGC_E_INVALID); /* no msgpack= codec */");
    }
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    codec_reader(g, d, c->msgpack, true);
}

void gen_codec_equal_body(gen *g, const ast_decl *d)
{
    if (d->codec->equal)
        emit(g, 1, "return %s(a, b);", d->codec->equal);
    else
        emit(g, 1, "return memcmp(a, b, sizeof *a) == 0; /* no equal= function: the bytes */");
}

const char *gen_codec_zero_cond(gen *g, const ast_decl *d, const char *lv)
{
    if (d->codec->is_zero)
        return pool_cat(g->pool, d->codec->is_zero, "(&", lv, ")");
    return pool_cat(g->pool, "tagc_mem_is_zero(&", lv, ", sizeof ", lv, ")");
}
