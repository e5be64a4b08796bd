// gen/main.go - the Go side of the differential test.
//
// prepare.go copies this file into a Go module next to the schemas (as Go
// packages) and a registry_gen.go that calls reg() for every named type and
// enumValue() for every constant. For every type it writes random values
// (json.Marshal of values drawn by reflection) and mutations of them, each
// with Go's verdict: does json.Unmarshal into a new value of the type accept
// the document, and if so what json.Marshal writes for the result.
//
// Output: one record per document, binary-safe:
//
//	#TYPE KIND CAT VERDICT DOCLEN EXPLEN INDLEN NOHLEN\n
//	DOC\n EXP\n IND\n NOH\n
//
// TYPE is pkg.Name; KIND is V (a marshalled value) or M (a mutation); CAT names
// the mutation; VERDICT is A (accepted), R (rejected) or E (accepted, but
// json.Marshal of the result fails). EXP is json.Marshal of the decoded value,
// IND json.MarshalIndent of it (prefix "" and indent "  " for even records,
// "> " and "\t" for odd ones, counting from 0), NOH the output of an Encoder
// with SetEscapeHTML(false) without its newline. Lengths are in bytes; the
// three outputs are empty unless the verdict is A.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

type entry struct {
	name string
	t    reflect.Type
}

var (
	registry []entry
	enums    = map[reflect.Type][]reflect.Value{}
)

func reg(name string, t reflect.Type) { registry = append(registry, entry{name, t}) }

func enumValue(v interface{}) {
	rv := reflect.ValueOf(v)
	if rv.Type().PkgPath() == "" {
		return // an untyped constant
	}
	enums[rv.Type()] = append(enums[rv.Type()], rv)
}

var (
	timeType = reflect.TypeOf(time.Time{})
	rawType  = reflect.TypeOf(json.RawMessage{})
	numType  = reflect.TypeOf(json.Number(""))
)

// MARK: - random values

type gen struct {
	r *rand.Rand
}

func (g *gen) n(k int) int { return g.r.Intn(k) }

func (g *gen) intBits(bits int) int64 {
	min := int64(-1) << (bits - 1)
	max := -(min + 1)
	switch g.n(6) {
	case 0:
		edges := []int64{0, 1, -1, min, max, min + 1, max - 1, 10, -10, 100}
		return edges[g.n(len(edges))]
	case 1:
		return int64(g.n(200)) - 100
	default:
		x := int64(g.r.Uint64())
		sh := g.n(bits)
		x >>= uint(64 - bits + sh) // arithmetic: keeps the sign, spreads magnitudes
		return x
	}
}

func (g *gen) uintBits(bits int) uint64 {
	max := uint64(math.MaxUint64) >> (64 - bits)
	switch g.n(6) {
	case 0:
		edges := []uint64{0, 1, max, max - 1, 10, 100, max / 2, max/2 + 1}
		return edges[g.n(len(edges))]
	case 1:
		return uint64(g.n(200))
	default:
		return g.r.Uint64() >> uint(64-bits+g.n(bits))
	}
}

var hardF64 = []float64{
	0, math.Copysign(0, -1), 5e-324, -5e-324, 1e21, 1e20, 999999999999999999999, 1e-7, 1e-6, 0.000001, 0.0000009999,
	0.1 + 0.2, 0.1, 123456789e300, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	2.2250738585072014e-308, 2.225073858507201e-308, 1, -1, 100, 1e100, 9007199254740993, 9007199254740992,
	1.7976931348623157e308, 4.940656458412465e-324, 123456.789, 1e22, 1e23, 5e-7, 0.5, 3.0000000000000004,
	float64(math.MaxInt64), float64(math.MinInt64), 1e15, 1e16, 1.5e-10, 12345678901234567890,
}

var hardF32 = []float32{
	0, float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32,
	1.17549435e-38, 1.1754942e-38, 1e21, 1e20, 1e-7, 1e-6, 0.1, 0.2, 0.3, 16777216, 16777217, 3.4028235e38,
	1, -1, 0.000001, 9.999999e-7, 123456.79, 1.0000001, 1e-45, 7e-45, 2.5, 1e10, 3.1415927,
}

