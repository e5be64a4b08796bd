/*
 * roundtrip.cpp - a C++17 program that includes every generated header, builds
 * values the C++ way (TAGC_STR, TAGC_EMPTY without casts), and round-trips them
 * through the generated JSON and MessagePack codecs (linked as C).
 */
#include <cstdio>
#include <cstring>
#include <string>

#include "all_generated.h" /* every header of generated/ (meson.build) */
#include "keywords.tagc.h"
#include "limits.tagc.h"

static int failures = 0;

static void expect_eq(const char *what, const std::string &got, const std::string &want)
{
    if (got != want) {
        std::fprintf(stderr, "FAIL %s:\n  got  %s\n  want %s\n", what, got.c_str(), want.c_str());
        failures++;
    }
}

static std::string text(const tagc_buf &b)
{
    return std::string(reinterpret_cast<const char *>(b.data), b.len);
}

/* An order built by hand: string literals and an empty non-nil slice, no casts. */
static void order_by_hand()
{
    tagc_str tags[] = {TAGC_STR("red"), tagc_str_from_cstr("big")};
    order_item items[2] = {};
    items[0].sku = TAGC_STR("A-1");
    items[0].qty = 2;
    items[0].tags.ptr = tags;
    items[0].tags.len = 2;
    items[1].sku = TAGC_STR("B-7");
    items[1].tags.ptr = TAGC_EMPTY; /* [] rather than null */
    order_order o = {};
    o.id = 42;
    o.status = order_status_of(ORDER_STATUS_PAID);
    o.items.ptr = items;
    o.items.len = 2;
    o.currency = TAGC_STR("EUR");

    tagc_buf out;
    tagc_buf_init(&out);
    if (order_order_encode_json(&o, &out, nullptr) != 0) {
        std::fprintf(stderr, "FAIL: order_order_encode_json\n");
        failures++;
    }
    std::string json = text(out);
    expect_eq("order by hand, item 1", json.substr(json.find("\"items\":[{"), 39),
              "\"items\":[{\"sku\":\"A-1\",\"name\":\"\",\"qty\":2");
    if (json.find("\"tags\":[\"red\",\"big\"]") == std::string::npos ||
        json.find("\"tags\":[],") == std::string::npos) {
        std::fprintf(stderr, "FAIL: tags in %s\n", json.c_str());
        failures++;
    }

    /* and back */
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_error err;
    order_order back;
    if (order_order_decode_json(&back, json.data(), json.size(), &arena, &err, nullptr) != 0 ||
        !order_order_equal(&o, &back)) {
        std::fprintf(stderr, "FAIL: order does not round-trip: %s\n", err.message);
        failures++;
    }
    tagc_arena_free(&arena);
    tagc_buf_free(&out);
}

/* A document whose keys are C and C++ keywords, decoded and encoded again. */
static void keywords_round_trip()
{
    static const char doc[] =
        "{\"int\":7,\"default\":\"d\",\"struct\":\"s\",\"register\":true,\"restrict\":false,"
        "\"inline\":false,\"auto\":true,\"typeof\":\"t\",\"constexpr\":false,\"nullptr\":true,"
        "\"complex\":1.5,\"imaginary\":-2,\"bool\":true,\"true\":false,\"false\":true,\"errno\":33,"
        "\"assert\":true,\"static_assert\":false,\"alignas\":8,\"alignof\":4,\"noreturn\":false,"
        "\"thread_local\":true,\"stdin\":\"in\",\"stdout\":\"out\",\"stderr\":\"err\","
        "\"math_errhandling\":3,\"offsetof\":1,\"size_t\":18446744073709551615,\"unix\":true,"
        "\"linux\":false,\"NULL\":\"nil\",\"EOF\":true,"
        "\"template\":{\"new\":5,\"delete\":true,\"class\":\"protected\"},"
        "\"operator\":{\"plus\":{\"class\":\"public\",\"new\":1,\"delete\":true,\"template\":\"T\","
        "\"typename\":\"\",\"this\":-1,\"throw\":false,\"try\":false,\"catch\":false,\"virtual\":true,"
        "\"friend\":false,\"mutable\":false,\"explicit\":false,\"export\":false,\"operator\":\"+\","
        "\"namespace\":\"std\",\"using\":false,\"typeid\":0,\"decltype\":0,\"noexcept\":true,"
        "\"public\":true,\"protected\":false,\"private\":false,\"asm\":\"\",\"concept\":\"c\","
        "\"requires\":[\"a\",\"b\"],\"co_await\":1,\"co_return\":2,\"co_yield\":3,\"char8_t\":255,"
        "\"char16_t\":65535,\"char32_t\":4294967295,\"wchar_t\":-9,\"consteval\":false,"
        "\"constinit\":false,\"static_cast\":1,\"dynamic_cast\":2,\"const_cast\":3,"
        "\"reinterpret_cast\":4,\"and\":true,\"and_eq\":false,\"bitand\":true,\"bitor\":false,"
        "\"compl\":true,\"not\":false,\"not_eq\":true,\"or\":false,\"or_eq\":true,\"xor\":false,"
        "\"xor_eq\":true}},"
        "\"return\":{\"virtual\":[],\"private\":null}}";
    tagc_arena arena;
    tagc_arena_init(&arena);
    tagc_error err;
    co_yield_ y;
    if (co_yield__decode_json(&y, doc, sizeof doc - 1, &arena, &err, nullptr) != 0) {
        std::fprintf(stderr, "FAIL: decode keywords: %s at %s\n", err.message, err.path);
        failures++;
    } else {
        /* the members are the renamed ones */
        co_class_value cls;
        expect_eq("errno_", std::to_string(y.errno_), "33");
        expect_eq("template_.class_", std::to_string(y.template_.has_class_ && co_class_parse(y.template_.class_.ptr, y.template_.class_.len, &cls) && cls == CO_CLASS_PROTECTED), "1");
        expect_eq("operator_ key", std::string(y.operator_.keys[0].ptr), "plus");
        expect_eq("co_await_", std::to_string(y.operator_.vals[0].co_await_), "1");
        expect_eq("return_", std::to_string(y.return_->virtual_.len), "0");
        tagc_buf out;
        tagc_buf_init(&out);
        co_yield__encode_json(&y, &out, nullptr);
        expect_eq("keywords JSON", text(out), std::string(doc, sizeof doc - 1));
        tagc_buf mp;
        tagc_buf_init(&mp);
        co_yield_ back;
        if (co_yield__encode_msgpack(&y, &mp) != 0 ||
            co_yield__decode_msgpack(&back, mp.data, mp.len, &arena, &err) != 0 ||
            !co_yield__equal(&y, &back)) {
            std::fprintf(stderr, "FAIL: keywords through MessagePack\n");
            failures++;
        }
        tagc_buf_free(&mp);
        tagc_buf_free(&out);
    }

    int_fast8_t_ f = {};
    f.limit = INT_LEAST8_MAX_;
    tagc_buf out;
    tagc_buf_init(&out);
    int_fast8_t__encode_json(&f, &out, nullptr);
    expect_eq("limits JSON", text(out), "{\"limit\":127,\"bool\":false}");
    tagc_buf_free(&out);
    tagc_arena_free(&arena);
}

int main()
{
    order_by_hand();
    keywords_round_trip();
    if (failures == 0)
        std::puts("cxx roundtrip: ok");
    return failures != 0;
}
