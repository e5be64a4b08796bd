/*
 * dom_simdjson_ondemand.h - the operations mappings.h is written against, done
 * with simdjson's On-Demand API (3.0) the way its documentation shows: one
 * reused ondemand::parser, parser.iterate() over the padded input (no copy),
 * find_field_unordered() per field, count_elements()/count_fields() before
 * iterating (the mappings size each slice first), get_string()/get_int64()/
 * get_double()/get_bool() per value, error codes rather than exceptions.
 *
 * On-Demand parses as the document is read: a J is an ondemand::value, the
 * document (root: every workload's is an object, read with the document's own
 * find_field_unordered) or absent; and an error met while reading one (other than a missing field) is
 * kept in sj_err, which jd_error() reports when the decode ends.
 */
#include <simdjson.h>

namespace sjo = simdjson::ondemand;

struct J {
    sjo::value v;
    bool present;
    bool root; /* the document itself (On-Demand reads it through sj_doc, not a value) */
};
struct JArrIt {
    sjo::array arr;
    sjo::array_iterator it;
    bool pending; /* it is at an element already handed out: step past it first */
    bool failed;
};
struct JObjIt {
    sjo::object_iterator it;
    bool started;
};

static sjo::parser sj_parser;
static sjo::document sj_doc;
static simdjson::error_code sj_err;

static inline bool sj_fail(simdjson::error_code e)
{
    if (e != simdjson::SUCCESS && sj_err == simdjson::SUCCESS)
        sj_err = e;
    return e != simdjson::SUCCESS;
}

static inline J jd_parse(const char *src, size_t len)
{
    J r{};
    sj_err = simdjson::SUCCESS;
    if (sj_fail(sj_parser.iterate(simdjson::padded_string_view(src, len, len + simdjson::SIMDJSON_PADDING))
                    .get(sj_doc)))
        return r;
    r.present = r.root = true;
    return r;
}
static inline void j_free(J &) {}
static inline bool jd_ok(const J &x) { return x.present; }
static inline bool jd_error(void) { return sj_err != simdjson::SUCCESS; }
static inline J jd_get(J &obj, const char *key)
{
    J r{};
    simdjson::error_code e = obj.root ? sj_doc.find_field_unordered(key).get(r.v)
                                      : obj.v.find_field_unordered(key).get(r.v);
    if (e == simdjson::SUCCESS)
        r.present = true;
    else if (e != simdjson::NO_SUCH_FIELD)
        sj_fail(e);
    return r;
}
static inline bool jd_is_null(J &x)
{
    bool null = false;
    if (x.root)
        return sj_doc.is_null().get(null) == simdjson::SUCCESS && null;
    return !x.present || (!sj_fail(x.v.is_null().get(null)) && null);
}
static inline bool jd_type_is(J &x, sjo::json_type want)
{
    sjo::json_type t;
    if (x.root)
        return !sj_fail(sj_doc.type().get(t)) && t == want;
    return x.present && !sj_fail(x.v.type().get(t)) && t == want;
}
static inline bool jd_is_obj(J &x) { return jd_type_is(x, sjo::json_type::object); }
static inline bool jd_is_arr(J &x) { return jd_type_is(x, sjo::json_type::array); }
static inline bool jd_str(J &x, const char **s, size_t *n)
{
    std::string_view sv;
    if (x.v.get_string().get(sv) != simdjson::SUCCESS)
        return false;
    *s = sv.data();
    *n = sv.size();
    return true;
}
static inline bool jd_i64(J &x, int64_t *out) { return x.v.get_int64().get(*out) == simdjson::SUCCESS; }
static inline bool jd_f64(J &x, double *out) { return x.v.get_double().get(*out) == simdjson::SUCCESS; }
static inline bool jd_bool(J &x, bool *out) { return x.v.get_bool().get(*out) == simdjson::SUCCESS; }
/* x is an array or an object (the mappings check first) */
static inline size_t jd_len(J &x)
{
    size_t n = 0;
    if (jd_is_arr(x))
        sj_fail(x.v.count_elements().get(n));
    else
        sj_fail(x.v.count_fields().get(n));
    return n;
}
/* Arrays are read in one pass (mappings.h: BENCH_ONE_PASS_ARRAYS): a loop of
 * jd_arr_more() and jd_arr_next(), as a range-for over an ondemand::array does
 * (the iterator steps only once the element handed out has been read). */
#define BENCH_ONE_PASS_ARRAYS
static inline void jd_arr_begin(J &arr, JArrIt *it)
{
    it->pending = false;
    it->failed = sj_fail(arr.v.get_array().get(it->arr)) || sj_fail(it->arr.begin().get(it->it));
}
static inline void sj_arr_step(JArrIt *it)
{
    if (it->pending) {
        ++it->it;
        it->pending = false;
    }
}
static inline bool jd_arr_more(JArrIt *it)
{
    sjo::array_iterator end;
    if (it->failed)
        return false;
    sj_arr_step(it);
    return !sj_fail(it->arr.end().get(end)) && it->it != end;
}
static inline J jd_arr_next(JArrIt *it)
{
    J r{};
    if (it->failed)
        return r;
    sj_arr_step(it);
    r.present = !sj_fail((*it->it).get(r.v));
    it->pending = true;
    return r;
}
static inline void jd_obj_begin(J &obj, JObjIt *it)
{
    sjo::object o;
    it->started = false;
    if (!sj_fail(obj.v.get_object().get(o)))
        sj_fail(o.begin().get(it->it));
}
static inline J jd_obj_next(JObjIt *it, const char **key, size_t *key_len)
{
    J r{};
    sjo::field f;
    std::string_view k;
    if (it->started)
        ++it->it;
    it->started = true;
    if (sj_fail((*it->it).get(f)) || sj_fail(f.unescaped_key().get(k)))
        return r;
    *key = k.data();
    *key_len = k.size();
    r.v = f.value();
    r.present = true;
    return r;
}
