/*
 * test_errors.c - how the generated JSON decoders fail: the code, the byte
 * offset, line, column and path of each error; strict mode; nesting limits;
 * arena limits; and how encoders fail (full fixed buffer, NaN/Inf) without
 * leaving anything half-written.
 *
 * The tables are written in yyjson's style: each input, and under it a line
 * with a caret at the byte the error must point at. The caret line is data:
 * the expected offset is the caret's index. In inputs, ' stands for ", ~ for a
 * backslash, | for a newline and ` for a tab, so that the caret lines up with
 * the input in this file; each is one byte, so the offsets are the same.
 *
 * Where the error is:
 *   - the wrong type, range or enum value: the first byte of the value (with
 *     the `string` option, the opening quote of the string that holds it);
 *   - a syntax error: the first byte that cannot continue the JSON text (for
 *     "tru}" the '}', for "1e}" the '}', for "01" the '1');
 *   - the end of the input: its length (TAGC_E_EOF);
 *   - strict mode: an unknown or duplicate key at its opening quote, a missing
 *     key at the '}' that closed the object without it;
 *   - an integer map key that is not one: the key's opening quote.
 * The path names the value being decoded: the member or element whose value is
 * wrong (keys as declared in the schema, even when matched case-insensitively;
 * keys that are not identifiers as ["a.b"]), the object for strict-mode errors,
 * the array or object for a misplaced comma or bracket after a member or
 * element, the element for a bracket or comma where an element should start
 * ("[1,]" fails at $[1]), the unknown key for an error in a skipped value.
 */
#include "common.h"

#include <math.h>

/* MARK: - The table */

typedef struct ecase {
    const target *t;
    bool strict;
    const char *doc;   /* ' = ", ~ = \, | = newline, ` = tab */
    const char *caret; /* ^ at the expected offset */
    int code;
    const char *path;
    uint32_t line, col; /* for multi-line inputs: what the caret means, checked too */
} ecase;

