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
    char *out = pool_alloc_uninit(p, n + 1), *o = out;
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
        if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            continue;
        switch (c) { /* the punctuation Go allows */
        case '!': case '#': case '$': case '%': case '&': case '(': case ')': case '*':
        case '+': case '-': case '.': case '/': case ':': case ';': case '<': case '=':
        case '>': case '?': case '@': case '[': case ']': case '^': case '_': case '{':
        case '|': case '}': case '~': case ' ':
            continue;
        default:
            return false;
        }
    }
    return true;
}

/* Whether the comma-separated opts[0..len) include want. */
static bool has_option(const char *opts, size_t len, const char *want)
{
    if (!opts) /* no comma, no options: and NULL + 0 is undefined */
        return false;
    size_t n = strlen(want);
    const char *end = opts + len;
    for (const char *s = opts; s && s < end;) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        size_t seg = comma ? (size_t)(comma - s) : (size_t)(end - s);
        if (seg == n && memcmp(s, want, n) == 0)
            return true;
        s = comma ? comma + 1 : NULL;
    }
    return false;
}

/* The options Go 1.27's encoding/json (on json/v2) honours and Go 1.26 ignores:
 * embed, case:strict, case:ignore, format:... (docs/profiles.md). */
static bool go127_option(const char *s, size_t n)
{
    return (n == 5 && !memcmp(s, "embed", 5)) || (n == 11 && !memcmp(s, "case:strict", 11)) ||
           (n == 11 && !memcmp(s, "case:ignore", 11)) || (n >= 7 && !memcmp(s, "format:", 7));
}

/* `,unknown`: no released Go has it (Go ignores it, and the field is an
 * ordinary member); Go 1.27 collects the members no field takes in a map
 * tagged `json:",embed"`, and so does tagc --go 1.27. */
static void unknown_collector(checker *ck, const ast_field *f, size_t at)
{
    check_warning(ck, tag_pos(f, at), "json tag option \"unknown\" is ignored, as Go ignores it (the "
                  "field is an ordinary member): to collect the members no field takes, give a "
                  "map[string]json.RawMessage field `json:\",embed\"` and generate with --go 1.27, as "
                  "Go 1.27 does");
}

/* Warns about each option of opts[0..len) that is not in known (NULL-ended):
 * Go ignores it, and so does tagc, but a misspelt "omitempyt" should show.
 * `at` is where opts starts in the tag text. */
static void unknown_options(checker *ck, const ast_field *f, const char *key, const char *opts,
                            size_t len, size_t at, const char *const *known, const char *list)
{
    if (!opts) /* no options: and NULL + 0 is undefined */
        return;
    const char *end = opts + len;
    for (const char *s = opts; s && s < end;) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        size_t seg = comma ? (size_t)(comma - s) : (size_t)(end - s);
        bool ok = seg == 0; /* an empty option ("name,") is nothing */
        for (const char *const *k = known; *k && !ok; k++)
            ok = strlen(*k) == seg && memcmp(*k, s, seg) == 0;
        if (!ok && seg == 7 && !memcmp(s, "unknown", 7) && !strcmp(key, "json"))
            unknown_collector(ck, f, at + (size_t)(s - opts));
        else if (!ok && go127_option(s, seg) && !strcmp(key, "json"))
            check_warning(ck, tag_pos(f, at + (size_t)(s - opts)),
                          "json tag option \"%.*s\" is ignored before Go 1.27, as this profile's "
                          "Go ignores it (tagc --go 1.27 honours it)", (int)seg, s);
        else if (!ok)
            check_warning(ck, tag_pos(f, at + (size_t)(s - opts)),
                          "unknown %s tag option \"%.*s\" is ignored (tagc knows %s)", key, (int)seg,
                          s, list);
        s = comma ? comma + 1 : NULL;
    }
}

/* MARK: - Go 1.27's reading of the json value */

/* The length of the Go identifier at s[0..n) (json/v2's isLetterOrDigit;
 * any non-ASCII byte is taken for a letter). */
static size_t ident_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == '_' || (unsigned char)s[i] >= 0x80 || (s[i] >= 'a' && s[i] <= 'z') ||
                     (s[i] >= 'A' && s[i] <= 'Z') || (i > 0 && s[i] >= '0' && s[i] <= '9')))
        i++;
    return i;
}

/* Go 1.27 reads a json tag with json/v2's parseFieldOptions, and its
 * encoding/json ignores the errors that reports: the name is what comes
 * before the first comma; when that holds a backslash, a quote or a
 * backquote, only a Go identifier at its start is the name (`a\b` is "a"),
 * and with none the field keeps its own. Each option is the identifier that
 * starts its comma-separated part (`omitempty x` is omitempty); `case:` and
 * `format:` take the identifier after their colon. `at` is where val starts
 * in the tag text. */
