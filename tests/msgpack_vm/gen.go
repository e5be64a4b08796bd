// gen.go - the Go side of the differential test against vmihailenco/msgpack v5
// (run.py), built in module mode against v5.4.1 (go.mod, go.sum).
//
//	gen N MUTATIONS SEED              records for vm_tool on stdout (see vm_tool.c):
//	                                V and J for N random values of each type, then M mutations
//	check GEN_RECORDS TAGC_RECORDS  tagc's bytes (T: re-encoded from Go's MessagePack,
//	                                U: from encoding/json's JSON) decode in Go to the value
//	                                Go's own bytes decode to (reflect.DeepEqual)
//
// The types are vm.tagc's. Go writes with SetCustomStructTag("json") (tagc reads
// json tags as vmihailenco does then) and SetSortMapKeys(true).
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

type Base struct {
	ID   int64  `json:"id"`
	Note string `json:"note"`
}

type Meta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	At     time.Time         `json:"at"`
}

type Extra struct {
	Count int32   `json:"count"`
	Ratio float64 `json:"ratio"`
}

type Sink struct {
	Base
	Meta `json:"metadata"`
	*Extra
	I     int              `json:"i"`
	I8    int8             `json:"i8"`
	I16   int16            `json:"i16"`
	I32   int32            `json:"i32"`
	I64   int64            `json:"i64"`
	U     uint             `json:"u"`
	U8    uint8            `json:"u8"`
	U16   uint16           `json:"u16"`
	U32   uint32           `json:"u32"`
	U64   uint64           `json:"u64"`
	F32   float32          `json:"f32"`
	F64   float64          `json:"f64"`
	B     bool             `json:"b"`
	S     string           `json:"s"`
	Bytes []byte           `json:"bytes"`
	When  time.Time        `json:"when"`
	WhenP *time.Time       `json:"when_p"`
	Strs  []string         `json:"strs"`
	Nums  map[string]int64 `json:"nums"`
	ByID  map[int32]string `json:"by_id"`
	FK    map[float64]int32 `json:"fk"`
	Any   interface{}      `json:"any"`
	Kids  []Base           `json:"kids"`
	Ptr   *Base            `json:"ptr"`
	Dur   time.Duration    `json:"dur"`
	Opt   *int16           `json:"opt"`
	Hash  [4]byte          `json:"hash"`
	Pair  [2]int16         `json:"pair"`
	Raw   json.RawMessage  `json:"raw"`
}

// vmc.tagc's, for UseCompactInts(true)
type Ints struct {
	I    int             `json:"i"`
	I8   int8            `json:"i8"`
	I16  int16           `json:"i16"`
	I32  int32           `json:"i32"`
	I64  int64           `json:"i64"`
	U    uint            `json:"u"`
	U8   uint8           `json:"u8"`
	U16  uint16          `json:"u16"`
	U32  uint32          `json:"u32"`
	U64  uint64          `json:"u64"`
	ByID map[int64]int16 `json:"by_id"`
}

type Sorted struct {
	Labels map[string]string `json:"labels"`
	Any    interface{}       `json:"any"`
}

type Omit struct {
	Base `json:"base,noinline"`
	*Extra
	S     string          `json:"s,omitempty"`
	N     int64           `json:"n,omitempty"`
	When  time.Time       `json:"when,omitempty"`
	WhenP *time.Time      `json:"when_p,omitempty"`
	Any   interface{}     `json:"any,omitempty"`
	L     []int           `json:"l,omitempty"`
	M     map[string]bool `json:"m,omitempty"`
	P     *Base           `json:"p,omitempty"`
	F     float32         `json:"f,omitempty"`
	In    Inner           `json:"in,omitempty"`   // v5.4.1: left out when all its fields are
	None  struct{}        `json:"none,omitempty"` // v5.4.1: always left out
}

// A struct whose fields all have omitempty: empty when they all are (v5.4.1).
type Inner struct {
	A int64  `json:"a,omitempty"`
	B string `json:"b,omitempty"`
}

var r *rand.Rand

func pick(n int) int { return r.Intn(n) }

// An integer of the type's range, often at a format's boundary.
func randInt(bits uint, signed bool) int64 {
	edges := []int64{0, 1, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, -1, -32, -33, -128, -129, -32768, -32769, -1 << 31, -1<<31 - 1}
	var v int64
	if pick(2) == 0 {
		v = edges[pick(len(edges))]
	} else {
		v = int64(r.Uint64())
	}
	if !signed {
		if bits == 64 {
			return v
		}
		return int64(uint64(v) & (1<<bits - 1))
	}
	if bits < 64 {
		v = v << (64 - bits) >> (64 - bits)
	}
	return v
}