#define C(t, doc, caret, code, path) {&T_##t, false, doc, caret, TAGC_E_##code, path, 0, 0}
#define S(t, doc, caret, code, path) {&T_##t, true, doc, caret, TAGC_E_##code, path, 0, 0}
#define M(t, doc, caret, code, path, line, col)                                               \
    {&T_##t, false, doc, caret, TAGC_E_##code, path, line, col}

static ecase type_cases[] = {
    /* user: wrong JSON type for each kind of field */
    C(USER, "{'id':'7'}",
            "      ^", TYPE, "$.id"),
    C(USER, "{'id':true}",
            "      ^", TYPE, "$.id"),
    C(USER, "{'ID':'7'}",
            "      ^", TYPE, "$.id"),
    C(USER, "{'name':5}",
            "        ^", TYPE, "$.name"),
    C(USER, "{'name':[]}",
            "        ^", TYPE, "$.name"),
    C(USER, "{'email':{}}",
            "         ^", TYPE, "$.email"),
    C(USER, "{'roles':{}}",
            "         ^", TYPE, "$.roles"),
    C(USER, "{'roles':'admin'}",
            "         ^", TYPE, "$.roles"),
    C(USER, "{'roles':['a',2]}",
            "              ^", TYPE, "$.roles[1]"),
    C(USER, "{'roles':['a','b',null,{}]}",
            "                       ^", TYPE, "$.roles[3]"),
    C(USER, "{'meta':[]}",
            "        ^", TYPE, "$.meta"),
    C(USER, "{'meta':{'created_at':5}}",
            "                      ^", TYPE, "$.meta.created_at"),
    C(USER, "{'meta':{'updated_at':{}}}",
            "                      ^", TYPE, "$.meta.updated_at"),
    C(USER, "[]",
            "^", TYPE, "$"),
    C(USER, "  'user'",
            "  ^", TYPE, "$"),
    C(USER, "5",
            "^", TYPE, "$"),

    /* order */
    C(ORDR, "{'status':1}",
            "          ^", TYPE, "$.status"),
    C(ORDR, "{'customer':'x'}",
            "            ^", TYPE, "$.customer"),
    C(ORDR, "{'customer':{'vip':1}}",
            "                   ^", TYPE, "$.customer.vip"),
    C(ORDR, "{'customer':{'vip':'true'}}",
            "                   ^", TYPE, "$.customer.vip"),
    C(ORDR, "{'customer':{'id':1.5}}",
            "                  ^", TYPE, "$.customer.id"),
    C(ORDR, "{'customer':{'address':{'geo':{'lat':'x'}}}}",
            "                                     ^", TYPE, "$.customer.address.geo.lat"),
    C(ORDR, "{'customer':{'address':{'geo':{'lon':true}}}}",
            "                                     ^", TYPE, "$.customer.address.geo.lon"),
    C(ORDR, "{'customer':{'address':{'geo':[]}}}",
            "                              ^", TYPE, "$.customer.address.geo"),
    C(ORDR, "{'items':{}}",
            "         ^", TYPE, "$.items"),
    C(ORDR, "{'items':[[]]}",
            "          ^", TYPE, "$.items[0]"),
    C(ORDR, "{'items':[{'qty':1},{'qty':'2'}]}",
            "                           ^", TYPE, "$.items[1].qty"),
    C(ORDR, "{'items':[{'tags':['a',{}]}]}",
            "                       ^", TYPE, "$.items[0].tags[1]"),
    C(ORDR, "{'items':[{'gift':0}]}",
            "                  ^", TYPE, "$.items[0].gift"),
    C(ORDR, "{'total':'1'}",
            "         ^", TYPE, "$.total"),
    C(ORDR, "{'discount':'x'}",
            "            ^", TYPE, "$.discount"),
    C(ORDR, "{'currency':false}",
            "            ^", TYPE, "$.currency"),
    C(ORDR, "{'notes':[ ]}",
            "         ^", TYPE, "$.notes"),

    /* tree */
    C(TREE, "{'children':[{'children':[{'val':'x'}]}]}",
            "                                 ^", TYPE, "$.children[0].children[0].val"),
    C(TREE, "{'children':{}}",
            "            ^", TYPE, "$.children"),
    C(TREE, "{'children':[1]}",
            "             ^", TYPE, "$.children[0]"),

    /* kitchen sink: every kind of field */
    C(SINK, "{'id':'x'}",
            "      ^", TYPE, "$.id"),
    C(SINK, "{'created_by':1}",
            "              ^", TYPE, "$.created_by"),
    C(SINK, "{'scalars':{'b':'x'}}",
            "                ^", TYPE, "$.scalars.b"),
    C(SINK, "{'scalars':{'s':1}}",
            "                ^", TYPE, "$.scalars.s"),
    C(SINK, "{'scalars':{'f64':'1'}}",
            "                  ^", TYPE, "$.scalars.f64"),
    C(SINK, "{'scalars':{'f32':[]}}",
            "                  ^", TYPE, "$.scalars.f32"),
    C(SINK, "{'scalars':{'u8':'1'}}",
            "                 ^", TYPE, "$.scalars.u8"),
    C(SINK, "{'when':0}",
            "        ^", TYPE, "$.when"),
    C(SINK, "{'timeout':'1s'}",
            "           ^", TYPE, "$.timeout"),
    C(SINK, "{'list':[1,'2']}",
            "           ^", TYPE, "$.list[1]"),
    C(SINK, "{'fixed':{}}",
            "         ^", TYPE, "$.fixed"),
    C(SINK, "{'pairs':[[1,2],[3,'x']]}",
            "                   ^", TYPE, "$.pairs[1][1]"),
    C(SINK, "{'points':[[1,2],{}]}",
            "                 ^", TYPE, "$.points[1]"),
    C(SINK, "{'matrix':[[1,2,3],[4,5,'x']]}",
            "                        ^", TYPE, "$.matrix[1][2]"),
    C(SINK, "{'blob':5}",
            "        ^", TYPE, "$.blob"),
    C(SINK, "{'hash':'abc'}",
            "        ^", TYPE, "$.hash"),
    C(SINK, "{'child':[]}",
            "         ^", TYPE, "$.child"),
    C(SINK, "{'child':{'children':[{'name':5}]}}",
            "                              ^", TYPE, "$.child.children[0].name"),
    C(SINK, "{'child':{'parent':{'parent':{'name':[]}}}}",
            "                                     ^", TYPE, "$.child.parent.parent.name"),
    C(SINK, "{'child':{'index':{'k':{'name':1}}}}",
            "                               ^", TYPE, "$.child.index.k.name"),
    C(SINK, "{'child':{'index':{'a.b':5}}}",
            "                         ^", TYPE, "$.child.index[\"a.b\"]"),
    C(SINK, "{'score':'1'}",
            "         ^", TYPE, "$.score"),
    C(SINK, "{'flag':'yes'}",
            "        ^", TYPE, "$.flag"),
    C(SINK, "{'by_name':{'a':1,'b':'x'}}",
            "                      ^", TYPE, "$.by_name.b"),
    C(SINK, "{'by_name':{'a':1.5}}",
            "                ^", TYPE, "$.by_name.a"),
    C(SINK, "{'by_id':{'x':'y'}}",
            "          ^", TYPE, "$.by_id.x"),
    C(SINK, "{'by_id':{'1':2}}",
            "              ^", TYPE, "$.by_id[\"1\"]"),
    C(SINK, "{'by_color':{'red':['a',1]}}",
            "                        ^", TYPE, "$.by_color.red[1]"),
    C(SINK, "{'by_level':{'high':true}}",
            "             ^", TYPE, "$.by_level.high"),
    C(SINK, "{'by_level':{'1':1}}",
            "                 ^", TYPE, "$.by_level[\"1\"]"),
    C(SINK, "{'names':{'a':1}}",
            "              ^", TYPE, "$.names.a"),
    C(SINK, "{'color':1}",
            "         ^", TYPE, "$.color"),
    C(SINK, "{'priority':'high'}",
            "            ^", TYPE, "$.priority"),
    C(SINK, "{'big':5}",
            "       ^", TYPE, "$.big"),
    C(SINK, "{'big':'x'}",
            "       ^", TYPE, "$.big"),
    C(SINK, "{'big':'1.5'}",
            "       ^", TYPE, "$.big"),
    C(SINK, "{'big':'1 '}",
            "       ^", TYPE, "$.big"),
    C(SINK, "{'ok':true}",
            "      ^", TYPE, "$.ok"),
    C(SINK, "{'ok':'yes'}",
            "      ^", TYPE, "$.ok"),
    C(SINK, "{'quoted':'abc'}",
            "          ^", TYPE, "$.quoted"),
    C(SINK, "{'quoted':5}",
            "          ^", TYPE, "$.quoted"),
    C(SINK, "{'maybe':'x'}",
            "         ^", TYPE, "$.maybe"),
    C(SINK, "{'-':5}",
            "     ^", TYPE, "$[\"-\"]"),
    C(SINK, "{'Left':{'name':1}}",
            "                ^", TYPE, "$.Left.name"),
    C(SINK, "{'default':1}",
            "           ^", TYPE, "$.default"),
    C(SINK, "{'struct':'x'}",
            "          ^", TYPE, "$.struct"),
    C(SINK, "{'NoTag':1}",
            "         ^", TYPE, "$.NoTag"),
    C(SINK, "{'address':{'geo':{'Lat':'x'}}}",
            "                         ^", TYPE, "$.address.geo.Lat"),
    C(SINK, "{'address':{'geo':{'lat':'x'}}}",
            "                         ^", TYPE, "$.address.geo.Lat"),
    C(SINK, "{'items':[{'qty':1.5}]}",
            "                 ^", TYPE, "$.items[0].qty"),
    C(SINK, "{'money':{'amount':'1'}}",
            "                   ^", TYPE, "$.money.amount"),
    C(NODE, "{'parent':5}",
            "          ^", TYPE, "$.parent"),
};

static ecase number_cases[] = {
    /* out of range for the field's width */
    C(SINK, "{'scalars':{'i8':128}}",
            "                 ^", RANGE, "$.scalars.i8"),
    C(SINK, "{'scalars':{'i8':-129}}",
            "                 ^", RANGE, "$.scalars.i8"),
    C(SINK, "{'scalars':{'i16':32768}}",
            "                  ^", RANGE, "$.scalars.i16"),
    C(SINK, "{'scalars':{'i16':-32769}}",
            "                  ^", RANGE, "$.scalars.i16"),
    C(SINK, "{'scalars':{'i32':2147483648}}",
            "                  ^", RANGE, "$.scalars.i32"),
    C(SINK, "{'scalars':{'i32':-2147483649}}",
            "                  ^", RANGE, "$.scalars.i32"),
    C(SINK, "{'scalars':{'i64':9223372036854775808}}",
            "                  ^", RANGE, "$.scalars.i64"),
    C(SINK, "{'scalars':{'i64':-9223372036854775809}}",
            "                  ^", RANGE, "$.scalars.i64"),
    C(SINK, "{'scalars':{'i':99999999999999999999999}}",
            "                ^", RANGE, "$.scalars.i"),
    C(SINK, "{'scalars':{'u':-1}}",
            "                ^", RANGE, "$.scalars.u"),
    C(SINK, "{'scalars':{'u8':256}}",
            "                 ^", RANGE, "$.scalars.u8"),
    C(SINK, "{'scalars':{'u8':-1}}",
            "                 ^", RANGE, "$.scalars.u8"),
    C(SINK, "{'scalars':{'u16':65536}}",
            "                  ^", RANGE, "$.scalars.u16"),
    C(SINK, "{'scalars':{'u32':4294967296}}",
            "                  ^", RANGE, "$.scalars.u32"),
    C(SINK, "{'scalars':{'u64':18446744073709551616}}",
            "                  ^", RANGE, "$.scalars.u64"),
    C(SINK, "{'scalars':{'by':256}}",
            "                 ^", RANGE, "$.scalars.by"),
    C(SINK, "{'scalars':{'r':2147483648}}",
            "                ^", RANGE, "$.scalars.r"),
    C(SINK, "{'scalars':{'r':-2147483649}}",
            "                ^", RANGE, "$.scalars.r"),
    C(SINK, "{'version':-1}",
            "           ^", RANGE, "$.version"),
    C(SINK, "{'version':4294967296}",
            "           ^", RANGE, "$.version"),
    C(SINK, "{'list':[2147483648]}",
            "         ^", RANGE, "$.list[0]"),
    C(SINK, "{'fixed':[1,65536]}",
            "            ^", RANGE, "$.fixed[1]"),
    C(SINK, "{'blob':[1,256]}",
            "           ^", RANGE, "$.blob[1]"),
    C(SINK, "{'hash':[1,2,256]}",
            "             ^", RANGE, "$.hash[2]"),
    C(SINK, "{'by_label':{'x':256}}",
            "                 ^", RANGE, "$.by_label.x"),
    C(SINK, "{'by_id':{'9223372036854775808':'y'}}",
            "          ^", RANGE, "$.by_id[\"9223372036854775808\"]"),
    C(SINK, "{'priority':2147483648}",
            "            ^", RANGE, "$.priority"),
    C(SINK, "{'perm':256}",
            "        ^", RANGE, "$.perm"),
    C(SINK, "{'big':'99999999999999999999'}",
            "       ^", RANGE, "$.big"),
    C(ORDR, "{'id':9223372036854775808}",
            "      ^", RANGE, "$.id"),
    C(ORDR, "{'id':-9223372036854775809}",
            "      ^", RANGE, "$.id"),
    C(ORDR, "{'created_at':123456789012345678901234567890}",
            "              ^", RANGE, "$.created_at"),
    C(ORDR, "{'items':[{'qty':2147483648}]}",
            "                 ^", RANGE, "$.items[0].qty"),
    C(ORDR, "{'items':[{'qty':-2147483649}]}",
            "                 ^", RANGE, "$.items[0].qty"),
    C(TREE, "{'val':9223372036854775808}",
            "       ^", RANGE, "$.val"),

    /* a fraction or an exponent in an integer field: Go rejects even 1.0 and 1e2 */
    C(ORDR, "{'id':1e3}",
            "      ^", TYPE, "$.id"),
    C(ORDR, "{'id':1.0}",
            "      ^", TYPE, "$.id"),
    C(ORDR, "{'id':10E-1}",
            "      ^", TYPE, "$.id"),
    C(ORDR, "{'attempts':1.5}",
            "            ^", TYPE, "$.attempts"),
    C(SINK, "{'scalars':{'i8':1.5}}",
            "                 ^", TYPE, "$.scalars.i8"),
    C(SINK, "{'scalars':{'u8':2e0}}",
            "                 ^", TYPE, "$.scalars.u8"),
    C(SINK, "{'scalars':{'u64':1.0}}",
            "                  ^", TYPE, "$.scalars.u64"),
    C(SINK, "{'scalars':{'i':1E2}}",
            "                ^", TYPE, "$.scalars.i"),
    C(SINK, "{'timeout':1.5}",
            "           ^", TYPE, "$.timeout"),

    /* floats that overflow: Go rejects them */
    C(ORDR, "{'total':1e400}",
            "         ^", RANGE, "$.total"),
    C(ORDR, "{'total':-1e400}",
            "         ^", RANGE, "$.total"),
    C(ORDR, "{'discount':1e309}",
            "            ^", RANGE, "$.discount"),
    C(ORDR, "{'customer':{'address':{'geo':{'lat':2e308}}}}",
            "                                     ^", RANGE, "$.customer.address.geo.lat"),
    C(SINK, "{'scalars':{'f64':1e400}}",
            "                  ^", RANGE, "$.scalars.f64"),
    C(SINK, "{'scalars':{'f32':1e39}}",
            "                  ^", RANGE, "$.scalars.f32"),
    C(SINK, "{'scalars':{'f32':-3.5e38}}",
            "                  ^", RANGE, "$.scalars.f32"),
    C(SINK, "{'ratio':'1e400'}",
            "         ^", RANGE, "$.ratio"),

    /* values a closed enum (//tagc:closed) does not declare; open ones
     * (order's Status, common's Unit, Perm) take any value: tests/roundtrip */
    C(SINK, "{'color':'purple'}",
            "         ^", ENUM, "$.color"),
    C(SINK, "{'color':'Red'}",
            "         ^", ENUM, "$.color"),
    C(SINK, "{'priority':5}",
            "            ^", ENUM, "$.priority"),
    C(SINK, "{'by_level':{'5':true}}",
            "             ^", ENUM, "$.by_level[\"5\"]"),
    C(SINK, "{'by_color':{'purple':[]}}",
            "             ^", ENUM, "$.by_color.purple"),
};

static ecase syntax_cases[] = {
    C(USER, "{'id':1 'name':'x'}",
            "        ^", SYNTAX, "$"),
    C(USER, "{'id':1,}",
            "        ^", SYNTAX, "$"),
    C(USER, "{,}",
            " ^", SYNTAX, "$"),
    C(USER, "{'id':1,,'name':'x'}",
            "        ^", SYNTAX, "$"),
    C(USER, "{'roles':['a',]}",
            "              ^", SYNTAX, "$.roles[1]"),
    C(USER, "{'roles':['a' 'b']}",
            "              ^", SYNTAX, "$.roles"),
    C(USER, "{'roles':['a',,'b']}",
            "              ^", SYNTAX, "$.roles[1]"),
    C(USER, "{'roles':[,'a']}",
            "          ^", SYNTAX, "$.roles[0]"),
    C(USER, "{'roles':['a'}",
            "             ^", SYNTAX, "$.roles"),
    C(USER, "{'meta':{'created_at':'2024-01-15T10:30:00Z']}",
            "                                            ^", SYNTAX, "$.meta"),
    C(USER, "{id:1}",
            " ^", SYNTAX, "$"),
    C(USER, "{1:2}",
            " ^", SYNTAX, "$"),
    C(USER, "{'id' 1}",
            "      ^", SYNTAX, "$"),
    C(USER, "{'id'::1}",
            "      ^", SYNTAX, "$.id"),
    C(USER, "{'name':'a~x'}",
            "           ^", SYNTAX, "$.name"),
    C(USER, "{'name':'~u12G4'}",
            "             ^", SYNTAX, "$.name"),
    C(USER, "{'name':'a`b'}",
            "          ^", SYNTAX, "$.name"),
    C(USER, "{'roles':['ok','a|b']}",
            "                 ^", SYNTAX, "$.roles[1]"),
    C(USER, "{'na`me':1}",
            "    ^", SYNTAX, "$"),
    C(USER, "{'id':nulx}",
            "         ^", SYNTAX, "$.id"),
    C(USER, "{'id':True}",
            "      ^", SYNTAX, "$.id"),
    C(USER, "{'id':-}",
            "       ^", SYNTAX, "$.id"),
    C(USER, "{'id':--1}",
            "       ^", SYNTAX, "$.id"),
    C(USER, "{'id':01}",
            "       ^", SYNTAX, "$"),
    C(USER, "{'id':1x}",
            "       ^", SYNTAX, "$"),
    C(ORDR, "{'customer':{'vip':tru}}",
            "                      ^", SYNTAX, "$.customer.vip"),
    C(ORDR, "{'customer':{'vip':falsy}}",
            "                       ^", SYNTAX, "$.customer.vip"),
    C(ORDR, "{'customer':{'vip':nul}}",
            "                      ^", SYNTAX, "$.customer.vip"),
    C(ORDR, "{'total':1.}",
            "           ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':.5}",
            "         ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':+1}",
            "         ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':1e}",
            "           ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':1e+}",
            "            ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':0x10}",
            "          ^", SYNTAX, "$"),
    C(ORDR, "{'total':NaN}",
            "         ^", SYNTAX, "$.total"),
    C(ORDR, "{'total':Infinity}",
            "         ^", SYNTAX, "$.total"),
    C(ORDR, "{'status':pending}",
            "          ^", SYNTAX, "$.status"),

    /* unknown keys are skipped, but their values must still be JSON */
    C(USER, "{'zzz':[1,2,]}",
            "            ^", SYNTAX, "$.zzz"),
    C(USER, "{'zzz':{'a':tru},'id':1}",
            "               ^", SYNTAX, "$.zzz"),
    C(USER, "{'zzz':'a~qb'}",
            "          ^", SYNTAX, "$.zzz"),
    C(USER, "{'zzz':[1 2]}",
            "          ^", SYNTAX, "$.zzz"),
    C(USER, "{'zzz':{'a' 1}}",
            "            ^", SYNTAX, "$.zzz"),
    C(USER, "{'zzz':01}",
            "        ^", SYNTAX, "$"),

    /* json.RawMessage and interface{} validate what they keep */
    C(SINK, "{'raw':[1,2,}",
            "            ^", SYNTAX, "$.raw"),
    C(SINK, "{'raw':tru}",
            "          ^", SYNTAX, "$.raw"),
    C(SINK, "{'raw':{'a' 1}}",
            "            ^", SYNTAX, "$.raw"),
    C(SINK, "{'raw':}",
            "       ^", SYNTAX, "$.raw"),
    C(SINK, "{'iface':[1,]}",
            "            ^", SYNTAX, "$.iface[1]"),
    C(SINK, "{'iface':{'a':tru}}",
            "                 ^", SYNTAX, "$.iface.a"),
    C(SINK, "{'any':'~x'}",
            "         ^", SYNTAX, "$.any"),
    C(SINK, "{'doc':[1 2]}",
            "          ^", SYNTAX, "$.doc"),

    /* trailing garbage after the top-level value */
    C(USER, "{'id':1}x",
            "        ^", SYNTAX, "$"),
    C(USER, "{'id':1} x",
            "         ^", SYNTAX, "$"),
    C(USER, "{'id':1}{}",
            "        ^", SYNTAX, "$"),
    C(USER, "{'id':1}]",
            "        ^", SYNTAX, "$"),
    C(USER, "{'id':1},",
            "        ^", SYNTAX, "$"),
    C(TREE, "null null",
            "     ^", SYNTAX, "$"),

    /* the end of the input where more was needed */
    C(USER, "",
            "^", EOF, "$"),
    C(USER, "   ",
            "   ^", EOF, "$"),
    C(USER, "{",
            " ^", EOF, "$"),
    C(USER, "{'id'",
            "     ^", EOF, "$"),
    C(USER, "{'id':",
            "      ^", EOF, "$.id"),
    C(USER, "{'id':1",
            "       ^", EOF, "$"),
    C(USER, "{'id':1,",
            "        ^", EOF, "$"),
    C(USER, "{'id':-",
            "       ^", EOF, "$.id"),
    C(USER, "{'id':tr",
            "        ^", EOF, "$.id"),
    C(USER, "{'name':'abc",
            "            ^", EOF, "$.name"),
    C(USER, "{'name':'abc~",
            "             ^", EOF, "$.name"),
    C(USER, "{'roles':['a'",
            "             ^", EOF, "$.roles"),
    C(USER, "{'zzz':[[{",
            "          ^", EOF, "$.zzz"),

    /* several lines: line and column */
    M(USER, "{|  'id': 1,|  'roles': ['a',|            true]|}",
            "                                          ^", TYPE, "$.roles[1]", 4, 13),
    M(USER, "{|  'id': 1|  'name': 'x'|}",
            "              ^", SYNTAX, "$", 3, 3),
    M(USER, "{|  'id': 1,|",
            "             ^", EOF, "$", 3, 1),
    M(ORDR, "{|`'customer': {|``'address': {'geo': {'lat': 1, 'lon': 'W'}}|`}|}",
            "                                                        ^", TYPE,
            "$.customer.address.geo.lon", 3, 40),
    M(TREE, "{'id': 1,|'children': [|  {'id': 2, 'val': 3},|  {'id': 3, 'val': 1.5}|]}",
            "                                                                  ^", TYPE,
            "$.children[1].val", 4, 20),
};

static ecase strict_cases[] = {
    S(USER, "{'id':1,'zzz':2}",
            "        ^", UNKNOWN_KEY, "$"),
    S(ORDR, "{'customer':{'zzz':1}}",
            "             ^", UNKNOWN_KEY, "$.customer"),
    S(TREE, "{'id':1,'val':1,'children':[{'id':2,'val':2,'children':null,'x':1}]}",
            "                                                            ^", UNKNOWN_KEY,
            "$.children[0]"),
    S(USER, "{'id':1,'id':2}",
            "        ^", DUP_KEY, "$"),
    S(USER, "{'id':1,'ID':2}",
            "        ^", DUP_KEY, "$"),
    S(USER, "{'roles':[],'roles':[]}",
            "            ^", DUP_KEY, "$"),
    S(USER, "{'id':1}",
            "       ^", MISSING, "$"),
    S(USER, "{'Id':1}",
            "       ^", MISSING, "$"),
    S(USER, "{}",
            " ^", MISSING, "$"),
    S(USER, "{'id':1,'name':'','email':'','roles':[],'meta':{'created_at':'2024-01-15T10:30:00Z'}}",
            "                                                                                   ^ ",
            MISSING, "$.meta"),
    S(TREE, "{'id':1,'val':2,'children':[{'id':2,'val':3}]}",
            "                                           ^ ", MISSING, "$.children[0]"),
};

/* MARK: - Running a case */

/* The input with the placeholders replaced (same length). */
static char *expand(const char *doc)
{
    size_t n = strlen(doc);
    char *s = malloc(n + 1);
    cr_assert(s);
    for (size_t i = 0; i <= n; i++) {
        char c = doc[i];
        s[i] = c == '\'' ? '"' : c == '~' ? '\\' : c == '|' ? '\n' : c == '`' ? '\t' : c;
    }
    return s;
}

static void run_case(const ecase *c)
{
    char *doc = expand(c->doc);
    size_t len = strlen(doc);
    const char *hat = strchr(c->caret, '^');
    cr_assert(hat, "table: no caret for %s", c->doc);
    size_t want = (size_t)(hat - c->caret);
    uint32_t want_line, want_col;
    line_col(doc, want, &want_line, &want_col);
    if (c->line)
        cr_assert(c->line == want_line && c->col == want_col,
                  "table: the caret of %s is at %u:%u, not %u:%u", c->doc, want_line, want_col,
                  c->line, c->col);

    tagc_json_opts opts = {0};
    opts.strict = c->strict;
    tagc_error err;
    char what[512];
    snprintf(what, sizeof what, "%s%s <%s>", c->strict ? "strict " : "", c->t->name, c->doc);
    int rc = decode_checked(c->t, doc, len, &opts, &err, what);

    cr_expect_eq(rc, c->code, "%s: code %d (%s), want %d (%s) [%s at %zu, path %s]", what, rc,
                 tagc_strerror(rc), c->code, tagc_strerror(c->code), err.message, err.offset,
                 err.path);
    cr_expect_eq(err.offset, want, "%s: offset %zu (%u:%u), want %zu (%u:%u) [%s]", what,
                 err.offset, err.line, err.column, want, want_line, want_col, err.message);
    cr_expect_str_eq(err.path, c->path, "%s: path %s, want %s [%s]", what, err.path, c->path,
                     err.message);
    free(doc);
}

/* Criterion runs each parameter in a new process and copies the parameter's
 * bytes, so the parameters are indices into the tables, not pointers. */
static size_t case_indices[256];

static struct criterion_test_params indices(size_t n)
{
    cr_assert_leq(n, sizeof case_indices / sizeof case_indices[0]);
    for (size_t i = 0; i < n; i++)
        case_indices[i] = i;
    return cr_make_param_array(size_t, case_indices, n);
}

#define CASES(tab) (sizeof tab / sizeof tab[0])

ParameterizedTestParameters(decode, type) { return indices(CASES(type_cases)); }
ParameterizedTest(size_t *i, decode, type) { run_case(&type_cases[*i]); }

ParameterizedTestParameters(decode, number) { return indices(CASES(number_cases)); }
ParameterizedTest(size_t *i, decode, number) { run_case(&number_cases[*i]); }

ParameterizedTestParameters(decode, syntax) { return indices(CASES(syntax_cases)); }
ParameterizedTest(size_t *i, decode, syntax) { run_case(&syntax_cases[*i]); }

ParameterizedTestParameters(decode, strict) { return indices(CASES(strict_cases)); }
ParameterizedTest(size_t *i, decode, strict) { run_case(&strict_cases[*i]); }

/* What strict mode rejects, the default accepts (unknown keys skipped, the last
 * duplicate wins, missing fields keep their zero value). */
Test(decode, lenient_without_strict)
{
    tagc_error err;
    decoded d;
    char *doc = expand("{'id':1,'zzz':[1,{'a':[true,null,'~u00e9']}],'ID':2,'roles':['x'],"
                       "'roles':null,'Skip':{}}");
    cr_assert_eq(decode_into(&d, &T_USER, doc, strlen(doc), NULL, &err, "lenient"), 0,
                 "%s at %zu (%s)", err.message, err.offset, err.path);
    const user_user *u = d.value;
    cr_expect_eq(u->id, 2);
    cr_expect(u->roles.ptr == NULL && u->roles.len == 0); /* null makes a slice nil, as in Go */
    decoded_free(&d);
    free(doc);

    doc = expand("{'Skip':1,'secret':'x','mp_only':'y','1e400':1e400}");
    cr_assert_eq(decode_checked(&T_SINK, doc, strlen(doc), NULL, &err, "sink lenient"), 0,
                 "%s at %zu (%s)", err.message, err.offset, err.path);
    free(doc);
}

/* A failure midway leaves what was decoded before it safe to use, and a reset
 * arena decodes the next document. */
Test(decode, failure_then_reuse)
{
    tagc_arena arena;
    tagc_error err;
    order_order o;
    char *bad = expand("{'id':7,'customer':{'name':'Zoë','address':{'geo':{'lat':'x'}}},"
                       "'items':[{'sku':'A','tags':['a','b']}]}");
    char *good = expand("{'id':8,'items':[{'sku':'B'}]}");
    tagc_arena_init(&arena);
    cr_assert_eq(order_order_decode_json(&o, bad, strlen(bad), &arena, &err, NULL), TAGC_E_TYPE);
    cr_expect(order_order_equal(&o, &o));
    tagc_arena_reset(&arena);
    cr_assert_eq(order_order_decode_json(&o, good, strlen(good), &arena, &err, NULL), 0);
    cr_expect_eq(o.id, 8);
    cr_expect_eq(o.items.len, 1);
    cr_expect_eq(o.customer.name.len, 0, "decode starts from the zero value");
    /* err may be NULL */
    cr_expect_eq(order_order_decode_json(&o, bad, strlen(bad), &arena, NULL, NULL), TAGC_E_TYPE);
    tagc_arena_free(&arena);
    free(bad);
    free(good);
}

/* MARK: - Nesting depth */

/* The offset of the first bracket that opens nesting level max + 1 (every
 * object and array counts, the top-level one is level 1), or SIZE_MAX. */
static size_t first_too_deep(const char *s, size_t n, int max)
{
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max)
                return i;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return SIZE_MAX;
}