static void apply_json_go127(checker *ck, ast_field *f, const char *val, size_t len, size_t at)
{
    tag_info *ti = &f->tags;
    ti->has_json = true;
    if (len == 1 && val[0] == '-') {
        ti->json_skip = true;
        return;
    }
    const char *comma = memchr(val, ',', len);
    size_t name_len = comma ? (size_t)(comma - val) : len, cut = name_len;
    for (size_t i = 0; i < name_len; i++)
        if (strchr("\\'\"`", val[i])) {
            cut = ident_len(val, name_len);
            if (cut)
                check_warning(ck, tag_pos(f, at), "json name \"%.*s\" is malformed: Go 1.27 reads "
                              "the name \"%.*s\" and ignores the rest",
                              (int)name_len, val, (int)cut, val);
            else
                check_warning(ck, tag_pos(f, at), "json name \"%.*s\" is malformed: Go 1.27 keeps "
                              "the field's name \"%s\"", (int)name_len, val, f->name);
            break;
        }
    ti->json_name = cut ? pool_strndup(ck->pool, val, cut) : NULL;
    bool embed = false, seen_case = false;
    for (size_t i = name_len; i < len;) {
        size_t start = ++i; /* past the comma */
        const char *next = memchr(val + i, ',', len - i);
        size_t end = next ? (size_t)(next - val) : len;
        size_t n = ident_len(val + i, end - i);
        const char *opt = val + i;
        i = end;
        if (n == 0 && end == start)
            continue; /* an empty option ("name,") is nothing */
        size_t rest = n; /* what follows the option's identifier in its part */
        if (n == 4 && !memcmp(opt, "case", 4) && rest < end - start && opt[rest] == ':') {
            size_t v = ident_len(opt + rest + 1, end - start - rest - 1);
            if (v == 6 && !memcmp(opt + rest + 1, "strict", 6))
                ti->json_case_strict = true;
            else if (!(v == 6 && !memcmp(opt + rest + 1, "ignore", 6))) /* the default of v1 */
                check_warning(ck, tag_pos(f, at + start), "json tag option \"%.*s\": Go 1.27 knows "
                              "case:strict and case:ignore, and ignores it",
                              (int)(end - start), opt);
            if (seen_case)
                check_error(ck, tag_pos(f, at + start), "a second case: option (Go 1.27 then "
                            "folds the name's case whatever either says): keep one");
            seen_case = true;
            rest += 1 + v;
        } else if (n == 6 && !memcmp(opt, "format", 6) && rest < end - start && opt[rest] == ':') {
            check_error(ck, tag_pos(f, at + start),
                        "json tag option \"%.*s\": Go 1.27's encoding/json fails to marshal a "
                        "struct with a format: option; drop it", (int)(end - start), opt);
            break; /* a quoted format value may hold commas */
        } else if (n == 9 && !memcmp(opt, "omitempty", 9)) {
            ti->json_omitempty = true;
        } else if (n == 8 && !memcmp(opt, "omitzero", 8)) {
            ti->json_omitzero = true;
        } else if (n == 6 && !memcmp(opt, "string", 6)) {
            ti->json_string = true;
        } else if (n == 5 && !memcmp(opt, "embed", 5)) {
            embed = true;
        } else if (n == 7 && !memcmp(opt, "unknown", 7)) {
            unknown_collector(ck, f, at + start);
        } else if (n == 6 && !memcmp(opt, "inline", 6)) {
            ti->json_inline = true;
        } else if (n == 8 && !memcmp(opt, "noinline", 8)) {
            ti->json_noinline = true;
        } else {
            check_warning(ck, tag_pos(f, at + start), "unknown json tag option \"%.*s\" is ignored "
                          "(tagc --go 1.27 knows omitempty, omitzero, string, embed, case:strict, "
                          "case:ignore, inline, noinline)", (int)(end - start), opt);
            continue;
        }
        if (rest < end - start)
            check_warning(ck, tag_pos(f, at + start + rest), "json tag option \"%.*s\" is "
                          "malformed: Go 1.27 reads \"%.*s\" and ignores the rest",
                          (int)(end - start), opt, (int)rest, opt);
    }
    /* with a name, Go 1.27 ignores embed (the field is an ordinary one) */
    ti->json_embed = embed && !ti->json_name;
    if (embed && ti->json_name)
        check_warning(ck, tag_pos(f, at), "the embed option with a name (\"%s\") is ignored by "
                      "Go 1.27: write `json:\",embed\"` to inline the field's members", ti->json_name);
}

/* Applies the value val[0..val_len) of the json or msgpack key; `at` is where
 * the value starts in the tag text. */