func (g *gen) f64() float64 {
	switch g.n(5) {
	case 0:
		return hardF64[g.n(len(hardF64))]
	case 1:
		for {
			f := math.Float64frombits(g.r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	case 2:
		return float64(g.r.Int63n(2000000)-1000000) / math.Pow(10, float64(g.n(10)))
	case 3:
		return (g.r.Float64() - 0.5) * math.Pow(10, float64(g.n(60)-30))
	default:
		return float64(g.n(1000) - 500)
	}
}

func (g *gen) f32() float32 {
	switch g.n(5) {
	case 0:
		return hardF32[g.n(len(hardF32))]
	case 1:
		for {
			f := math.Float32frombits(g.r.Uint32())
			if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
				return f
			}
		}
	case 2:
		return float32(float64(g.r.Int63n(2000000)-1000000) / math.Pow(10, float64(g.n(8))))
	case 3:
		return float32((g.r.Float64() - 0.5) * math.Pow(10, float64(g.n(40)-20)))
	default:
		return float32(g.n(1000) - 500)
	}
}

var strPieces = []string{
	"\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x01", "\x1f", "\x7f", "<", ">", "&", "<script>",
	"\u2028", "\u2029", "\xff", "\xfe", "\xc0\x80", "\xed\xa0\x80", "\xe2\x82", "\xf0\x9f\x98", "\x80",
	"\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "😀", "🇫🇷", "é", "ß", "ü", "ключ", "日本語", "\ufffd", "\ufeff",
	"\u0080", "\u00ff", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff", " ", "a", "Z", "0", "'", "%s",
	"\\u0041", "null", "true", "-", "K", "ſ", "\u212a",
}

func (g *gen) str() string {
	var b strings.Builder
	switch g.n(6) {
	case 0:
		return ""
	case 1:
		n := g.n(12)
		for i := 0; i < n; i++ {
			b.WriteByte(byte('a' + g.n(26)))
		}
		return b.String()
	case 2:
		n := g.n(8)
		for i := 0; i < n; i++ {
			b.WriteByte(byte(g.n(256)))
		}
		return b.String()
	case 3:
		n := g.n(6)
		for i := 0; i < n; i++ {
			var r rune
			switch g.n(4) {
			case 0:
				r = rune(g.n(0x80))
			case 1:
				r = rune(g.n(0x800))
			case 2:
				r = rune(g.n(0x10000))
			default:
				r = rune(g.n(0x110000))
			}
			if !utf8.ValidRune(r) {
				r = 0xfffd
			}
			b.WriteRune(r)
		}
		return b.String()
	default:
		n := 1 + g.n(8)
		for i := 0; i < n; i++ {
			b.WriteString(strPieces[g.n(len(strPieces))])
		}
		return b.String()
	}
}

func (g *gen) time() time.Time {
	var year int
	switch g.n(4) {
	case 0:
		years := []int{1, 2, 9999, 9998, 1970, 1969, 2000, 2038, 1600, 1900, 2100, 10, 100, 999, 1000}
		year = years[g.n(len(years))]
	default:
		year = 1 + g.n(9999)
	}
	var nsec int
	switch g.n(6) {
	case 0:
		nsec = 0
	case 1:
		nsec = g.n(1000) * 1000000
	case 2:
		nsec = g.n(1000000) * 1000
	case 3:
		nsec = g.n(10) * 100000000
	case 4:
		nsec = 999999999
	default:
		nsec = g.n(1000000000)
	}
	var loc *time.Location
	switch g.n(4) {
	case 0:
		loc = time.UTC
	case 1:
		offs := []int{0, 60, -60, 330, 345, -570, 840, -720, 1439, -1439, 1, -1}
		loc = time.FixedZone("", offs[g.n(len(offs))]*60)
	default:
		loc = time.FixedZone("", (g.n(2879)-1439)*60)
	}
	month := time.Month(1 + g.n(12))
	day := 1 + g.n(28)
	if year == 9999 && g.n(2) == 0 {
		month, day = 12, 31
	}
	if year == 1 && g.n(2) == 0 {
		month, day = 1, 1
	}
	return time.Date(year, month, day, g.n(24), g.n(60), g.n(60), nsec, loc)
}

// any draws a JSON-like tree as encoding/json decodes into interface{}.
func (g *gen) any(depth int) interface{} {
	k := g.n(7)
	if depth > 3 && k >= 5 {
		k = g.n(5)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.n(2) == 0
	case 2, 3:
		if g.n(2) == 0 {
			return float64(g.intBits(64))
		}
		return g.f64()
	case 4:
		return g.str()
	case 5:
		n := g.n(4)
		a := make([]interface{}, n)
		for i := range a {
			a[i] = g.any(depth + 1)
		}
		return a
	default:
		n := g.n(4)
		m := make(map[string]interface{}, n)
		for i := 0; i < n; i++ {
			m[g.str()] = g.any(depth + 1)
		}
		return m
	}
}

func (g *gen) raw(depth int) json.RawMessage {
	if g.n(5) == 0 {
		return nil
	}
	b, err := json.Marshal(g.any(depth))
	if err != nil {
		panic(err)
	}
	switch g.n(4) {
	case 3: // raw separators and HTML characters in a string: Marshal escapes them
		return json.RawMessage("[\"\u2028<\u2029>&\"," + string(b) + "]")
	case 0: // not compact: Marshal compacts it
		var out bytes.Buffer
		if err := json.Indent(&out, b, " ", "\t"); err != nil {
			panic(err)
		}
		return json.RawMessage(" " + out.String() + "\n")
	case 1: // raw HTML characters and separators: Marshal escapes them
		s := string(b)
		s = strings.ReplaceAll(s, `\u003c`, "<")
		s = strings.ReplaceAll(s, `\u0026`, "&")
		s = strings.ReplaceAll(s, `\u2028`, "\u2028")
		return json.RawMessage(s)
	}
	return json.RawMessage(b)
}

// unlisted sets v, of an enum type, to a random value of its underlying type
// that is none of its constants (after a few tries, whatever was drawn).
func (g *gen) unlisted(v reflect.Value, vals []reflect.Value) {
	for try := 0; try < 8; try++ {
		switch v.Kind() {
		case reflect.String:
			v.SetString(g.str())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(g.intBits(v.Type().Bits()))
		default:
			v.SetUint(g.uintBits(v.Type().Bits()))
		}
		listed := false
		for _, c := range vals {
			listed = listed || c.Interface() == v.Interface()
		}
		if !listed {
			return
		}
	}
}

// number returns the text of a random json.Number: mostly valid ones in every
// form (integers past 2^53, exponents, -0, long fractions), sometimes text Go
// refuses to marshal (and documents the mutations make refuse to decode).
func (g *gen) number() string {
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + g.n(10))
		}
		if n > 1 && b[0] == '0' {
			b[0] = '1' + byte(g.n(9))
		}
		return string(b)
	}
	switch g.n(12) {
	case 0:
		return strconv.FormatInt(g.intBits(64), 10)
	case 1:
		return strconv.FormatUint(g.uintBits(64)|1, 10) + digits(1+g.n(20)) // beyond 2^64
	case 2:
		return "-0"
	case 3:
		return digits(1+g.n(3)) + "." + digits(1+g.n(30))
	case 4:
		return "-" + digits(1+g.n(4)) + []string{"e", "E", "e+", "E-", "e-"}[g.n(5)] + digits(1+g.n(4))
	case 5:
		return "0." + digits(1+g.n(5)) + "e999"
	default:
		return strconv.FormatFloat(g.f64(), 'g', -1, 64)
	}
}

