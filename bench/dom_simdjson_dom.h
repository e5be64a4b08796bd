/*
 * dom_simdjson_dom.h - the operations mappings.h is written against, done
 * with simdjson's DOM API (3.0) the way its documentation shows: one reused
 * dom::parser, parser.parse(buf, len, false) over the padded input (no copy),
 * element::at_key() per field, get_string()/get_int64()/get_double()/
 * get_bool() per value, array and object iterators, error codes rather than
 * exceptions. The tree lives in the parser, reused by the next parse.
 */
#include <simdjson.h>

namespace sjd = simdjson::dom;

struct J {
    sjd::element e;
    bool present;
};
struct JArrIt {
    sjd::array::iterator it;
};
struct JObjIt {
    sjd::object::iterator it;
};

static sjd::parser sj_parser;

static inline J jd_parse(const char *src, size_t len)
{
    J r{};
    r.present = sj_parser.parse(src, len, false).get(r.e) == simdjson::SUCCESS;
    return r;
}
static inline void j_free(J &) {}
static inline bool jd_ok(const J &x) { return x.present; }
static inline bool jd_error(void) { return false; }
static inline J jd_get(J &obj, const char *key)
{
    J r{};
    r.present = obj.e.at_key(key).get(r.e) == simdjson::SUCCESS;
    return r;
}
static inline bool jd_is_null(J &x) { return !x.present || x.e.is_null(); }
static inline bool jd_is_obj(J &x) { return x.present && x.e.is_object(); }
static inline bool jd_is_arr(J &x) { return x.present && x.e.is_array(); }
static inline bool jd_str(J &x, const char **s, size_t *n)
{
    std::string_view sv;
    if (x.e.get_string().get(sv) != simdjson::SUCCESS)
        return false;
    *s = sv.data();
    *n = sv.size();
    return true;
}
static inline bool jd_i64(J &x, int64_t *out) { return x.e.get_int64().get(*out) == simdjson::SUCCESS; }
static inline bool jd_f64(J &x, double *out) { return x.e.get_double().get(*out) == simdjson::SUCCESS; }
static inline bool jd_bool(J &x, bool *out) { return x.e.get_bool().get(*out) == simdjson::SUCCESS; }
/* x is an array or an object (the mappings check first) */
static inline size_t jd_len(J &x)
{
    if (x.e.is_array())
        return sjd::array(x.e).size();
    return sjd::object(x.e).size();
}
static inline void jd_arr_begin(J &arr, JArrIt *it) { it->it = sjd::array(arr.e).begin(); }
static inline J jd_arr_next(JArrIt *it)
{
    J r{*it->it, true};
    ++it->it;
    return r;
}
static inline void jd_obj_begin(J &obj, JObjIt *it) { it->it = sjd::object(obj.e).begin(); }
static inline J jd_obj_next(JObjIt *it, const char **key, size_t *key_len)
{
    std::string_view k = it->it.key();
    J r{it->it.value(), true};
    *key = k.data();
    *key_len = k.size();
    ++it->it;
    return r;
}
