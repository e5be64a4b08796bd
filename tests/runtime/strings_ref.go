// strings_ref.go - the reference for tests/runtime/test_strings.c.
//
// Run as `go run strings_ref.go MODE` with MODE one of escape, unescape, base64,
// time. It generates its inputs deterministically (fixed seeds) and prints, one
// case per line, the input and what Go 1.19's standard library makes of it:
//
//	E <html 0|1> <hex input> <hex json.Marshal output> <utf8.Valid 0|1>
//	U <hex body> <ok 0|1> <hex string json.Unmarshal gives for "body">
//	B <hex input> <hex base64.StdEncoding.Encode output>
//	D <hex input> <ok 0|1> <hex bytes>      (StdEncoding.Decode, as encoding/json uses it)
//	F <sec> <nsec> <offset_min> <ok 0|1> <hex Time.MarshalJSON output without quotes>
//	P <hex body> <ok 0|1> <sec> <nsec> <offset_min>   (Time.UnmarshalJSON of "body")
//
// sec counts seconds from 0001-01-01T00:00:00Z, as tagc_time.sec does. An empty
// hex field is written as "-".
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

const unixOfZero = -62135596800

var out = bufio.NewWriterSize(os.Stdout, 1<<20)

func hx(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// interesting single bytes for combinations
var interesting = []byte{
	0x00, 0x01, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, '"', '\\', '/', '<', '>', '&', 'a', 'u',
	0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xa8, 0xa9, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe2,
	0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
}

func runes() []string {
	rs := []rune{0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xfffe, 0xffff, 0x10000,
		0x10ffff, 0x2027, 0x2028, 0x2029, 0x202a, 0xe9, 0x4e16, 0x1f600}
	var v []string
	for _, r := range rs {
		v = append(v, string(r))
	}
	return v
}

// piece returns a random fragment for raw (encoder-side) strings.
func piece(r *rand.Rand) string {
	switch r.Intn(10) {
	case 0, 1, 2, 3:
		n := r.Intn(20)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0x20 + r.Intn(0x5f))
		}
		return string(b)
	case 4:
		return string([]byte{interesting[r.Intn(len(interesting))]})
	case 5:
		rs := runes()
		return rs[r.Intn(len(rs))]
	case 6:
		return string([]byte{byte(r.Intn(256))})
	case 7:
		return string(rune(r.Intn(0x110000)))
	case 8:
		return "\u2028\u2029"
	default:
		return strings.Repeat("x", r.Intn(40))
	}
}

func escapeInputs() []string {
	var v []string
	for c := 0; c < 256; c++ {
		v = append(v, string([]byte{byte(c)}))
	}
	for _, a := range interesting {
		for _, b := range interesting {
			v = append(v, string([]byte{a, b}))
		}
	}
	for _, a := range []byte{0xe0, 0xe1, 0xe2, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4} {
		for _, b := range []byte{0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xa8, 0xa9, 0xbf, 0xc0} {
			for _, c := range []byte{0x41, 0x80, 0xa8, 0xa9, 0xbd, 0xbf, 0xc0} {
				v = append(v, string([]byte{a, b, c}))
			}
		}
	}
	for _, a := range []byte{0xf0, 0xf1, 0xf3, 0xf4, 0xf5} {
		for _, b := range []byte{0x80, 0x8f, 0x90, 0xbf} {
			for _, c := range []byte{0x80, 0xbf, 0x41} {
				for _, d := range []byte{0x80, 0xbf, 0x41, 0xc0} {
					v = append(v, string([]byte{a, b, c, d}))
				}
			}
		}
	}
	v = append(v, runes()...)
	v = append(v, "\xed\xa0\x80", "\xed\xbf\xbf", "\xc0\x80", "\xe0\x80\x80", "\xf0\x80\x80\x80",
		"\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xef\xbf\xbd", "a\xe2\x80", "a\xe2\x80\xa8b")
	// a special byte or sequence at every position of runs around the 8-byte word size
	for _, sp := range []string{"\"", "\\", "<", ">", "&", "\x00", "\x1f", "\n", "\x7f", "\xe2\x80\xa8", "\xc3\xa9", "\xff", "\xf0\x9f\x98\x80"} {
		for l := 0; l <= 24; l++ {
			for p := 0; p <= l; p++ {
				v = append(v, strings.Repeat("a", p)+sp+strings.Repeat("b", l-p))
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var sb strings.Builder
		n := r.Intn(30)
		for j := 0; j < n; j++ {
			sb.WriteString(piece(r))
		}
		v = append(v, sb.String())
	}
	return v
}

func doEscape() {
	for _, s := range escapeInputs() {
		m, err := json.Marshal(s)
		if err != nil {
			panic(err)
		}
		valid := b01(utf8.ValidString(s))
		fmt.Fprintf(out, "E 1 %s %s %d\n", hx([]byte(s)), hx(m), valid)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			panic(err)
		}
		fmt.Fprintf(out, "E 0 %s %s %d\n", hx([]byte(s)), hx(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), valid)
	}
}

// hasUnescapedQuote: would the body end early in a JSON text?
func hasUnescapedQuote(b string) bool {
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			i++
		} else if b[i] == '"' {
			return true
		}
	}
	return false
}