func (g *gen) fill(v reflect.Value, depth int) {
	t := v.Type()
	if vals, ok := enums[t]; ok {
		switch g.n(6) {
		case 0:
			return // the zero value
		case 1:
			g.unlisted(v, vals) // a value no constant names: tagc's enums are open, as Go's
		default:
			v.Set(vals[g.n(len(vals))])
		}
		return
	}
	if g.n(8) == 0 {
		return // the zero value
	}
	switch t {
	case timeType:
		v.Set(reflect.ValueOf(g.time()))
		return
	case rawType:
		v.Set(reflect.ValueOf(g.raw(depth)))
		return
	case numType:
		v.SetString(g.number())
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(g.n(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(g.intBits(t.Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(g.uintBits(t.Bits()))
	case reflect.Float32:
		v.SetFloat(float64(g.f32()))
	case reflect.Float64:
		v.SetFloat(g.f64())
	case reflect.String:
		v.SetString(g.str())
	case reflect.Interface:
		if x := g.any(depth); x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Pointer:
		if depth > 3 || g.n(3) == 0 {
			return
		}
		p := reflect.New(t.Elem())
		g.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if g.n(5) == 0 || depth > 4 {
			return // nil
		}
		n := g.n(5)
		if depth > 2 {
			n = g.n(2)
		}
		if t.Elem().Kind() == reflect.Uint8 && g.n(2) == 0 {
			n = g.n(40)
		}
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			g.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			g.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if g.n(5) == 0 || depth > 4 {
			return // nil
		}
		n := g.n(5)
		m := reflect.MakeMapWithSize(t, n)
		for i := 0; i < n; i++ {
			k := reflect.New(t.Key()).Elem()
			g.fill(k, depth+1)
			e := reflect.New(t.Elem()).Elem()
			g.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				g.fill(f, depth+1)
			}
		}
	default:
		panic("unsupported kind " + t.Kind().String())
	}
}

// MARK: - JSON trees, for mutations

type node struct {
	kind byte     // o a s n l (literal)
	text string   // scalars: the JSON text
	keys []string // objects: the key texts, quoted
	kids []*node
}

func parse(s string) (*node, string) {
	s = strings.TrimLeft(s, " \t\r\n")
	switch s[0] {
	case '{':
		n := &node{kind: 'o'}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		if s[0] == '}' {
			return n, s[1:]
		}
		for {
			k, rest := parse(s)
			rest = strings.TrimLeft(rest, " \t\r\n")[1:] // ':'
			v, rest2 := parse(rest)
			n.keys = append(n.keys, k.text)
			n.kids = append(n.kids, v)
			s = strings.TrimLeft(rest2, " \t\r\n")
			if s[0] == '}' {
				return n, s[1:]
			}
			s = s[1:] // ','
		}
	case '[':
		n := &node{kind: 'a'}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		if s[0] == ']' {
			return n, s[1:]
		}
		for {
			v, rest := parse(s)
			n.kids = append(n.kids, v)
			s = strings.TrimLeft(rest, " \t\r\n")
			if s[0] == ']' {
				return n, s[1:]
			}
			s = s[1:]
		}
	case '"':
		i := 1
		for s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		return &node{kind: 's', text: s[:i+1]}, s[i+1:]
	default:
		i := 0
		for i < len(s) && !strings.ContainsRune(",]} \t\r\n:", rune(s[i])) {
			i++
		}
		k := byte('n')
		if s[0] >= 'a' && s[0] <= 'z' {
			k = 'l'
		}
		return &node{kind: k, text: s[:i]}, s[i:]
	}
}

func (n *node) render(b *strings.Builder, ws func() string) {
	switch n.kind {
	case 'o':
		b.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(ws() + "," + ws())
			} else {
				b.WriteString(ws())
			}
			b.WriteString(k + ws() + ":" + ws())
			n.kids[i].render(b, ws)
		}
		b.WriteString(ws() + "}")
	case 'a':
		b.WriteString("[")
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(ws() + "," + ws())
			} else {
				b.WriteString(ws())
			}
			k.render(b, ws)
		}
		b.WriteString(ws() + "]")
	default:
		b.WriteString(n.text)
	}
}