/* pre + open * levels + mid + close * levels + post */
static char *bomb(const char *pre, const char *open, const char *mid, const char *close,
                  const char *post, size_t levels, size_t *len)
{
    size_t np = strlen(pre), no = strlen(open), nm = strlen(mid), nc = strlen(close),
           nq = strlen(post);
    size_t n = np + levels * (no + nc) + nm + nq;
    char *s = malloc(n + 1), *p = s;
    cr_assert(s);
    memcpy(p, pre, np), p += np;
    for (size_t i = 0; i < levels; i++)
        memcpy(p, open, no), p += no;
    memcpy(p, mid, nm), p += nm;
    for (size_t i = 0; i < levels; i++)
        memcpy(p, close, nc), p += nc;
    memcpy(p, post, nq), p += nq;
    *p = 0;
    *len = n;
    return s;
}

typedef struct bomb_kind {
    const char *what;
    const target *t;
    const char *pre, *open, *mid, *close, *post;
    const char *path_prefix; /* the path must start with it */
} bomb_kind;

static const bomb_kind bombs[] = {
    {"interface{} arrays", &T_SINK, "{\"iface\":", "[", "", "]", "}", "$.iface"},
    {"interface{} objects", &T_SINK, "{\"iface\":", "{\"a\":", "1", "}", "}", "$.iface"},
    {"named any", &T_SINK, "{\"doc\":", "[", "", "]", "}", "$.doc"},
    {"json.RawMessage", &T_SINK, "{\"raw\":", "[{\"k\":", "{}", "}]", "}", "$.raw"},
    {"skipped unknown key", &T_USER, "{\"zzz\":", "[", "", "]", "}", "$.zzz"},
    {"tree children", &T_TREE, "", "{\"children\":[", "", "]}", "", "$.children"},
    {"sink node parent", &T_NODE, "", "{\"parent\":", "{}", "}", "", "$.parent"},
    {"sink node children", &T_SINK, "{\"child\":", "{\"children\":[", "", "]}", "}",
     "$.child"},
    {"sink node index", &T_NODE, "", "{\"index\":{\"k\":", "{}", "}}", "", "$.index"},
};

