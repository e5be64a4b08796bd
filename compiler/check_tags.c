/*
 * check_tags.c - struct tags: Go's reflect.StructTag syntax, checked as
 * strictly as `go vet` checks it (reflect itself silently stops at the first
 * mistake, which would silently drop a json name), then the json and msgpack
 * keys understood.
 */
#include <string.h>

#include "check.h"

/* MARK: - Positions inside a tag */

/* Where byte k of the tag text is in the source, when the tag is a raw string
 * whose text is the source bytes; otherwise the tag's own position. */
static src_loc tag_pos(const ast_field *f, size_t k)
{
    src_loc loc = f->tag_loc;
    const ast_file *file = loc.file;
    if (!file || !file->source || loc.line < 1 || loc.col < 1)
        return loc;
    const char *s = file->source, *end = file->source + file->source_len;
    for (int line = 1; line < loc.line && s < end; s++)
        if (*s == '\n')
            line++;
    s += loc.col - 1;
    size_t n = strlen(f->tag);
    if (s >= end || *s != '`' || (size_t)(end - s) < n + 1 || memcmp(s + 1, f->tag, n) != 0)
        return loc;
    for (size_t i = 0; i < k + 1; i++) { /* + 1: the backquote */
        if (s[i] == '\n') {
            loc.line++;
            loc.col = 1;
        } else {
            loc.col++;
        }
    }
    return loc;
}

/* MARK: - Go string literals */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static size_t put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* strconv.Unquote of a double-quoted s[0..n) (quotes included). The result
 * goes to the pool; *len excludes the NUL. Returns NULL when invalid. */
static char *go_unquote(struct pool *p, const char *s, size_t n, size_t *len)
{
    char *out = pool_alloc(p, n + 1), *o = out;
    for (size_t i = 1; i + 1 < n; i++) {
        char c = s[i];
        if (c == '\n' || c == '"')
            return NULL;
        if (c != '\\') {
            *o++ = c;
            continue;
        }
        if (++i + 1 >= n)
            return NULL;
        c = s[i];
        const char *simple = strchr("abfnrtv\\\"", c);
        if (c && simple) {
            *o++ = "\a\b\f\n\r\t\v\\\""[simple - "abfnrtv\\\""];
            continue;
        }
        int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
        unsigned long v = 0;
        if (digits) {
            for (int d = 0; d < digits; d++) {
                int h = i + 1 + (size_t)d + 1 < n ? hexval(s[i + 1 + (size_t)d]) : -1;
                if (h < 0)
                    return NULL;
                v = v * 16 + (unsigned long)h;
            }
            i += (size_t)digits;
            if (c == 'x') {
                *o++ = (char)v;
            } else {
                if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
                    return NULL;
                o += put_utf8(o, v);
            }
            continue;
        }
        if (c >= '0' && c <= '7') { /* exactly three octal digits, at most \377 */
            for (int d = 0; d < 3; d++) {
                char oc = i + (size_t)d + 1 < n ? s[i + (size_t)d] : 0;
                if (oc < '0' || oc > '7')
                    return NULL;
                v = v * 8 + (unsigned long)(oc - '0');
            }
            if (v > 255)
                return NULL;
            i += 2;
            *o++ = (char)v;
            continue;
        }
        return NULL;
    }
    *o = '\0';
    *len = (size_t)(o - out);
    return out;
}

/* MARK: - The json and msgpack values */

/* encoding/json's isValidTag, with any non-ASCII byte taken for a letter. */
static bool json_name_ok(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c))
            continue;
        return false;
    }
    return true;
}

static bool has_option(const char *opts, const char *want)
{
    size_t n = strlen(want);
    for (const char *s = opts; s && *s;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len == n && memcmp(s, want, n) == 0)
            return true;
        s = comma ? comma + 1 : NULL;
    }
    return false;
}