func randString() string {
	n := []int{0, 1, 5, 31, 32, 255, 256, 300}[pick(8)]
	if pick(50) == 0 {
		n = 65536 + pick(10)
	}
	b := make([]byte, n)
	raw := pick(4) == 0
	for i := range b {
		if raw && pick(10) == 0 {
			b[i] = byte(r.Intn(256)) // any bytes: str is raw to both
		} else {
			b[i] = byte('a' + pick(26))
		}
	}
	return string(b)
}

// A time in one of the three timestamp sizes (or the zero time, a 96).
func randTime() time.Time {
	switch pick(5) {
	case 0:
		return time.Unix(int64(r.Uint32()), 0).UTC() // timestamp 32
	case 1:
		return time.Unix(r.Int63n(1<<34), int64(r.Intn(1e9))).UTC() // timestamp 64
	case 2:
		return time.Unix(-r.Int63n(62135596800), int64(r.Intn(1e9))).UTC() // timestamp 96, year >= 1
	case 3:
		return time.Unix(1<<34+r.Int63n(253402300799-1<<34), int64(r.Intn(1e9))).UTC() // 96, year <= 9999
	default:
		return time.Time{}
	}
}

func randFloat64() float64 {
	switch pick(6) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1 - 2*pick(2))
	case 3:
		return float64(r.Int63n(1 << 53))
	default:
		return r.NormFloat64() * math.Pow(10, float64(pick(40)-20))
	}
}

// A number for an interface{}: a float64 (all JSON gives) or a value of another
// Go type, which vmihailenco writes in that type's format (int: the smallest) and
// decodes back by the format (int8 for a fixint): tagc must keep the format.
func randNumber() interface{} {
	switch pick(12) {
	case 0:
		return int(randInt(64, true))
	case 1:
		return int8(randInt(8, true))
	case 2:
		return int16(randInt(16, true))
	case 3:
		return int32(randInt(32, true))
	case 4:
		return randInt(64, true)
	case 5:
		return uint8(randInt(8, false))
	case 6:
		return uint16(randInt(16, false))
	case 7:
		return uint32(randInt(32, false))
	case 8:
		return uint64(randInt(64, false))
	case 9:
		return float32(randFloat64())
	}
	f := randFloat64()
	if math.IsInf(f, 0) {
		f = 1.5
	}
	return f
}

func randAny(depth int) interface{} {
	k := pick(7)
	if depth > 3 && k >= 5 {
		k = pick(5)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return pick(2) == 0
	case 2:
		return randNumber()
	case 3, 4:
		return randString()
	case 5:
		a := make([]interface{}, pick(4))
		for i := range a {
			a[i] = randAny(depth + 1)
		}
		return a
	default:
		m := map[string]interface{}{}
		for i := pick(4); i > 0; i-- {
			m[randString()] = randAny(depth + 1)
		}
		return m
	}
}

func randBase() Base { return Base{ID: randInt(64, true), Note: randString()} }

func randMeta() Meta {
	m := Meta{Name: randString(), At: randTime()}
	if pick(3) > 0 {
		m.Labels = map[string]string{}
		for i := pick(4); i > 0; i-- {
			m.Labels[randString()] = randString()
		}
	}
	return m
}

func randExtra() *Extra {
	if pick(2) == 0 {
		return nil
	}
	return &Extra{Count: int32(randInt(32, true)), Ratio: randFloat64()}
}

func randSink() Sink {
	s := Sink{Base: randBase(), Meta: randMeta(), Extra: randExtra(),
		I: int(randInt(64, true)), I8: int8(randInt(8, true)), I16: int16(randInt(16, true)),
		I32: int32(randInt(32, true)), I64: randInt(64, true), U: uint(randInt(64, false)),
		U8: uint8(randInt(8, false)), U16: uint16(randInt(16, false)), U32: uint32(randInt(32, false)),
		U64: uint64(randInt(64, false)), F32: float32(randFloat64()), F64: randFloat64(),
		B: pick(2) == 0, S: randString(), When: randTime(), Any: randAny(0),
		Dur: time.Duration(randInt(64, true)),
		Hash: [4]byte{byte(pick(256)), byte(pick(256)), 0, byte(pick(256))},
		Pair: [2]int16{int16(randInt(16, true)), int16(randInt(16, true))}}
	if pick(3) > 0 {
		s.Bytes = []byte(randString())
	}
	if pick(2) == 0 {
		t := randTime()
		s.WhenP = &t
	}
	if pick(3) > 0 {
		s.Strs = make([]string, pick(20))
		for i := range s.Strs {
			s.Strs[i] = randString()
		}
	}
	if pick(3) > 0 {
		s.Nums = map[string]int64{}
		for i := pick(5); i > 0; i-- {
			s.Nums[randString()] = randInt(64, true)
		}
	}
	if pick(3) > 0 {
		s.ByID = map[int32]string{}
		for i := pick(5); i > 0; i-- {
			s.ByID[int32(randInt(32, true))] = randString()
		}
	}
	if pick(3) > 0 {
		s.FK = map[float64]int32{}
		for i := pick(4); i > 0; i-- {
			k := randFloat64() // -0 and 0 among them: one key in Go
			if math.IsInf(k, 0) {
				k = -1.5 // JSON has no infinite key
			}
			s.FK[k] = int32(randInt(32, true))
		}
	}
	if pick(3) > 0 {
		s.Kids = make([]Base, pick(4))
		for i := range s.Kids {
			s.Kids[i] = randBase()
		}
	}
	if pick(2) == 0 {
		b := randBase()
		s.Ptr = &b
	}
	if pick(2) == 0 {
		o := int16(randInt(16, true))
		s.Opt = &o
	}
	if pick(3) > 0 { // a bin of JSON text to vmihailenco
		s.Raw, _ = json.Marshal(randAny(0))
	}
	return s
}

