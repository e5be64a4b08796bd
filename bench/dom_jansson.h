/*
 * dom_jansson.h - the DOM operations mappings.h is written against, done with
 * jansson 2.14 as documented: json_loadb, json_object_get per field (a hash
 * lookup), json_array_get by index; building with json_object_set_new_nocheck
 * (literal keys, known valid UTF-8) and json_stringn (which checks the value's
 * UTF-8, as jansson requires valid strings), printing with json_dumpb
 * (JSON_COMPACT, reals with 17 digits) into the reused output buffer.
 */
#include <jansson.h>

typedef json_t *J;
typedef struct { J arr; size_t i, n; } JArrIt;
typedef struct { J obj; void *it; } JObjIt;

static inline J jd_parse(const char *src, size_t len)
{
    json_error_t e;
    return json_loadb(src, len, 0, &e);
}
static inline void j_free(J root) { json_decref(root); }
static inline bool jd_ok(J root) { return root != NULL; }
static inline bool jd_error(void) { return false; }
static inline J jd_get(J obj, const char *key) { return json_object_get(obj, key); }
static inline bool jd_is_null(J x) { return x == NULL || json_is_null(x); }
static inline bool jd_is_obj(J x) { return json_is_object(x); }
static inline bool jd_is_arr(J x) { return json_is_array(x); }
static inline bool jd_str(J x, const char **s, size_t *n)
{
    if (!json_is_string(x))
        return false;
    *s = json_string_value(x);
    *n = json_string_length(x);
    return true;
}
static inline bool jd_i64(J x, int64_t *out)
{
    if (!json_is_integer(x))
        return false;
    *out = (int64_t)json_integer_value(x);
    return true;
}
static inline bool jd_f64(J x, double *out)
{
    if (!json_is_number(x))
        return false;
    *out = json_number_value(x);
    return true;
}
static inline bool jd_bool(J x, bool *out)
{
    if (!json_is_boolean(x))
        return false;
    *out = json_is_true(x);
    return true;
}
static inline size_t jd_len(J x) { return json_is_object(x) ? json_object_size(x) : json_array_size(x); }
static inline void jd_arr_begin(J arr, JArrIt *it)
{
    it->arr = arr;
    it->i = 0;
    it->n = json_array_size(arr);
}
static inline J jd_arr_next(JArrIt *it) { return it->i < it->n ? json_array_get(it->arr, it->i++) : NULL; }
static inline void jd_obj_begin(J obj, JObjIt *it)
{
    it->obj = obj;
    it->it = json_object_iter(obj);
}
static inline J jd_obj_next(JObjIt *it, const char **key, size_t *key_len)
{
    if (!it->it)
        return NULL;
    J v = json_object_iter_value(it->it);
    *key = json_object_iter_key(it->it);
    *key_len = json_object_iter_key_len(it->it);
    it->it = json_object_iter_next(it->obj, it->it);
    return v;
}

static inline J je_obj(void) { return json_object(); }
static inline J je_arr(void) { return json_array(); }
static inline J je_null(void) { return json_null(); }
static inline J je_bool(bool b) { return json_boolean(b); }
static inline J je_i64(int64_t v) { return json_integer((json_int_t)v); }
static inline J je_f64(double v) { return json_real(v); }
static inline J je_str(const char *s, size_t n) { return json_stringn(s, n); }
static inline void je_set(J obj, const char *literal_key, J v) { json_object_set_new_nocheck(obj, literal_key, v); }
static inline void je_setn(J obj, const char *key, size_t n, J v) { json_object_setn_new(obj, key, n, v); }
static inline void je_push(J arr, J v) { json_array_append_new(arr, v); }
static inline int je_print(J root, tagc_buf *out)
{
    for (;;) {
        size_t room = out->cap - out->len;
        size_t n = json_dumpb(root, (char *)out->data + out->len, room, JSON_COMPACT);
        if (n == 0)
            return -1;
        if (n <= room) {
            out->len += n;
            return 0;
        }
        if (tagc_buf_reserve(out, n) != 0)
            return -1;
    }
}