/* Applies one key's value; `at` is where the value starts in the tag text. */
static void apply_value(checker *ck, ast_field *f, const char *key, const char *val,
                        size_t val_len, size_t at)
{
    bool json = strcmp(key, "json") == 0;
    if (!json && strcmp(key, "msgpack") != 0)
        return; /* other keys are kept in the text and ignored */
    if (strlen(val) != val_len) {
        check_error(ck, tag_pos(f, at), "%s name contains a NUL byte", key);
        return;
    }
    const char *comma = strchr(val, ',');
    const char *opts = comma ? comma + 1 : NULL;
    char *name = pool_strndup(ck->pool, val, comma ? (size_t)(comma - val) : val_len);
    if (opts && strchr(opts, ' '))
        check_error(ck, tag_pos(f, at), "space in %s tag options \"%s\" (Go would not see them)",
                    key, opts);
    tag_info *ti = &f->tags;
    if (json) {
        ti->has_json = true;
        ti->json_skip = strcmp(val, "-") == 0;
        if (!ti->json_skip && name[0] && !json_name_ok(name))
            check_error(ck, tag_pos(f, at),
                        "invalid json name \"%s\" (Go ignores it: use letters, digits, spaces "
                        "and !#$%%&()*+-./:;<=>?@[]^_{|}~)",
                        name);
        ti->json_name = !ti->json_skip && name[0] ? name : NULL;
        ti->json_omitempty = has_option(opts, "omitempty");
        ti->json_string = has_option(opts, "string");
    } else {
        ti->has_msgpack = true;
        ti->msgpack_skip = strcmp(val, "-") == 0;
        ti->msgpack_name = !ti->msgpack_skip && name[0] ? name : NULL;
        ti->msgpack_omitempty = has_option(opts, "omitempty");
    }
}

/* MARK: - The pairs */

void check_parse_tag(checker *ck, ast_field *f)
{
    memset(&f->tags, 0, sizeof f->tags);
    const char *tag = f->tag;
    if (!tag)
        return;
    bool seen_json = false, seen_msgpack = false;
    size_t i = 0, n = strlen(tag);
    for (int pair = 0; i < n; pair++) {
        if (pair > 0 && tag[i] != ' ') {
            check_error(ck, tag_pos(f, i),
                        "malformed struct tag: key:\"value\" pairs must be separated by spaces");
            return;
        }
        while (i < n && tag[i] == ' ')
            i++;
        if (i == n)
            break;
        size_t k = i;
        while (i < n && (unsigned char)tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' &&
               tag[i] != 0x7f)
            i++;
        if (i == k) {
            check_error(ck, tag_pos(f, i), "malformed struct tag: want a key, as in key:\"value\"");
            return;
        }
        char *key = pool_strndup(ck->pool, tag + k, i - k);
        if (i + 1 >= n || tag[i] != ':') {
            check_error(ck, tag_pos(f, i), "malformed struct tag: want ':' after key \"%s\"", key);
            return;
        }
        if (tag[i + 1] != '"') {
            check_error(ck, tag_pos(f, i + 1),
                        "malformed struct tag: the value of \"%s\" must be a double-quoted string",
                        key);
            return;
        }
        size_t q = ++i; /* the opening quote */
        for (i++; i < n && tag[i] != '"'; i++)
            if (tag[i] == '\\')
                i++;
        if (i >= n) {
            check_error(ck, tag_pos(f, q), "malformed struct tag: unterminated value of \"%s\"", key);
            return;
        }
        i++; /* past the closing quote */
        size_t len;
        char *val = go_unquote(ck->pool, tag + q, i - q, &len);
        if (!val) {
            check_error(ck, tag_pos(f, q), "malformed struct tag: invalid escape in value of \"%s\"",
                        key);
            return;
        }
        bool *seen = !strcmp(key, "json") ? &seen_json : !strcmp(key, "msgpack") ? &seen_msgpack
                                                                                  : NULL;
        if (seen && *seen) {
            check_error(ck, tag_pos(f, k),
                        "duplicate key \"%s\" in struct tag (Go uses the first)", key);
            continue;
        }
        if (seen)
            *seen = true;
        apply_value(ck, f, key, val, len, q + 1);
    }
}