func randOmit() Omit {
	o := Omit{Base: randBase(), Extra: randExtra()}
	if pick(2) == 0 {
		o.S = randString()
	}
	if pick(2) == 0 {
		o.N = randInt(64, true)
	}
	if pick(2) == 0 {
		o.When = randTime()
	}
	if pick(3) == 0 {
		t := time.Time{}
		if pick(2) == 0 {
			t = randTime()
		}
		o.WhenP = &t // a pointer to the zero time is empty too (its IsZero)
	}
	o.Any = []interface{}{nil, false, 0.0, "", []interface{}{}, map[string]interface{}{}, randAny(0)}[pick(7)]
	if pick(2) == 0 {
		o.L = make([]int, pick(3))
		for i := range o.L {
			o.L[i] = int(randInt(64, true))
		}
	}
	if pick(2) == 0 {
		o.M = map[string]bool{}
		for i := pick(3); i > 0; i-- {
			o.M[randString()] = pick(2) == 0
		}
	}
	if pick(2) == 0 {
		b := randBase()
		o.P = &b
	}
	if pick(2) == 0 {
		o.F = float32(randFloat64())
	}
	if pick(2) == 0 {
		o.In.A = randInt(64, true)
	}
	if pick(2) == 0 {
		o.In.B = randString()
	}
	return o
}

func newValue(typ string) interface{} {
	switch typ {
	case "Sink":
		return new(Sink)
	case "Omit":
		return new(Omit)
	case "Base":
		return new(Base)
	case "Meta":
		return new(Meta)
	case "Sorted":
		return new(Sorted)
	}
	panic("unknown type " + typ)
}