/* Decodes the bomb with `levels` levels under max_depth (0: the default). */
static void check_bomb(const bomb_kind *b, size_t levels, int max_depth, bool closed)
{
    size_t len;
    char *doc = bomb(b->pre, b->open, b->mid, closed ? b->close : "", closed ? b->post : "",
                     levels, &len);
    int max = max_depth ? max_depth : TAGC_DEFAULT_MAX_DEPTH;
    size_t deep = first_too_deep(doc, len, max);
    tagc_json_opts opts = {0};
    opts.max_depth = max_depth;
    tagc_error err;
    char what[256];
    snprintf(what, sizeof what, "%s, %zu levels%s, max_depth %d", b->what, levels,
             closed ? "" : " (never closed)", max_depth);
    int rc = decode_checked(b->t, doc, len, &opts, &err, what);
    if (deep == SIZE_MAX && closed) {
        cr_expect_eq(rc, 0, "%s: %s (%s at %zu, %s)", what, tagc_strerror(rc), err.message,
                     err.offset, err.path);
    } else if (deep != SIZE_MAX) {
        cr_expect_eq(rc, TAGC_E_DEPTH, "%s: code %d (%s), want TAGC_E_DEPTH [%s at %zu]", what,
                     rc, tagc_strerror(rc), err.message, err.offset);
        cr_expect_eq(err.offset, deep, "%s: offset %zu, want %zu (the bracket at level %d)",
                     what, err.offset, deep, max + 1);
        cr_expect(strncmp(err.path, b->path_prefix, strlen(b->path_prefix)) == 0,
                  "%s: path %s does not start with %s", what, err.path, b->path_prefix);
        cr_expect_lt(strlen(err.path), (size_t)TAGC_PATH_MAX);
    }
    free(doc);
}

