/*
 * dom_jsonc.h - the DOM operations mappings.h is written against, done with
 * json-c 0.16 as documented: one json_tokener reused across documents
 * (json_tokener_reset, depth limit 1000 like tagc's), json_object_object_get_ex
 * per field (a hash lookup), json_object_array_get_idx; building with
 * json_object_object_add_ex (KEY_IS_NEW | CONSTANT_KEY for literal keys),
 * printing with json_object_to_json_string_length (PLAIN, NOSLASHESCAPE) and
 * copying the text into the output buffer. In json-c a JSON null is a NULL
 * json_object pointer.
 */
#include <json.h>

typedef struct json_object *J;
typedef struct { J arr; size_t i, n; } JArrIt;
typedef struct { struct lh_entry *e; } JObjIt;

static struct json_tokener *jsonc_tok;

static inline J jd_parse(const char *src, size_t len)
{
    if (len > INT32_MAX)
        return NULL;
    if (jsonc_tok == NULL && (jsonc_tok = json_tokener_new_ex(1000)) == NULL)
        return NULL;
    json_tokener_reset(jsonc_tok);
    J root = json_tokener_parse_ex(jsonc_tok, src, (int)len);
    if (json_tokener_get_error(jsonc_tok) != json_tokener_success) {
        json_object_put(root);
        return NULL;
    }
    return root;
}
static inline void j_free(J root) { json_object_put(root); }
static inline bool jd_ok(J root) { return root != NULL; }
static inline bool jd_error(void) { return false; }
static inline J jd_get(J obj, const char *key)
{
    J v = NULL;
    json_object_object_get_ex(obj, key, &v);
    return v;
}
static inline bool jd_is_null(J x) { return x == NULL; }
static inline bool jd_is_obj(J x) { return json_object_is_type(x, json_type_object); }
static inline bool jd_is_arr(J x) { return json_object_is_type(x, json_type_array); }
static inline bool jd_str(J x, const char **s, size_t *n)
{
    if (!json_object_is_type(x, json_type_string))
        return false;
    *s = json_object_get_string(x);
    *n = (size_t)json_object_get_string_len(x);
    return true;
}
static inline bool jd_i64(J x, int64_t *out)
{
    if (!json_object_is_type(x, json_type_int))
        return false;
    *out = json_object_get_int64(x);
    return true;
}
static inline bool jd_f64(J x, double *out)
{
    if (!json_object_is_type(x, json_type_double) && !json_object_is_type(x, json_type_int))
        return false;
    *out = json_object_get_double(x);
    return true;
}
static inline bool jd_bool(J x, bool *out)
{
    if (!json_object_is_type(x, json_type_boolean))
        return false;
    *out = json_object_get_boolean(x);
    return true;
}
static inline size_t jd_len(J x)
{
    return json_object_is_type(x, json_type_object) ? (size_t)json_object_object_length(x)
                                                    : json_object_array_length(x);
}
static inline void jd_arr_begin(J arr, JArrIt *it)
{
    it->arr = arr;
    it->i = 0;
    it->n = json_object_array_length(arr);
}
static inline J jd_arr_next(JArrIt *it)
{
    return it->i < it->n ? json_object_array_get_idx(it->arr, it->i++) : NULL;
}
static inline void jd_obj_begin(J obj, JObjIt *it) { it->e = lh_table_head(json_object_get_object(obj)); }
static inline J jd_obj_next(JObjIt *it, const char **key, size_t *key_len)
{
    if (!it->e)
        return NULL;
    J v = (J)lh_entry_v(it->e);
    *key = (const char *)lh_entry_k(it->e);
    *key_len = strlen(*key);
    it->e = lh_entry_next(it->e);
    return v;
}

static inline J je_obj(void) { return json_object_new_object(); }
static inline J je_arr(void) { return json_object_new_array(); }
static inline J je_null(void) { return NULL; }
static inline J je_bool(bool b) { return json_object_new_boolean(b); }
static inline J je_i64(int64_t v) { return json_object_new_int64(v); }
static inline J je_f64(double v) { return json_object_new_double(v); }
static inline J je_str(const char *s, size_t n) { return json_object_new_string_len(s, (int)n); }
static inline void je_set(J obj, const char *literal_key, J v)
{
    json_object_object_add_ex(obj, literal_key, v,
                              JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}
static inline void je_setn(J obj, const char *key, size_t n, J v) { (void)n; json_object_object_add(obj, key, v); }
static inline void je_push(J arr, J v) { json_object_array_add(arr, v); }
static inline int je_print(J root, tagc_buf *out)
{
    size_t n = 0;
    const char *s = json_object_to_json_string_length(
        root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
    if (s == NULL)
        return -1;
    tagc_buf_put(out, s, n);
    return out->err ? -1 : 0;
}
