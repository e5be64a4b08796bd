// json_write_ref prints reference outputs of Go 1.19's encoding/json for
// tests/runtime/test_json_write.c:
//
//	go run json_write_ref.go
//
// Lines (all fields hex-encoded except the kind and the 0/1 flag):
//
//	indent IN PREFIX INDENT OUT   json.Indent of the compact text IN
//	raw IN HTML OUT|ERR           json.RawMessage(IN) marshalled (escapeHTML = HTML)
//	any IN HTML OUT|ERR           json.Unmarshal(IN) into interface{}, then marshalled
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

var w = bufio.NewWriter(os.Stdout)

// Documents used by all three kinds.
var docs = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5`, `1e21`, `1e-7`, `123456789012345678901234567890`,
	`""`, `"a<b>&c"`, "\"\u2028\u2029\"", `"\u2028"`, `"\ud800"`, "\"\xff\xfe\"", `"\\/\b\f\n\r\t\u0001"`,
	`[]`, `{}`, `[[]]`, `[{}]`, `{"a":[]}`, `{"a":{}}`,
	`[1,2,3]`, `{"b":1,"a":2,"c":{"z":[1,{"y":null}],"x":true}}`,
	`{"a":1,"a":2}`, `{"b":1,"a":{"x":1,"x":[2]},"b":3}`,
	`[1,[2,[3,[4,[5]]]],{"k":[{},[],{"":""}]}]`,
	`{"é":1,"e":2,"z":3,"<":4,"\u00e9":5,"Z":6,"":7}`,
	`[0.1,1e308,5e-324,-1.7976931348623157e308,100,1e20,1e-6,123e-9]`,
	`{"key with spaces": "value, with: punctuation {} []"}`,
	` [ 1 , 2 ] `, "\t{\n\"a\" :\r 1 }\n", ` "x" `, `[1, "<&>", {"k" : "\u2029"}]`,
	`1e400`, `[1,]`, `{"a"}`, `[`, `"abc`, `nul`, `01`, ``, ` `, `[1] [2]`, "\"\x01\"",
}

func hx(s string) string {
	if s == "" {
		return "-"
	}
	return fmt.Sprintf("%x", s)
}

func marshal(v interface{}, html bool) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

func main() {
	defer w.Flush()
	for _, d := range docs {
		for _, html := range []bool{true, false} {
			flag := 0
			if html {
				flag = 1
			}
			if out, err := marshal(json.RawMessage(d), html); err == nil {
				fmt.Fprintf(w, "raw %s %d %s\n", hx(d), flag, hx(out))
			} else {
				fmt.Fprintf(w, "raw %s %d ERR\n", hx(d), flag)
			}
			var v interface{}
			out, err := "", json.Unmarshal([]byte(d), &v)
			if err == nil {
				out, err = marshal(v, html)
			}
			if err == nil {
				fmt.Fprintf(w, "any %s %d %s\n", hx(d), flag, hx(out))
			} else {
				fmt.Fprintf(w, "any %s %d ERR\n", hx(d), flag)
			}
		}
		// Indent the compact form, as MarshalIndent does.
		var c bytes.Buffer
		if json.Compact(&c, []byte(d)) != nil {
			continue
		}
		for _, pi := range [][2]string{{"", "\t"}, {"", "  "}, {">", "-"}, {"// ", ""}, {"", ""}} {
			var out bytes.Buffer
			if err := json.Indent(&out, c.Bytes(), pi[0], pi[1]); err != nil {
				panic(err)
			}
			fmt.Fprintf(w, "indent %s %s %s %s\n", hx(c.String()), hx(pi[0]), hx(pi[1]), hx(out.String()))
		}
	}
}