/* The top-level object or array counts as one level, and each nested one adds one. */
static size_t levels_for_depth(const bomb_kind *b, int depth)
{
    int outer = b->pre[0] == '{' ? 1 : 0;
    int per = 0;
    for (const char *p = b->open; *p; p++)
        per += *p == '[' || *p == '{';
    int mid = 0;
    for (const char *p = b->mid; *p; p++)
        mid += *p == '[' || *p == '{';
    /* outer + per * levels + mid <= depth */
    return (size_t)((depth - outer - mid) / per);
}

Test(depth, bombs_of_100000, .timeout = 120)
{
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        check_bomb(&bombs[i], 100000, 0, true);
        check_bomb(&bombs[i], 100000, 0, false);
    }
}

Test(depth, default_limit_is_1000)
{
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        size_t n = levels_for_depth(&bombs[i], 1000);
        check_bomb(&bombs[i], n, 0, true);     /* at most 1000: accepted */
        check_bomb(&bombs[i], n + 1, 0, true); /* over: TAGC_E_DEPTH */
        check_bomb(&bombs[i], n + 2, 0, true);
    }
}

Test(depth, max_depth_option)
{
    for (int max = 1; max <= 8; max++)
        for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++)
            for (size_t levels = 1; levels <= 10; levels++)
                check_bomb(&bombs[i], levels, max, true);
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++)
        check_bomb(&bombs[i], 3000, 2000, true); /* above the default, when asked */
}

