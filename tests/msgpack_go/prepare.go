// prepare.go - turns a tagc schema into a Go package for tinylib/msgp's
// generator (msgpack_go test):
//   go run prepare.go OUTDIR SCHEMA.tagc
// writes OUTDIR/<schema>.go: the schema without its `import "x.tagc"` lines,
// every struct field tagged msg:"NAME" with tagc's MessagePack name (msgpack
// tag name, else json tag name, else the field name), and time.Time fields
// turned into Timestamp (ts.go: the spec's timestamp extension, type -1,
// since msgp 1.1.6 writes time.Time as its own extension type 5).
// Build in GOPATH mode (GO111MODULE=off, GOPATH including /usr/share/gocode).
// +build ignore

package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
		"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

var tagcImport = regexp.MustCompile(`(?m)^\s*(import\s+)?"[^"]*\.tagc"\s*$`)

func isTime(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "time" && s.Sel.Name == "Time"
}

// msgName is tagc's MessagePack name of a field (docs/msgpack.md).
func msgName(tag reflect.StructTag, field string) string {
	for _, k := range []string{"msgpack", "json"} {
		if v, ok := tag.Lookup(k); ok {
			name := strings.Split(v, ",")[0]
			if name == "-" && v == "-" {
				return "-"
			}
			if name != "" && name != "-" {
				return name
			}
		}
	}
	return field
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: prepare OUTDIR SCHEMA.tagc")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	src = tagcImport.ReplaceAll(src, nil)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, os.Args[2], src, parser.ParseComments)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, fl := range st.Fields.List {
			var tag reflect.StructTag
			if fl.Tag != nil {
				s, _ := strconv.Unquote(fl.Tag.Value)
				tag = reflect.StructTag(s)
			}
			name := ""
			if len(fl.Names) > 0 {
				name = fl.Names[0].Name
			} else if id, ok := fl.Type.(*ast.Ident); ok {
				name = id.Name
			}
			msg := msgName(tag, name)
			if isTime(fl.Type) {
				fl.Type = ast.NewIdent("Timestamp")
				msg += ",extension"
			} else if p, ok := fl.Type.(*ast.StarExpr); ok && isTime(p.X) {
				p.X = ast.NewIdent("Timestamp")
				msg += ",extension"
			}
			s := strings.TrimSpace(string(tag) + fmt.Sprintf(" msg:%q", msg))
			fl.Tag = &ast.BasicLit{Kind: token.STRING, Value: "`" + s + "`"}
		}
		return true
	})
	usesTime := false
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && x.Name == "time" {
				usesTime = true
			}
		}
		return true
	})
	if !usesTime {
		astutil.DeleteImport(fset, f, "time")
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	base := strings.TrimSuffix(filepath.Base(os.Args[2]), ".tagc")
	if err := os.MkdirAll(os.Args[1], 0o755); err == nil {
		err = os.WriteFile(filepath.Join(os.Args[1], base+".go"), out.Bytes(), 0o644)
	}
	if err == nil {
		ts := strings.Replace(timestampSrc, "package PKG", "package "+f.Name.Name, 1)
		err = os.WriteFile(filepath.Join(os.Args[1], "ts.go"), []byte(ts), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Timestamp: time.Time as the MessagePack timestamp extension (type -1), in
// the smallest of its forms (as tagc writes it); JSON as time.Time.
const timestampSrc = `package PKG

import (
	"encoding/binary"
	"errors"
	"time"
)

type Timestamp struct{ time.Time }

func (t Timestamp) ExtensionType() int8 { return -1 }

func (t Timestamp) Len() int {
	s := t.Unix()
	if s>>34 == 0 {
		if t.Nanosecond() == 0 && s>>32 == 0 {
			return 4
		}
		return 8
	}
	return 12
}

func (t *Timestamp) MarshalBinaryTo(b []byte) error {
	s, n := t.Unix(), uint64(t.Nanosecond())
	switch len(b) {
	case 4:
		binary.BigEndian.PutUint32(b, uint32(s))
	case 8:
		binary.BigEndian.PutUint64(b, n<<34|uint64(s))
	case 12:
		binary.BigEndian.PutUint32(b, uint32(n))
		binary.BigEndian.PutUint64(b[4:], uint64(s))
	default:
		return errors.New("timestamp: bad length")
	}
	return nil
}

func (t *Timestamp) UnmarshalBinary(b []byte) error {
	var s, n int64
	switch len(b) {
	case 4:
		s = int64(binary.BigEndian.Uint32(b))
	case 8:
		v := binary.BigEndian.Uint64(b)
		s, n = int64(v&(1<<34-1)), int64(v>>34)
	case 12:
		n, s = int64(binary.BigEndian.Uint32(b)), int64(binary.BigEndian.Uint64(b[4:]))
	default:
		return errors.New("timestamp: bad length")
	}
	if n >= 1e9 {
		return errors.New("timestamp: nanoseconds out of range")
	}
	t.Time = time.Unix(s, n).UTC()
	return nil
}
`