func marshal(v interface{}) []byte {
	var b bytes.Buffer
	e := msgpack.NewEncoder(&b)
	e.SetCustomStructTag("json")
	e.SetSortMapKeys(true)
	if err := e.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func unmarshal(data []byte, typ string) (interface{}, error) {
	v := newValue(typ)
	d := msgpack.NewDecoder(bytes.NewReader(data))
	d.SetCustomStructTag("json")
	err := d.Decode(v)
	return v, err
}

func mutate(b []byte) []byte {
	b = append([]byte(nil), b...)
	switch pick(4) {
	case 0:
		if len(b) > 0 {
			b[pick(len(b))] = byte(r.Intn(256))
		}
	case 1:
		if len(b) > 0 {
			b = b[:pick(len(b))]
		}
	case 2:
		i := pick(len(b) + 1)
		b = append(b[:i], append([]byte{byte(r.Intn(256))}, b[i:]...)...)
	default:
		if len(b) > 1 {
			i := pick(len(b))
			b = append(b[:i], b[i+1:]...)
		}
	}
	return b
}

// Whether Go wrote v's maps in one possible order: the ones SetSortMapKeys
// does not sort have one entry at most (v5.4.1 sorts map[string]bool too).
func fixedOrder(v interface{}) bool {
	switch x := v.(type) {
	case Sink:
		return len(x.Nums) <= 1 && len(x.ByID) <= 1 && len(x.FK) <= 1
	}
	return true
}

func gen(n, mutations int) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var docs [][2]string
	for _, typ := range []string{"Sink", "Omit", "Base", "Meta", "Sorted"} {
		for i := 0; i < n; i++ {
			var v interface{}
			switch typ {
			case "Sink":
				v = randSink()
			case "Omit":
				v = randOmit()
			case "Base":
				v = randBase()
			case "Sorted":
				m := randMeta()
				v = Sorted{Labels: m.Labels, Any: randAny(0)}
			default:
				v = randMeta()
			}
			mp := marshal(v)
			// Go's decode of a nil embedded pointer's nil fields allocates it: then
			// Go's own bytes are not what its value re-encodes to, and the record
			// is compared by value only (check)
			again := ""
			if s, ok := v.(Sink); ok && s.Extra == nil {
				again = " -"
			}
			fmt.Fprintf(w, "V %s %s%s\n", typ, hex.EncodeToString(mp), again)
			// JSON too when it holds the value (not infinities, invalid UTF-8)
			if js, err := json.Marshal(v); err == nil {
				back := newValue(typ)
				if json.Unmarshal(js, back) == nil && reflect.DeepEqual(reflect.ValueOf(back).Elem().Interface(), v) {
					// "=": Go's bytes have no map in random order, so tagc's bytes of
					// the JSON must be them (nil embedded pointers included)
					same := ""
					if fixedOrder(v) {
						same = " ="
					}
					fmt.Fprintf(w, "J %s %s%s\n", typ, hex.EncodeToString(js), same)
				}
			}
			docs = append(docs, [2]string{typ, string(mp)})
		}
	}
	// C: the compact integers of UseCompactInts(true), for vmc.tagc's Ints
	for i := 0; i < n; i++ {
		v := Ints{I: int(randInt(64, true)), I8: int8(randInt(8, true)), I16: int16(randInt(16, true)),
			I32: int32(randInt(32, true)), I64: randInt(64, true), U: uint(randInt(64, false)),
			U8: uint8(randInt(8, false)), U16: uint16(randInt(16, false)), U32: uint32(randInt(32, false)),
			U64: uint64(randInt(64, false))}
		if pick(2) == 0 {
			v.ByID = map[int64]int16{randInt(64, true): int16(randInt(16, true))} // one entry: Go's order is fixed
		}
		var b bytes.Buffer
		e := msgpack.NewEncoder(&b)
		e.SetCustomStructTag("json")
		e.UseCompactInts(true)
		if err := e.Encode(v); err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "C Ints %s\n", hex.EncodeToString(b.Bytes()))
	}
	for i := 0; i < mutations; i++ {
		d := docs[pick(len(docs))]
		m := mutate([]byte(d[1]))
		ok := 0
		if _, err := unmarshal(m, d[0]); err == nil {
			ok = 1
		}
		fmt.Fprintf(w, "M %s %d %s\n", d[0], ok, hex.EncodeToString(m))
	}
}

func readRecords(path string, kinds string) [][2]string {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 3 && strings.Contains(kinds, fs[0]) {
			b, err := hex.DecodeString(fs[2])
			if err != nil {
				panic(err)
			}
			out = append(out, [2]string{fs[0] + fs[1], string(b)})
		}
	}
	return out
}

func check(genPath, tagcPath string) {
	want := readRecords(genPath, "VJ")
	got := readRecords(tagcPath, "TU")
	if len(got) != len(want) {
		fmt.Printf("check: %d records of tagc for %d of Go\n", len(got), len(want))
		os.Exit(1)
	}
	bad := 0
	var w [2]string // the V record a J one follows
	for i, g := range got {
		if want[i][0][0] == 'V' {
			w = want[i]
		}
		typ := w[0][1:]
		wv, err := unmarshal([]byte(w[1]), typ)
		if err != nil {
			panic(err)
		}
		gv, err := unmarshal([]byte(g[1]), typ)
		if err != nil || !reflect.DeepEqual(wv, gv) {
			from := map[byte]string{'T': "Go's MessagePack", 'U': "encoding/json's JSON"}[g[0][0]]
			fmt.Printf("record %d (%s): tagc's MessagePack of %s decodes in Go to another value (%v)\n  want %+v\n  got  %+v\n",
				i, typ, from, err, wv, gv)
			bad++
		}
	}
	fmt.Printf("check: %d of tagc's documents decoded by vmihailenco/msgpack, %d differ\n", len(got), bad)
	if bad > 0 {
		os.Exit(1)
	}
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "gen" && len(os.Args) == 5 {
		seed, _ := strconv.ParseInt(os.Args[4], 10, 64)
		r = rand.New(rand.NewSource(seed))
		n, _ := strconv.Atoi(os.Args[2])
		m, _ := strconv.Atoi(os.Args[3])
		gen(n, m)
		return
	}
	if len(os.Args) == 4 && os.Args[1] == "check" {
		check(os.Args[2], os.Args[3])
		return
	}
	fmt.Fprintln(os.Stderr, "usage: gen N MUTATIONS SEED | check GEN_RECORDS TAGC_RECORDS")
	os.Exit(2)
}