/* Depth 5 allowed, 6 rejected, on the tree: the exact path. */
Test(depth, tree_max_depth_5)
{
    tagc_json_opts opts = {0};
    opts.max_depth = 5;
    tagc_error err;
    const char *ok = "{\"children\":[{\"children\":[{}]}]}";
    const char *deep = "{\"children\":[{\"children\":[{\"children\":[]}]}]}";
    cr_expect_eq(decode_checked(&T_TREE, ok, strlen(ok), &opts, &err, "depth 5"), 0,
                 "%s at %zu", err.message, err.offset);
    cr_expect_eq(decode_checked(&T_TREE, deep, strlen(deep), &opts, &err, "depth 6"),
                 TAGC_E_DEPTH);
    cr_expect_eq(err.offset, 38);
    cr_expect_str_eq(err.path, "$.children[0].children[0].children");
}

/* MARK: - Arena limits */

Test(arena, limit_gives_nomem)
{
    size_t len;
    char *doc = read_data("seedwork/order.json", &len);
    tagc_error err;
    int rc = TAGC_E_NOMEM;
    size_t limit;
    int failures = 0;
    for (limit = 1; limit <= (1u << 20) && rc == TAGC_E_NOMEM; limit += limit < 256 ? 1 : 61) {
        order_order o;
        tagc_arena arena;
        tagc_arena_init_limit(&arena, limit);
        char *src = malloc(len);
        memcpy(src, doc, len);
        memset(&err, 0x5A, sizeof err);
        rc = order_order_decode_json(&o, src, len, &arena, &err, NULL);
        if (rc == TAGC_E_NOMEM) {
            failures++;
            cr_assert(order_order_equal(&o, &o));
            cr_assert_eq(err.code, TAGC_E_NOMEM);
            cr_assert_eq(err.path[0], '$');
            cr_assert_leq(err.offset, len);
            cr_assert_leq(arena.total, limit, "limit %zu, arena took %zu", limit, arena.total);
        } else {
            cr_assert_eq(rc, 0, "limit %zu: %s (%s at %zu)", limit, tagc_strerror(rc),
                         err.message, err.offset);
            cr_assert_eq(o.items.len, 8);
        }
        tagc_arena_free(&arena);
        free(src);
    }
    cr_expect_eq(rc, 0, "order.json does not decode within 1 MiB of arena");
    cr_expect_gt(failures, 0, "even a 1-byte arena was enough");
    free(doc);
}