func (n *node) clone() *node {
	c := *n
	c.keys = append([]string(nil), n.keys...)
	c.kids = make([]*node, len(n.kids))
	for i, k := range n.kids {
		c.kids[i] = k.clone()
	}
	return &c
}

func (n *node) all(out []*node) []*node {
	out = append(out, n)
	for _, k := range n.kids {
		out = k.all(out)
	}
	return out
}

func noWS() string { return "" }

func (n *node) String() string {
	var b strings.Builder
	n.render(&b, noWS)
	return b.String()
}

var replacements = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `1.5`, `1e2`, `1E+2`, `1.0`, `1e0`, `-0.0`, `127`, `128`, `-128`, `-129`,
	`255`, `256`, `-1`, `32767`, `32768`, `-32769`, `65535`, `65536`, `2147483647`, `2147483648`, `-2147483649`,
	`4294967295`, `4294967296`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
	`-9223372036854775809`, `18446744073709551615`, `18446744073709551616`, `1e400`, `-1e400`, `1e-400`,
	`3.4028235e38`, `3.4028236e38`, `3.5e38`, `1e39`, `1e-46`, `4.9e-324`, `2.4703282292062327e-324`, `0.1`,
	`123456789012345678901234567890`, `0.30000000000000004`, `1E21`, `1e-7`,
	`""`, `"x"`, `"123"`, `"-5"`, `"1e2"`, `"1.5"`, `"-"`, `".5"`, `"1e"`, `"\"7\""`, `"\"1x\""`, `"true"`, `"false"`, `"null"`, `"\"s\""`, `"\"\""`, `" 1"`, `"1 "`, `"+1"`,
	`"0x10"`, `"AQID"`, `"AQI"`, `"AQ=="`, `"AQ"`, `"====="`, `"A\nQID"`, `"A\/QI"`, `"2006-01-02T15:04:05Z"`,
	`"2006-01-02T15:04:05.999999999+23:59"`, `"0000-01-01T00:00:00Z"`, `"2006-01-02t15:04:05z"`,
	`"2006-01-02 15:04:05Z"`, `"2006-01-02T15:04:05+24:00"`, `"2006-01-02T15:04:05.Z"`, `"2006-02-30T00:00:00Z"`,
	`"2006-01-02T15:04:05,5Z"`, `"2006-01-02T15:04:05.1234567891Z"`, `"2006-01-02T15:04:05\u005a"`,
	`"10000-01-01T00:00:00Z"`, `"2006-01-02T15:04:05-00:00"`, `"2006-01-02T15:04:05+01"`,
	`"\u00e9"`, `"\ud83d\ude00"`, `"happy"`, `"sad"`, `"red"`, `"HAPPY"`, `"pending"`, `"kg"`,
	`[]`, `[1,2]`, `[null]`, `["a"]`, `[1,2,3,4,5]`, `[[1,2,3],[4,5,6]]`, `[0,0]`, `[1,2,3]`, `{}`, `{"a":1}`, `[[]]`, `{"X":1,"Y":2}`,
	`{"":null}`, `[{}]`,
}

