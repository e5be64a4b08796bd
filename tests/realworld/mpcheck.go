// mpcheck.go - the Go side of the corpus's MessagePack check (run.py), built in
// module mode with the roots.go run.py writes for a project (newRoot gives a root
// type's value) against vmihailenco/msgpack v5.4.1 (go.mod, go.sum), with
// SetCustomStructTag("json"): the projects' types have json tags only.
//
// It reads one task a line on stdin,
//
//	TYPE PAYLOAD TAGC_MP TAGC_SORTED_MP GO_MP GO_JSON
//
// and prints one result a line: "ok BYTES", "lossy why" or "FAIL why". For the
// payload's value (encoding/json's decode of PAYLOAD):
//   - vmihailenco's MessagePack of the value is written to GO_MP, and
//     encoding/json's JSON of it (times in UTC) to GO_JSON, for tagc to read back;
//   - "lossy" when vmihailenco's own round trip of the value gives another value:
//     a type it has no MessagePack form for (run.py accepts it only where
//     corpus.json says why);
//   - tagc's MessagePack of the JSON (TAGC_MP) must decode in vmihailenco to it,
//     compared with reflect.DeepEqual after times are put in UTC (a MessagePack
//     timestamp is an instant, with no zone: docs/msgpack.md);
//   - BYTES: "same" when tagc's --msgpack-sort-keys bytes (TAGC_SORTED_MP) are
//     vmihailenco's with SetSortMapKeys(true), "random" when the value has a map
//     that SetSortMapKeys leaves in Go's random order (more than one entry,
//     not map[string]string, map[string]bool or map[string]interface{}): no
//     bytes to compare.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

var timeType = reflect.TypeOf(time.Time{})

// inUTC puts every time.Time reachable from v (addressable) in UTC.
func inUTC(v reflect.Value) {
	if !v.CanInterface() { // reached through an unexported field
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == timeType {
			if v.CanSet() {
				v.Set(reflect.ValueOf(v.Interface().(time.Time).UTC()))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				inUTC(v.Field(i))
			}
		}
	case reflect.Ptr:
		if !v.IsNil() {
			inUTC(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			inUTC(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			inUTC(e)
			v.SetMapIndex(k, e)
		}
	}
}

var (
	stringType = reflect.TypeOf("")
	boolType   = reflect.TypeOf(true)
	anyType    = reflect.TypeOf((*interface{})(nil)).Elem()
)

// sortedByGo: whether vmihailenco's SetSortMapKeys(true) writes every map of v in
// one order: v5.4.1 sorts the maps whose key type is string and element type
// string, bool or interface{} (encode_value.go's _getEncoder, encode_map.go), named
// map types of them too; a map of any other type is written in Go's random order.
func sortedByGo(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !sortedByGo(v.Field(i)) {
				return false
			}
		}
	case reflect.Ptr, reflect.Interface:
		return v.IsNil() || sortedByGo(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if !sortedByGo(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		t := v.Type()
		if v.Len() > 1 && !(t.Key() == stringType && (t.Elem() == stringType || t.Elem() == boolType || t.Elem() == anyType)) {
			return false
		}
		for _, k := range v.MapKeys() {
			if !sortedByGo(v.MapIndex(k)) {
				return false
			}
		}
	}
	return true
}

func encodeMP(v interface{}, sorted bool) ([]byte, error) {
	var b bytes.Buffer
	e := msgpack.NewEncoder(&b)
	e.SetCustomStructTag("json")
	e.SetSortMapKeys(sorted)
	err := e.Encode(v)
	return b.Bytes(), err
}

func decodeMP(data []byte, v interface{}) (err error) {
	defer func() { // vmihailenco panics on some types (cty.Type's embedded interface)
		if p := recover(); p != nil {
			err = fmt.Errorf("vmihailenco panics: %v", p)
		}
	}()
	d := msgpack.NewDecoder(bytes.NewReader(data))
	d.SetCustomStructTag("json")
	return d.Decode(v)
}

func short(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

func mpTask(f []string) string {
	typ, payload, tagcMP, tagcSorted, goMP, goJSON := f[0], f[1], f[2], f[3], f[4], f[5]
	data, err := os.ReadFile(payload)
	if err != nil {
		return "FAIL " + err.Error()
	}
	want := newRoot(typ)
	if err := json.Unmarshal(data, want); err != nil {
		return "FAIL encoding/json rejects it: " + err.Error()
	}
	inUTC(reflect.ValueOf(want).Elem())
	plain, err := encodeMP(want, false)
	if err != nil {
		return "FAIL vmihailenco cannot encode the value: " + err.Error()
	}
	js, err := json.Marshal(want)
	if err != nil {
		return "FAIL encoding/json cannot encode the value: " + err.Error()
	}
	if os.WriteFile(goMP, plain, 0o644) != nil || os.WriteFile(goJSON, js, 0o644) != nil {
		return "FAIL cannot write " + goMP
	}
	// Go's own round trip: a type vmihailenco has no MessagePack form for (one with
	// JSON methods only and unexported fields) comes back another value
	own := newRoot(typ)
	if err := decodeMP(plain, own); err != nil {
		return "lossy vmihailenco rejects its own MessagePack of the value: " + err.Error()
	}
	inUTC(reflect.ValueOf(own).Elem())
	if !reflect.DeepEqual(want, own) {
		oj, _ := json.Marshal(own)
		return fmt.Sprintf("lossy vmihailenco's own round trip gives another value: %s", short(oj))
	}
	mp, err := os.ReadFile(tagcMP)
	if err != nil {
		return "FAIL " + err.Error()
	}
	got := newRoot(typ)
	if err := decodeMP(mp, got); err != nil {
		return "FAIL vmihailenco rejects tagc's MessagePack: " + err.Error()
	}
	inUTC(reflect.ValueOf(got).Elem())
	if !reflect.DeepEqual(want, got) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		return fmt.Sprintf("FAIL tagc's MessagePack decodes in vmihailenco to another value\n  want %s\n  got  %s",
			short(wj), short(gj))
	}
	bytesVerdict := "random"
	if sortedByGo(reflect.ValueOf(want)) {
		sorted, err := encodeMP(want, true)
		if err != nil {
			return "FAIL vmihailenco cannot encode the value: " + err.Error()
		}
		ts, err := os.ReadFile(tagcSorted)
		if err != nil {
			return "FAIL " + err.Error()
		}
		if !bytes.Equal(sorted, ts) {
			at := 0
			for at < len(sorted) && at < len(ts) && sorted[at] == ts[at] {
				at++
			}
			return fmt.Sprintf("FAIL tagc's --msgpack-sort-keys bytes differ from SetSortMapKeys(true)'s at byte %d of %d (tagc %d)",
				at, len(sorted), len(ts))
		}
		bytesVerdict = "same"
	}
	return "ok " + bytesVerdict
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) != 6 {
			fmt.Fprintf(out, "FAIL bad task %q\n", in.Text())
			continue
		}
		fmt.Fprintln(out, strings.ReplaceAll(mpTask(f), "\n", "\\n"))
	}
}