/* MARK: - Encode errors */

/* A decoded copy of a workload file (value and arena owned by the caller). */
static void load(decoded *d, const target *t, const char *rel)
{
    size_t len;
    char *doc = read_data(rel, &len);
    tagc_error err;
    cr_assert_eq(decode_into(d, t, doc, len, NULL, &err, rel), 0, "%s: %s at %zu (%s)", rel,
                 err.message, err.offset, err.path);
    free(doc);
}

/* Encodes v into fixed buffers of every size below what it needs: TAGC_E_FULL,
 * nothing kept, nothing written past cap; at the size it needs: the same bytes
 * as a growable buffer. "AB" is in the buffer before, and must stay. */
static void check_fixed(const target *t, const void *v, const tagc_json_opts *opts)
{
    tagc_buf grow;
    tagc_buf_init(&grow);
    cr_assert_eq(t->encode(v, &grow, opts), 0);
    size_t need = grow.len + 2;
    unsigned char *mem = malloc(need + GUARD);
    cr_assert(mem);
    for (size_t cap = 0; cap <= need; cap++) {
        memset(mem, GUARD_BYTE, need + GUARD);
        tagc_buf b;
        tagc_buf_init_fixed(&b, mem, cap);
        if (cap >= 2)
            tagc_buf_put(&b, "AB", 2);
        size_t before = b.len;
        int rc = t->encode(v, &b, opts);
        cr_assert(all_bytes(mem + cap, need + GUARD - cap, GUARD_BYTE),
                  "%s (indent %s): cap %zu: written past cap", t->name,
                  opts && opts->indent ? "on" : "off", cap);
        if (cap < need && cap >= 2) {
            cr_assert_eq(rc, TAGC_E_FULL, "%s: cap %zu of %zu: %d", t->name, cap, need, rc);
            cr_assert_eq(b.len, before, "%s: cap %zu: len %zu after a failure, was %zu", t->name,
                         cap, b.len, before);
            cr_assert(memcmp(mem, "AB", 2) == 0);
        } else if (cap < 2) {
            cr_assert_eq(rc, TAGC_E_FULL, "%s: cap %zu: %d", t->name, cap, rc);
            cr_assert_eq(b.len, 0);
        } else {
            cr_assert_eq(rc, 0, "%s (indent %s): cap %zu (exactly enough): %s", t->name,
                         opts && opts->indent ? "on" : "off", cap, tagc_strerror(rc));
            cr_assert_eq(b.len, need);
            cr_assert(memcmp(mem, "AB", 2) == 0 && memcmp(mem + 2, grow.data, grow.len) == 0);
        }
    }
    free(mem);
    tagc_buf_free(&grow);
}