var badNumbers = []string{
	`01`, `+1`, `.5`, `1.`, `1e`, `-`, `--1`, `1e+`, `0x10`, `1_000`, `Infinity`, `NaN`, `-Infinity`, `00`, `-01`, `1.e5`,
	`0.`, `1ee2`, `1e2.5`, `- 1`,
}

var goodNumbers = []string{
	`-0.0`, `0e0`, `0E-5`, `1E2`, `1e+2`, `100e-2`, `0.1000000000000000055511151231257827`, `100000000000000000000000e-23`,
	`1.7976931348623157e308`, `1.7976931348623158e308`, `1.7976931348623159e308`, `2.2250738585072011e-308`,
	`0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001`,
	strings.Repeat("9", 400), "1" + strings.Repeat("0", 30) + "e-30", `340282356779733661637539395458142568448`,
	`9007199254740993`, `-9223372036854775808.0`, `1e1`, `4.0`,
}

var escapeInjections = []string{
	`\x`, `\u12`, `\u123g`, `\ud800`, `\udc00`, `\ud800\u0041`, `\ud83d\ude00`, `\/`, `\u0000`, `\U0041`, `\'`,
	"\x01", "\x1f", "\t", "\n", "\x7f", "\xff", "\xc0\x80", "\xed\xa0\x80", "\u2028", `\u2028`, `\ud800\ud800`,
	`\udbff\udfff`, `\uDBFF\uDFFF`, `\u00E9`, `\\`, `\"`, `\b\f\n\r\t`, "\xf0\x9f\x98", `\uD834\uDD1E`, "\x00",
}

var garbage = []string{
	" ", "\n", "\r\n\t ", "x", "}", "]", ",", "{}", "0", "\x00", "null", " 1", "\"\"", "//", "\f", "\u00a0",
}

var badWS = []string{"\f", "\v", "\u00a0", "\x00", "\ufeff", "\u2028"}

type mutator struct {
	g *gen
}

