/*
 * dom_cjson.h - the DOM operations mappings.h is written against, done with
 * cJSON 1.7 the way its documentation shows: cJSON_ParseWithLength,
 * cJSON_GetObjectItemCaseSensitive per field, cJSON_ArrayForEach-style walks;
 * building with cJSON_Create* and cJSON_AddItemToObjectCS (literal keys, not
 * copied), printing with cJSON_PrintPreallocated into the reused output buffer.
 *
 * cJSON keeps numbers as doubles only: an int64 above 2^53 in magnitude is
 * rounded when read (nothing can be done about it with cJSON); integers of 16
 * digits or more are written as raw numbers (cJSON_CreateRaw) so that what
 * cJSON writes stays exact.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

typedef cJSON *J;
typedef struct { cJSON *cur; } JArrIt;
typedef struct { cJSON *cur; } JObjIt;

static inline J jd_parse(const char *src, size_t len) { return cJSON_ParseWithLength(src, len); }
static inline void j_free(J root) { cJSON_Delete(root); }
static inline bool jd_ok(J root) { return root != NULL; }
static inline bool jd_error(void) { return false; }
static inline J jd_get(J obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }
static inline bool jd_is_null(J x) { return x == NULL || cJSON_IsNull(x); }
static inline bool jd_is_obj(J x) { return cJSON_IsObject(x); }
static inline bool jd_is_arr(J x) { return cJSON_IsArray(x); }
static inline bool jd_str(J x, const char **s, size_t *n)
{
    if (!cJSON_IsString(x))
        return false;
    *s = x->valuestring;
    *n = strlen(x->valuestring);
    return true;
}
static inline bool jd_i64(J x, int64_t *out)
{
    if (!cJSON_IsNumber(x))
        return false;
    double d = x->valuedouble;
    if (d != trunc(d) || d < -9223372036854775808.0 || d > 9223372036854775808.0)
        return false;
    *out = d >= 9223372036854775808.0 ? INT64_MAX : (int64_t)d;
    return true;
}
static inline bool jd_f64(J x, double *out)
{
    if (!cJSON_IsNumber(x))
        return false;
    *out = x->valuedouble;
    return true;
}
static inline bool jd_bool(J x, bool *out)
{
    if (!cJSON_IsBool(x))
        return false;
    *out = cJSON_IsTrue(x);
    return true;
}
static inline size_t jd_len(J x) { return (size_t)cJSON_GetArraySize(x); }
static inline void jd_arr_begin(J arr, JArrIt *it) { it->cur = arr->child; }
static inline J jd_arr_next(JArrIt *it)
{
    J c = it->cur;
    it->cur = c ? c->next : NULL;
    return c;
}
static inline void jd_obj_begin(J obj, JObjIt *it) { it->cur = obj->child; }
static inline J jd_obj_next(JObjIt *it, const char **key, size_t *key_len)
{
    J c = it->cur;
    if (c) {
        it->cur = c->next;
        *key = c->string;
        *key_len = strlen(c->string);
    }
    return c;
}

static inline J je_obj(void) { return cJSON_CreateObject(); }
static inline J je_arr(void) { return cJSON_CreateArray(); }
static inline J je_null(void) { return cJSON_CreateNull(); }
static inline J je_bool(bool b) { return cJSON_CreateBool(b); }
static inline J je_i64(int64_t v)
{
    /* cJSON prints numbers with 15 significant digits when that reads back
     * within its tolerance: longer integers would come out rounded, in exponent
     * form, which Go (and tagc) reject for an integer field. */
    if (v > -INT64_C(1000000000000000) && v < INT64_C(1000000000000000))
        return cJSON_CreateNumber((double)v);
    char text[24];
    snprintf(text, sizeof text, "%" PRId64, v);
    return cJSON_CreateRaw(text);
}
static inline J je_f64(double v) { return cJSON_CreateNumber(v); }
/* s is NUL-terminated (tagc_str always is) */
static inline J je_str(const char *s, size_t n) { (void)n; return cJSON_CreateString(s); }
static inline void je_set(J obj, const char *literal_key, J v) { cJSON_AddItemToObjectCS(obj, literal_key, v); }
static inline void je_setn(J obj, const char *key, size_t n, J v) { (void)n; cJSON_AddItemToObject(obj, key, v); }
static inline void je_push(J arr, J v) { cJSON_AddItemToArray(arr, v); }
static inline int je_print(J root, tagc_buf *out)
{
    for (;;) {
        size_t room = out->cap - out->len;
        if (room >= 64 && room < INT32_MAX &&
            cJSON_PrintPreallocated(root, (char *)out->data + out->len, (int)room, 0)) {
            out->len += strlen((char *)out->data + out->len);
            return 0;
        }
        if (tagc_buf_reserve(out, room * 2 + 4096) != 0)
            return -1;
    }
}