Test(encode, fixed_buffer_full)
{
    static const char *files[] = {"seedwork/user.json", "seedwork/order.json",
                                  "seedwork/tree.json"};
    const target *targets[] = {&T_USER, &T_ORDR, &T_TREE};
    tagc_json_opts pretty = {0};
    pretty.indent = "  ";
    pretty.prefix = ">";
    for (size_t i = 0; i < 3; i++) {
        decoded d;
        load(&d, targets[i], files[i]);
        if (i < 2) { /* every size; the tree only near the boundaries (below) */
            check_fixed(targets[i], d.value, NULL);
            check_fixed(targets[i], d.value, &pretty);
        }
        decoded_free(&d);
    }
}

Test(encode, fixed_buffer_full_tree)
{
    decoded d;
    load(&d, &T_TREE, "seedwork/tree.json");
    tagc_buf grow;
    tagc_buf_init(&grow);
    cr_assert_eq(T_TREE.encode(d.value, &grow, NULL), 0);
    size_t need = grow.len;
    unsigned char *mem = malloc(need + GUARD);
    size_t caps[] = {0, 1, 2, 100, need / 2, need - 2, need - 1, need};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        memset(mem, GUARD_BYTE, need + GUARD);
        tagc_buf b;
        tagc_buf_init_fixed(&b, mem, caps[i]);
        int rc = T_TREE.encode(d.value, &b, NULL);
        cr_assert(all_bytes(mem + caps[i], need + GUARD - caps[i], GUARD_BYTE));
        cr_assert_eq(rc, caps[i] < need ? TAGC_E_FULL : 0, "cap %zu of %zu", caps[i], need);
        cr_assert_eq(b.len, caps[i] < need ? 0 : need);
    }
    free(mem);
    tagc_buf_free(&grow);
    decoded_free(&d);
}

/* The encode fails with want and leaves out as it was ("prior" stays). */
static void expect_encode_fails(const target *t, const void *v, int want, const char *what)
{
    const tagc_json_opts *optss[2];
    tagc_json_opts pretty = {0};
    pretty.indent = "\t";
    optss[0] = NULL;
    optss[1] = &pretty;
    for (int k = 0; k < 2; k++) {
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_buf_put(&b, "prior", 5);
        int rc = t->encode(v, &b, optss[k]);
        cr_expect_eq(rc, want, "%s%s: %d (%s), want %d", what, k ? " (indented)" : "", rc,
                     tagc_strerror(rc), want);
        cr_expect_eq(b.len, 5, "%s: out->len %zu after a failure, want 5", what, b.len);
        cr_expect(memcmp(b.data, "prior", 5) == 0);
        tagc_buf_free(&b);

        unsigned char mem[64 + GUARD];
        memset(mem, GUARD_BYTE, sizeof mem);
        tagc_buf_init_fixed(&b, mem, 64);
        rc = t->encode(v, &b, optss[k]);
        cr_expect(rc == want || rc == TAGC_E_FULL, "%s (fixed): %d", what, rc);
        cr_expect_eq(b.len, 0);
        cr_expect(all_bytes(mem + 64, GUARD, GUARD_BYTE));
    }
}

Test(encode, nan_and_inf)
{
    const double bad[] = {NAN, -NAN, INFINITY, -INFINITY};
    decoded d;
    load(&d, &T_ORDR, "seedwork/order.json");
    order_order *o = d.value;
    order_order saved = *o;
    for (size_t i = 0; i < 4; i++) {
        char what[64];
        *o = saved;
        o->total = bad[i];
        snprintf(what, sizeof what, "order.total = %g", bad[i]);
        expect_encode_fails(&T_ORDR, o, TAGC_E_INVALID, what);

        *o = saved;
        o->has_discount = true;
        o->discount = bad[i];
        snprintf(what, sizeof what, "order.discount = %g", bad[i]);
        expect_encode_fails(&T_ORDR, o, TAGC_E_INVALID, what);

        *o = saved;
        double lat = o->customer.address.geo.lat;
        o->customer.address.geo.lat = bad[i];
        snprintf(what, sizeof what, "order.customer.address.geo.lat = %g", bad[i]);
        expect_encode_fails(&T_ORDR, o, TAGC_E_INVALID, what);
        o->customer.address.geo.lat = lat;

        *o = saved;
        double price = o->items.ptr[7].price;
        o->items.ptr[7].price = bad[i]; /* the last item: most of the output is written */
        snprintf(what, sizeof what, "order.items[7].price = %g", bad[i]);
        expect_encode_fails(&T_ORDR, o, TAGC_E_INVALID, what);
        o->items.ptr[7].price = price;
    }
    *o = saved;
    decoded_free(&d);

    sink_sink s;
    sink_sink_init(&s);
    tagc_buf b;
    tagc_buf_init(&b);
    cr_assert_eq(sink_sink_encode_json(&s, &b, NULL), 0, "the zero sink encodes");
    tagc_buf_free(&b);
    for (size_t i = 0; i < 4; i++) {
        sink_sink_init(&s);
        s.scalars.f64 = bad[i];
        expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.scalars.f64");
        sink_sink_init(&s);
        s.scalars.f32 = (float)bad[i];
        expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.scalars.f32");
        sink_sink_init(&s);
        s.ratio = bad[i]; /* the string option */
        expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.ratio");
        sink_sink_init(&s);
        s.matrix[2][2] = bad[i];
        expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.matrix[2][2]");
        sink_sink_init(&s);
        tagc_any num = {.kind = TAGC_ANY_NUMBER, .u.num = bad[i]};
        s.iface = &num;
        expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.iface");
    }
}

Test(encode, other_invalid_values)
{
    sink_sink s;
    sink_sink_init(&s);
    s.when = tagc_time_from_unix(253402300800LL, 0, 0); /* 10000-01-01 */
    expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.when in year 10000");
    sink_sink_init(&s);
    s.color = (sink_color)42;
    expect_encode_fails(&T_SINK, &s, TAGC_E_INVALID, "sink.color = 42");
}