static void apply_value(checker *ck, ast_field *f, bool json, const char *val, size_t val_len,
                        size_t at)
{
    const char *key = json ? "json" : "msgpack";
    if (memchr(val, '\0', val_len)) {
        check_error(ck, tag_pos(f, at), "%s name contains a NUL byte", key);
        return;
    }
    if (json && ck->prog->go == GO_1_27) {
        apply_json_go127(ck, f, val, val_len, at);
        return;
    }
    const char *comma = memchr(val, ',', val_len);
    const char *opts = comma ? comma + 1 : NULL;
    size_t opts_len = comma ? val_len - (size_t)(opts - val) : 0;
    char *name = pool_strndup(ck->pool, val, comma ? (size_t)(comma - val) : val_len);
    bool spaced = opts && memchr(opts, ' ', opts_len); /* an error: no warnings then */
    if (spaced)
        check_error(ck, tag_pos(f, at), "space in %s tag options \"%.*s\" (Go would not see them)",
                    key, (int)opts_len, opts);
    tag_info *ti = &f->tags;
    bool skip = val_len == 1 && val[0] == '-';
    if (json) {
        ti->has_json = true;
        ti->json_skip = skip;
        if (!ti->json_skip && name[0] && !json_name_ok(name))
            check_error(ck, tag_pos(f, at),
                        "invalid json name \"%s\" (Go ignores it: use letters, digits, spaces "
                        "and !#$%%&()*+-./:;<=>?@[]^_{|}~)",
                        name);
        ti->json_name = !ti->json_skip && name[0] ? name : NULL;
        ti->json_omitempty = has_option(opts, opts_len, "omitempty");
        ti->json_omitzero = has_option(opts, opts_len, "omitzero");
        if (ti->json_omitzero && ck->prog->go == GO_1_19) {
            check_warning(ck, tag_pos(f, at), "Go 1.19 has no omitzero (Go 1.24 added it): the "
                                              "field is always written, as Go 1.19 does (tagc --go 1.19)");
            ti->json_omitzero = false;
        }
        ti->json_string = has_option(opts, opts_len, "string");
        ti->json_inline = has_option(opts, opts_len, "inline");
        ti->json_noinline = has_option(opts, opts_len, "noinline");
        static const char *const known[] = {"omitempty", "omitzero", "string", "inline", "noinline",
                                            NULL};
        if (!spaced)
            unknown_options(ck, f, key, opts, opts_len, at + (size_t)(opts ? opts - val : 0), known,
                            "omitempty, omitzero, string, inline, noinline");
    } else {
        if (val_len == 0)
            return; /* msgpack:"" : vmihailenco/msgpack falls back to the json tag */
        ti->has_msgpack = true;
        ti->msgpack_skip = skip;
        ti->msgpack_name = !ti->msgpack_skip && name[0] ? name : NULL;
        ti->msgpack_omitempty = has_option(opts, opts_len, "omitempty");
        ti->msgpack_omitzero = has_option(opts, opts_len, "omitzero");
        ti->msgpack_inline = has_option(opts, opts_len, "inline");
        ti->msgpack_noinline = has_option(opts, opts_len, "noinline");
        static const char *const known[] = {"omitempty", "omitzero", "inline", "noinline", NULL};
        if (!spaced)
            unknown_options(ck, f, key, opts, opts_len, at + (size_t)(opts ? opts - val : 0), known,
                            "omitempty, omitzero, inline, noinline");
    }
}

static bool key_is(const char *key, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(key, want, len) == 0;
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
        /* the key is tag[k..k+klen): printable, so "%.*s" shows it whole */
        const char *key = tag + k;
        int klen = (int)(i - k);
        if (i + 1 >= n || tag[i] != ':') {
            check_error(ck, tag_pos(f, i), "malformed struct tag: want ':' after key \"%.*s\"",
                        klen, key);
            return;
        }
        if (tag[i + 1] != '"') {
            check_error(ck, tag_pos(f, i + 1),
                        "malformed struct tag: the value of \"%.*s\" must be a double-quoted string",
                        klen, key);
            return;
        }
        size_t q = ++i; /* the opening quote */
        bool plain = true; /* no escape, no newline: the value is its spelling */
        for (i++; i < n;) {
            i += strcspn(tag + i, "\"\\\n"); /* stops at the NUL at n too */
            if (i >= n || tag[i] == '"')
                break;
            plain = false;
            i += tag[i] == '\\' ? 2 : 1; /* an escape takes the next byte */
        }
        if (i >= n) {
            check_error(ck, tag_pos(f, q), "malformed struct tag: unterminated value of \"%.*s\"",
                        klen, key);
            return;
        }
        i++; /* past the closing quote */
        size_t len = i - q - 2;
        const char *val = plain ? tag + q + 1 : go_unquote(ck->pool, tag + q, i - q, &len);
        if (!val) {
            check_error(ck, tag_pos(f, q), "malformed struct tag: invalid escape in value of \"%.*s\"",
                        klen, key);
            return;
        }
        bool json = key_is(key, (size_t)klen, "json");
        bool *seen = json ? &seen_json : key_is(key, (size_t)klen, "msgpack") ? &seen_msgpack : NULL;
        if (seen && *seen) {
            check_error(ck, tag_pos(f, k),
                        "duplicate key \"%.*s\" in struct tag (Go uses the first)", klen, key);
            continue;
        }
        if (!seen)
            continue; /* other keys are kept in the text and ignored */
        *seen = true;
        apply_value(ck, f, json, val, len, q + 1);
    }
}