func (m *mutator) pick(nodes []*node, kinds string) *node {
	var c []*node
	for _, n := range nodes {
		if strings.IndexByte(kinds, n.kind) >= 0 {
			c = append(c, n)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[m.g.n(len(c))]
}

func foldKey(g *gen, key string) string {
	body := key[1 : len(key)-1]
	if strings.ToUpper(body) != strings.ToLower(body) && g.n(3) == 0 {
		for _, c := range []byte(body) {
			if c >= 0x80 { // Unicode case folding
				return `"` + strings.ToUpper(body) + `"`
			}
		}
	}
	switch g.n(6) {
	case 0:
		return `"` + strings.ToUpper(body) + `"`
	case 1:
		return `"` + strings.ToLower(body) + `"`
	case 2: // swap case of one letter
		b := []byte(body)
		for i := range b {
			if c := b[i]; c >= 'a' && c <= 'z' {
				b[i] = c - 32
				break
			} else if c >= 'A' && c <= 'Z' {
				b[i] = c + 32
				break
			}
		}
		return `"` + string(b) + `"`
	case 3: // Kelvin sign and long s fold to k and s
		s := strings.ReplaceAll(body, "k", "\u212a")
		s = strings.ReplaceAll(s, "s", "ſ")
		s = strings.ReplaceAll(s, "K", "\\u212a")
		s = strings.ReplaceAll(s, "S", "\\u017f")
		return `"` + s + `"`
	case 4: // the first letter as a \u escape
		if len(body) > 0 && body[0] < 0x80 && body[0] != '\\' {
			return fmt.Sprintf(`"\u%04x%s"`, body[0], body[1:])
		}
		return key
	default: // a near miss
		return `"` + body + `_"`
	}
}

// mutate returns a category and a mutated document.
func (m *mutator) mutate(doc string, others []string) (string, string) {
	g := m.g
	root, _ := parse(doc)
	nodes := root.all(nil)
	switch g.n(17) {
	case 16:
		n := m.pick(nodes, "s")
		if n == nil {
			return "truncate", doc[:g.n(len(doc))]
		}
		strs := []string{`"null"`, `"true"`, `"false"`, `"0"`, `"-0"`, `""`, `"\"x\""`, `"\"\""`, `"1e3"`, `"0.5"`,
			`" 1"`, `"1 "`, `"\u0031"`, `"99999999999999999999"`, `"NaN"`, `"happy"`, `"HAPPY"`, `"red"`,
			"\"\u2028<\u2029>&\""}
		n.text = strs[g.n(len(strs))]
		return "strswap", root.String()
	case 0, 1, 2:
		n := nodes[g.n(len(nodes))]
		r, _ := parse(replacements[g.n(len(replacements))])
		*n = *r
		return "replace", root.String()
	case 3:
		n := nodes[g.n(len(nodes))]
		*n = node{kind: 'l', text: "null"}
		return "null", root.String()
	case 4:
		o := m.pick(nodes, "o")
		if o == nil || len(o.keys) == 0 {
			return "truncate", doc[:g.n(len(doc))]
		}
		i := g.n(len(o.keys))
		var val *node
		switch g.n(3) {
		case 0:
			r, _ := parse(replacements[g.n(len(replacements))])
			val = r
		case 1:
			val = o.kids[g.n(len(o.kids))].clone()
		default: // a part of the same value: Go decodes it into the existing one
			val = o.kids[i].clone()
			if len(val.kids) > 0 {
				keep := g.n(len(val.kids))
				val.kids = val.kids[:keep]
				if val.kind == 'o' {
					val.keys = val.keys[:keep]
				}
				for j := range val.kids {
					switch g.n(3) {
					case 0:
						val.kids[j] = &node{kind: 'l', text: "null"}
					case 1:
						if val.kids[j].kind == 'o' {
							val.kids[j] = &node{kind: 'o'}
						}
					}
				}
			}
		}
		if g.n(2) == 0 {
			o.keys = append(o.keys, o.keys[i])
			o.kids = append(o.kids, val)
		} else { // the duplicate first
			o.keys = append([]string{o.keys[i]}, o.keys...)
			o.kids = append([]*node{val}, o.kids...)
		}
		return "dupkey", root.String()
	case 5, 6:
		o := m.pick(nodes, "o")
		if o == nil || len(o.keys) == 0 {
			return "truncate", doc[:g.n(len(doc))]
		}
		i := g.n(len(o.keys))
		o.keys[i] = foldKey(g, o.keys[i])
		return "keycase", root.String()
	case 7:
		o := m.pick(nodes, "o")
		if o == nil {
			return "truncate", doc[:g.n(len(doc))]
		}
		var v *node
		if len(others) > 0 && g.n(2) == 0 {
			v, _ = parse(others[g.n(len(others))])
		} else {
			v, _ = parse(replacements[g.n(len(replacements))])
		}
		k, _ := json.Marshal(g.str())
		i := g.n(len(o.keys) + 1)
		o.keys = append(o.keys[:i], append([]string{string(k)}, o.keys[i:]...)...)
		o.kids = append(o.kids[:i], append([]*node{v}, o.kids[i:]...)...)
		return "unknownkey", root.String()
	case 8:
		o := m.pick(nodes, "o")
		if o == nil || len(o.keys) == 0 {
			return "truncate", doc[:g.n(len(doc))]
		}
		i := g.n(len(o.keys))
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.kids = append(o.kids[:i], o.kids[i+1:]...)
		return "removekey", root.String()
	case 9:
		if len(doc) < 2 {
			return "truncate", ""
		}
		return "truncate", doc[:g.n(len(doc))]
	case 10:
		wss := []string{"", "", "", " ", "\t", "\n", "\r", " \n\t\r "}
		var b strings.Builder
		if g.n(3) == 0 {
			bad := badWS[g.n(len(badWS))]
			k := 0
			target := 1 + g.n(20)
			root.render(&b, func() string {
				k++
				if k == target {
					return bad
				}
				return wss[g.n(len(wss))]
			})
			if k < target {
				return "badws", bad + b.String()
			}
			return "badws", b.String()
		}
		root.render(&b, func() string { return wss[g.n(len(wss))] })
		return "whitespace", wss[g.n(len(wss))] + b.String() + wss[g.n(len(wss))]
	case 11:
		if g.n(4) == 0 {
			return "garbage", "\xef\xbb\xbf" + doc
		}
		return "garbage", doc + garbage[g.n(len(garbage))]
	case 12, 13:
		s := m.pick(nodes, "s")
		if s == nil {
			return "truncate", doc[:g.n(len(doc))]
		}
		inj := escapeInjections[g.n(len(escapeInjections))]
		body := s.text[1 : len(s.text)-1]
		at := 0
		if len(body) > 0 {
			at = g.n(len(body) + 1)
			for at > 0 && at < len(body) && (body[at-1] == '\\' || !utf8.RuneStart(body[at])) {
				at--
			}
			// do not split a \uXXXX escape
			if i := strings.LastIndex(body[:at], `\u`); i >= 0 && at-i < 6 && (i == 0 || body[i-1] != '\\') {
				at = i
			}
		}
		s.text = `"` + body[:at] + inj + body[at:] + `"`
		// keys are strings too
		if g.n(3) == 0 {
			if o := m.pick(nodes, "o"); o != nil && len(o.keys) > 0 {
				i := g.n(len(o.keys))
				k := o.keys[i]
				o.keys[i] = k[:len(k)-1] + inj + `"`
				return "keyescape", root.String()
			}
		}
		return "escape", root.String()
	case 14:
		n := m.pick(nodes, "n")
		if n == nil {
			return "garbage", doc + garbage[g.n(len(garbage))]
		}
		if g.n(2) == 0 {
			n.text = badNumbers[g.n(len(badNumbers))]
			return "badnumber", root.String()
		}
		if g.n(2) == 0 {
			n.text = goodNumbers[g.n(len(goodNumbers))]
		} else { // the same number in another form
			forms := []string{n.text + ".0", n.text + "e0", n.text + "E+00", n.text + "0e-1", "-" + n.text}
			n.text = forms[g.n(len(forms))]
		}
		return "number", root.String()
	default:
		l := m.pick(nodes, "l")
		if l == nil {
			return "truncate", doc[:g.n(len(doc))]
		}
		lits := []string{"tru", "nul", "True", "NULL", "falsey", "nulll", "fals", "n", "t", "f"}
		l.text = lits[g.n(len(lits))]
		return "literal", root.String()
	}
}

// MARK: - records

type writer struct {
	w   *bufio.Writer
	seq int
	n   map[string]int
}

// record writes one record and returns its size in bytes.
func (w *writer) record(e entry, kind, cat string, doc []byte) int {
	p := reflect.New(e.t)
	verdict := "R"
	var exp, ind, noh []byte
	if err := json.Unmarshal(doc, p.Interface()); err == nil {
		verdict = "A"
		v := p.Elem().Interface()
		var err error
		exp, err = json.Marshal(v)
		if err != nil {
			verdict = "E"
			exp = nil
		} else {
			prefix, indent := "", "  "
			if w.seq%2 == 1 {
				prefix, indent = "> ", "\t"
			}
			ind, err = json.MarshalIndent(v, prefix, indent)
			if err != nil {
				panic(err)
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				panic(err)
			}
			noh = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		}
	}
	fmt.Fprintf(w.w, "#%s %s %s %s %d %d %d %d\n", e.name, kind, cat, verdict, len(doc), len(exp), len(ind), len(noh))
	for _, b := range [][]byte{doc, exp, ind, noh} {
		w.w.Write(b)
		w.w.WriteByte('\n')
	}
	w.seq++
	w.n[kind+verdict]++
	return len(doc) + len(exp) + len(ind) + len(noh)
}

// The `string` option: Go 1.19 hands the quoted text to strconv (ParseInt,
// ParseUint, ParseFloat, or "true"/"false"), whose grammar is wider than
// JSON's. Each text below goes, inside quotes, into every field with the
// option (docs/decisions.md, "The string option takes strconv's grammar").
var quotedCases = []string{
	`011`, `-08`, `1.`, `00.5`, `-.5`, `.5`, `0x1p4`, `-0x1p4`, `0X1P4`, `0x1.8p1`, `0x10`,
	`1_000`, `0x_1p4`, `0x1_0p0`, `1__0`, `1_`, `1_.5`, `1e1_0`, `+5`, `-0`, `00`, `-00`, `-`,
	`1e5`, `1E+05`, `1e`, `1e+`, `1.e5`, `01.5e01`, `0.`, `-0.`, `1..`, `1.5e-3`,
	`-inf`, `-Inf`, `-Infinity`, `-infinit`, `-nan`, `inf`, `NaN`, `1e400`, `-1e400`, `1e-400`,
	`0x1p-2000`, `0x1p2000`, `0x1p`, `0x.8p1`, `0x1.p1`, `0xp1`, `0x1.fffffffffffff8p1023`,
	`0x1.fffffffffffff7p1023`, `0x1p-1074`, `0x1p-1075`, `0x1.8p-1075`, `0x1p-149`,
	`0x1.fffffefp127`, `0x1.ffffffp127`, `0x1.000001p0`, `0x1.0000008p0`, `0x1.00000080000001p0`,
	`1e-46`, `3.4e38`, `3.5e38`, `127`, `128`, `-128`, `-129`, `65535`, `65536`, `-1`,
	`9223372036854775807`, `9223372036854775808`, `18446744073709551615`, `18446744073709551616`,
	`1 `, ` 1`, `1\u0030`, `\u0031`, `true`, `false`, `True`, `null`,
}

func quotedTexts(w *writer, e entry) {
	if e.t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < e.t.NumField(); i++ {
		f := e.t.Field(i)
		parts := strings.Split(f.Tag.Get("json"), ",")
		opt := false
		for _, p := range parts[1:] {
			opt = opt || p == "string"
		}
		if !opt || parts[0] == "-" || f.PkgPath != "" {
			continue
		}
		name := parts[0]
		if name == "" {
			name = f.Name
		}
		for _, q := range quotedCases {
			w.record(e, "M", "quoted", []byte(`{"`+name+`":"`+q+`"}`))
		}
	}
}

func main() {
	out := flag.String("o", "", "output file")
	values := flag.Int("values", 300, "random values per type")
	mutations := flag.Int("mutations", 700, "mutated documents per type")
	seed := flag.Int64("seed", 1, "random seed")
	budget := flag.Int("budget", 400000, "at most about this many bytes of records per type, for values and again for mutations")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := &writer{w: bufio.NewWriter(f), n: map[string]int{}}
	for i, e := range registry {
		g := &gen{r: rand.New(rand.NewSource(*seed*7919 + int64(i)))}
		var docs []string
		size := 0
		for k := 0; k < *values && (k < 20 || size < *budget); k++ {
			v := reflect.New(e.t).Elem()
			g.fill(v, 0)
			b, err := json.Marshal(v.Interface())
			if err != nil {
				fmt.Fprintf(os.Stderr, "gen: %s: %v\n", e.name, err)
				os.Exit(1)
			}
			docs = append(docs, string(b))
			size += w.record(e, "V", "value", b)
		}
		m := &mutator{g: g}
		size = 0
		for k := 0; k < *mutations && len(docs) > 0 && (k < 50 || size < *budget); k++ {
			cat, doc := m.mutate(docs[g.n(len(docs))], docs)
			size += w.record(e, "M", cat, []byte(doc))
		}
		quotedTexts(w, e)
	}
	if err := w.w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f.Close()
	fmt.Fprintf(os.Stderr, "gen: %d types, %d records (%v)\n", len(registry), w.seq, w.n)
}