func unescapePiece(r *rand.Rand) string {
	hexs := []string{"0000", "001f", "0020", "0022", "005c", "007f", "0080", "07ff", "0800",
		"d7ff", "d800", "dbff", "dc00", "dfff", "e000", "fffd", "ffff", "2028", "abcd", "ABCD",
		"aBcD", "D83D", "DE00", "d83d", "de00"}
	switch r.Intn(9) {
	case 0, 1:
		return `\u` + hexs[r.Intn(len(hexs))]
	case 2:
		return `\` + string("\"\\/bfnrtu"[r.Intn(9)])
	case 3:
		return string([]byte{byte(r.Intn(256))})
	default:
		return piece(r)
	}
}

func unescapeInputs() []string {
	var v []string
	for c := 0; c < 256; c++ {
		v = append(v, string([]byte{byte(c)}))
		v = append(v, `\`+string([]byte{byte(c)}))
		v = append(v, `ab\`+string([]byte{byte(c)})+`cd`)
	}
	for _, h := range []string{"0000", "001f", "0020", "0022", "005c", "007f", "0080", "07ff", "0800",
		"d7ff", "d800", "dbff", "dc00", "dfff", "e000", "fffd", "ffff", "2028", "abcd", "ABCD", "aBcD",
		"12g4", "123", "12", "1", "", "+123", " 123", "123 ", "0x12"} {
		v = append(v, `\u`+h, `\u`+h+`z`, `a\u`+h+`\u0041`)
	}
	hi := []string{`\ud800`, `\udbff`, `\uD83D`, `\ud83d`}
	follow := []string{"", "x", `\u0041`, `\ud83d`, `\ude00`, `\uDE00`, `\ude00\ude00`, `\n`, `\u12`,
		`\u12g4`, `\udc00`, `\udfff`, `\ue000`, `\udbff\udfff`, `\`, `\\`, `\x`, "\xed\xb0\x80"}
	for _, h := range hi {
		for _, f := range follow {
			v = append(v, h+f, "a"+h+f+"b")
		}
	}
	v = append(v, `\udc00`, `\udc00\ud800`, `\ud800\udbff\udc00`, `\udfff\udfff`, `\u0000\u0000`)
	for _, s := range escapeInputs() {
		v = append(v, s)
	}
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 4000; i++ {
		var sb strings.Builder
		n := r.Intn(30)
		for j := 0; j < n; j++ {
			sb.WriteString(unescapePiece(r))
		}
		v = append(v, sb.String())
	}
	// long plain runs with one escape or bad byte at every position
	for _, sp := range []string{`\n`, `\u00e9`, `\ud83d\ude00`, "\x01", "\xff", "\xc3\xa9", `\`} {
		for l := 0; l <= 20; l++ {
			for p := 0; p <= l; p++ {
				v = append(v, strings.Repeat("a", p)+sp+strings.Repeat("b", l-p))
			}
		}
	}
	var w []string
	for _, s := range v {
		if !hasUnescapedQuote(s) {
			w = append(w, s)
		}
	}
	return w
}

func doUnescape() {
	for _, b := range unescapeInputs() {
		var s string
		err := json.Unmarshal([]byte(`"`+b+`"`), &s)
		fmt.Fprintf(out, "U %s %d %s\n", hx([]byte(b)), b01(err == nil), hx([]byte(s)))
	}
}

func doBase64() {
	r := rand.New(rand.NewSource(3))
	var encs []string
	for i := 0; i < 600; i++ {
		n := i % 70
		if i < 24 {
			n = i
		}
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(r.Intn(256))
		}
		e := base64.StdEncoding.EncodeToString(b)
		fmt.Fprintf(out, "B %s %s\n", hx(b), hx([]byte(e)))
		encs = append(encs, e)
	}
	dec := []string{"", "=", "==", "===", "====", "Q", "QQ", "QQ=", "QQ==", "QR==", "QUI=", "QUJ=",
		"QUJD", "QQ==QQ==", "QQ==\n", "QQ=\n=", "Q\nQ==", "\n", "\r\n", "QUJD====", "QUJDQQ",
		"QQ==x", "Q===", "=QQQ", "QQ=A", "QUJD\n", "QU JD", "QUJD\x00", "QUJ-", "QUJ_", "QUJD=",
		"QUJDRUZH", "QUJDRUZ", "QUJDRU", "QUJDRUZHSA==", "QUJDRUZHSUo=", "QUJDRUZHSUpL",
		"\nQ\rU\nJ\rD\n", "QUJD\r\n\r\nRUZH", "QQ=\r\n=\r\n", "QQ==\r\nQQ==", "//8=", "+/+/",
		"QUJDRUZHSUpL\n", "QUJDRUZH\nSUpL", "QUJDRUZHS\nUpL", "QUJDRUZHSUp\n", "QUJDRUZHSUpLQQ="}
	for _, e := range encs {
		dec = append(dec, e)
		// newlines at random places
		b := []byte(e)
		for k := 0; k < 3; k++ {
			p := r.Intn(len(b) + 1)
			nl := []byte{"\r\n"[r.Intn(2)]}
			b = append(b[:p], append(nl, b[p:]...)...)
		}
		dec = append(dec, string(b))
		// one mutation
		if len(e) > 0 {
			m := []byte(e)
			m[r.Intn(len(m))] = "A=Q/+\n-_ \x00\xff"[r.Intn(11)]
			dec = append(dec, string(m))
			dec = append(dec, e[:r.Intn(len(e))])
		}
	}
	const alpha = "AQZgaz09+/==\r\n-_ "
	for i := 0; i < 3000; i++ {
		n := r.Intn(14)
		b := make([]byte, n)
		for j := range b {
			b[j] = alpha[r.Intn(len(alpha))]
		}
		dec = append(dec, string(b))
	}
	for _, s := range dec {
		src := []byte(s)
		dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
		n, err := base64.StdEncoding.Decode(dst, src)
		if err != nil {
			n = 0
		}
		fmt.Fprintf(out, "D %s %d %s\n", hx(src), b01(err == nil), hx(dst[:n]))
	}
}

func civil(y, mo, d, h, mi, s int) int64 {
	return time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC).Unix()
}

func doTime() {
	time.Local = time.UTC
	r := rand.New(rand.NewSource(4))
	lo := civil(-2, 1, 1, 0, 0, 0)
	hi := civil(10002, 1, 1, 0, 0, 0)
	type inst struct {
		unix int64
		nsec int
		off  int
	}
	var insts []inst
	randOff := func() int {
		switch r.Intn(6) {
		case 0, 1:
			return 0
		case 2:
			return (r.Intn(57) - 28) * 30
		case 3:
			return r.Intn(2879) - 1439
		case 4:
			return []int{6039, -6039, 32767, -32767, 5999, -5999, 1, -1}[r.Intn(8)]
		default:
			return r.Intn(1439) - 719
		}
	}
	randNsec := func() int {
		switch r.Intn(5) {
		case 0:
			return 0
		case 1:
			n := r.Intn(1000000000)
			p := []int{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}[r.Intn(9)]
			return n / p * p
		default:
			return r.Intn(1000000000)
		}
	}
	for i := 0; i < 6000; i++ {
		u := lo + r.Int63n(hi-lo)
		insts = append(insts, inst{u, randNsec(), randOff()})
	}
	edges := []int64{civil(0, 1, 1, 0, 0, 0), civil(10000, 1, 1, 0, 0, 0), civil(1, 1, 1, 0, 0, 0),
		civil(1970, 1, 1, 0, 0, 0), civil(2000, 2, 29, 12, 0, 0), civil(1600, 2, 29, 0, 0, 0),
		civil(1900, 3, 1, 0, 0, 0), civil(0, 2, 29, 0, 0, 0), civil(-1, 12, 31, 23, 59, 59)}
	for _, e := range edges {
		for _, d := range []int64{-86400, -3600, -1, 0, 1, 3600, 86400} {
			for _, off := range []int{0, 1, -1, 60, -60, 1439, -1439, 330, -570} {
				insts = append(insts, inst{e + d, 0, off}, inst{e + d, 999999999, off}, inst{e + d, 1, off})
			}
		}
	}
	var valid []string
	for _, in := range insts {
		t := time.Unix(in.unix, int64(in.nsec)).In(time.FixedZone("", in.off*60))
		b, err := t.MarshalJSON()
		ok := err == nil
		if ok {
			b = b[1 : len(b)-1]
			valid = append(valid, string(b))
		}
		fmt.Fprintf(out, "F %d %d %d %d %s\n", in.unix-unixOfZero, in.nsec, in.off, b01(ok), hx(b))
	}

	var ps []string
	ps = append(ps, valid...)
	ps = append(ps, "", "Z", "2006-01-02T15:04:05Z", "2006-01-02T15:04:05+07:00",
		"2006-01-02t15:04:05Z", "2006-01-02T15:04:05z", "2006-01-02 15:04:05Z",
		"2006-01-02T15:04:05", "2006-01-02T15:04Z", "2006-01-02T5:04:05Z", "2006-01-02T05:4:05Z",
		"2006-01-02T15:04:5Z", "2006-1-02T15:04:05Z", "2006-01-2T15:04:05Z", "206-01-02T15:04:05Z",
		"20060-01-02T15:04:05Z", "+2006-01-02T15:04:05Z", "-2006-01-02T15:04:05Z",
		"2006-01-02T24:00:00Z", "2006-01-02T23:60:00Z", "2006-01-02T23:59:60Z",
		"2006-00-02T15:04:05Z", "2006-13-02T15:04:05Z", "2006-01-00T15:04:05Z",
		"2006-01-32T15:04:05Z", "2006-02-29T15:04:05Z", "2004-02-29T15:04:05Z",
		"1900-02-29T15:04:05Z", "2000-02-29T15:04:05Z", "0000-02-29T00:00:00Z", "2006-04-31T00:00:00Z",
		"2006-01-02T15:04:05.Z", "2006-01-02T15:04:05.1Z", "2006-01-02T15:04:05,1Z",
		"2006-01-02T15:04:05.123456789Z", "2006-01-02T15:04:05.1234567891Z",
		"2006-01-02T15:04:05.12345678999999999999999Z", "2006-01-02T15:04:05.000000000000Z",
		"2006-01-02T15:04:05.1.2Z", "2006-01-02T15:04:05..1Z", "2006-01-02T15:04:05.1+01:00",
		"2006-01-02T15:04:05+0700", "2006-01-02T15:04:05+07", "2006-01-02T15:04:05+07:0",
		"2006-01-02T15:04:05+7:00", "2006-01-02T15:04:05+-1:00", "2006-01-02T15:04:05++1:00",
		"2006-01-02T15:04:05+01:+5", "2006-01-02T15:04:05+01:-5", "2006-01-02T15:04:05+99:99",
		"2006-01-02T15:04:05-99:99", "2006-01-02T15:04:05-00:00", "2006-01-02T15:04:05+00:00",
		"2006-01-02T15:04:05 01:00", "2006-01-02T15:04:05*01:00", "2006-01-02T15:04:05+01:00 ",
		"2006-01-02T15:04:05Z ", " 2006-01-02T15:04:05Z", "2006-01-02T15:04:05ZZ",
		"2006-01-02T15:04:05+01:00Z", "2006-01-02T15:04:05+--:00", "2006-01-02T15:04:05+-0:-0",
		"2006-01-02T15:04:05+0a:00", "2006-01-02T15:04:05UTC", "9999-12-31T23:59:59.999999999Z",
		"0000-01-01T00:00:00Z", "0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
		"2006-01-02T1:04:05Z", "2006-01-02T01:04:05Z", "2006-01-02T1:4:05Z", "2006-01-02T:04:05Z",
		"2006-01-02T123:04:05Z", "2006-01-02T15:04:05\"", "2006-01-02T15:04:05\\Z",
		"２006-01-02T15:04:05Z", "2006-01-02T15:04:05.\xffZ")
	ps = append(ps, "2006-01-02T15:04:.5Z", "2006-01-02T15:04:,5Z", "2006-01-02T15:04:5.5Z",
		"2006-01-02T15:04:.Z", "2006-01-02T15:04:.5", "2006-01-02T15:04:.123456789123+01:00")
	// field by field from a grammar of valid and odd forms
	pick := func(opts ...string) string { return opts[r.Intn(len(opts))] }
	for i := 0; i < 4000; i++ {
		s := pick(fmt.Sprintf("%04d", r.Intn(10000)), "2000", "0000", "1900", "2004", "999", "+999", "12345") +
			pick("-", "-", "-", "/") +
			pick(fmt.Sprintf("%02d", 1+r.Intn(12)), "02", "02", "00", "13", "1", "+1") +
			pick("-", "-", "-", "") +
			pick(fmt.Sprintf("%02d", 1+r.Intn(28)), "29", "30", "31", "00", "32", "1", "-1") +
			pick("T", "T", "T", "t", " ") +
			pick(fmt.Sprintf("%02d", r.Intn(24)), fmt.Sprint(r.Intn(10)), "23", "24", "") +
			pick(":", ":", ":", "") +
			pick(fmt.Sprintf("%02d", r.Intn(60)), "59", "60", "5", "") +
			pick(":", ":", ":", "") +
			pick(fmt.Sprintf("%02d", r.Intn(60)), "59", "60", "5", "") +
			pick("", "", "", ".", ",", "."+fmt.Sprint(r.Int63()), ","+fmt.Sprint(r.Intn(1000)), ".1", ".x") +
			pick("Z", "Z", "z", "", fmt.Sprintf("%+03d:%02d", r.Intn(48)-24, r.Intn(60)), "+05:30", "-00:00",
				"+-1:00", "+1:+1", "+01:-1", "-99:99", "+0100", "+01", "+01:00:00", "Z+01:00")
		ps = append(ps, s)
	}
	const mut = "0123456789-+:.,TtZz \"x"
	for i, s := range valid {
		if i%2 != 0 || len(s) == 0 {
			continue
		}
		b := []byte(s)
		switch r.Intn(3) {
		case 0:
			b[r.Intn(len(b))] = mut[r.Intn(len(mut))]
		case 1:
			p := r.Intn(len(b))
			b = append(b[:p], b[p+1:]...)
		default:
			p := r.Intn(len(b) + 1)
			b = append(b[:p], append([]byte{mut[r.Intn(len(mut))]}, b[p:]...)...)
		}
		ps = append(ps, string(b))
		// and a variant with a random-length fraction and a comma or period
		if len(s) >= 19 {
			frac := strings.Repeat("0123456789", 2)[r.Intn(10):]
			frac = frac[:1+r.Intn(len(frac)-1)]
			k := r.Intn(2)
			sep := ".,"[k : k+1]
			ps = append(ps, s[:19]+sep+frac+strings.TrimLeft(s[19:], ".0123456789"))
		}
	}
	for _, s := range ps {
		var t time.Time
		err := t.UnmarshalJSON([]byte(`"` + s + `"`))
		var sec int64
		var nsec, off int
		if err == nil {
			sec = t.Unix() - unixOfZero
			nsec = t.Nanosecond()
			_, o := t.Zone()
			off = o / 60
		}
		fmt.Fprintf(out, "P %s %d %d %d %d\n", hx([]byte(s)), b01(err == nil), sec, nsec, off)
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: strings_ref escape|unescape|base64|time")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "escape":
		doEscape()
	case "unescape":
		doUnescape()
	case "base64":
		doBase64()
	case "time":
		doTime()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
	if err := out.Flush(); err != nil {
		os.Exit(1)
	}
}
