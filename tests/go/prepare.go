// prepare.go - sets up the differential test against Go's encoding/json.
//
// Reads .tagc schemas with go/parser (a .tagc file is Go source once its
// `import "x.tagc"` lines are gone) and writes one of:
//
//	-creg FILE   the C registry: for every named type of the schemas, wrappers
//	             around the generated init/decode/encode/equal functions
//	-data FILE   the documents: a Go module in -mod DIR holding the schemas as
//	             Go packages, gen/main.go and a registry of their types, run
//	             with `go run` to write FILE (see gen/main.go for the format)
//
// Only the standard library is used; no network.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type schema struct {
	path   string
	pkg    string
	types  []string // named types, in declaration order
	consts []string // constant names, for the enum values
	src    []byte   // Go source: tagc imports dropped
}

// snake mirrors compiler/check/names.c: words split at case changes, plurals of
// capitals ("URLs") kept whole, runs of Go's initialisms ("URLHTTPS") split.
var initialisms = []string{"ACL", "API", "ASCII", "CPU", "CSS", "DNS", "EOF", "GUID", "HTML",
	"HTTPS", "HTTP", "ID", "IP", "JSON", "LHS", "QPS", "RAM", "RHS", "RPC", "SLA", "SMTP", "SQL",
	"SSH", "TCP", "TLS", "TTL", "UDP", "UID", "UI", "UUID", "URI", "URL", "VM", "XML", "XMPP",
	"XSRF", "XSS"}

func initialismAt(s string) int {
	best := 0
	for _, w := range initialisms {
		if len(w) > best && strings.HasPrefix(s, w) {
			best = len(w)
		}
	}
	return best
}

func splitsIntoInitialisms(s string) bool {
	parts := 0
	for len(s) > 0 {
		n := initialismAt(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		parts++
	}
	return parts > 1
}

func snake(name string) string {
	isUp := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLow := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDig := func(c byte) bool { return c >= '0' && c <= '9' }
	at := func(i int) byte {
		if i < len(name) {
			return name[i]
		}
		return 0
	}
	var out []byte
	runEnd := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isUp(c) && (i == 0 || !isUp(name[i-1])) {
			e := i
			for e < len(name) && isUp(name[e]) {
				e++
			}
			if e < len(name) && isLow(name[e]) && !(name[e] == 's' && (e+1 == len(name) || !isLow(name[e+1]))) {
				e--
			}
			runEnd = 0
			if splitsIntoInitialisms(name[i:e]) {
				runEnd = e
			}
		}
		if isUp(c) && i > 0 && len(out) > 0 && out[len(out)-1] != '_' {
			prev, next := name[i-1], at(i+1)
			plural := next == 's' && (i+2 >= len(name) || !isLow(name[i+2]))
			split := isLow(prev) || isDig(prev) || (isUp(prev) && isLow(next) && !plural)
			if !split && runEnd > 0 && i < runEnd && isUp(prev) {
				start := i
				for start > 0 && isUp(name[start-1]) {
					start--
				}
				for k := start; k < i; {
					n := initialismAt(name[k:runEnd])
					if n == 0 {
						n = 1
					}
					k += n
					if k == i {
						split = true
					}
				}
			}
			if split {
				out = append(out, '_')
			}
		}
		if c == '_' && len(out) > 0 && out[len(out)-1] == '_' {
			continue
		}
		if isUp(c) {
			c = c - 'A' + 'a'
		}
		out = append(out, c)
	}
	return string(out)
}

// withWireForm drops from types those tagc generates nothing for: a type with its
// own encoding/json methods and no //tagc:codec (a map key of such a type is its
// plain string to Go, and to tagc).
func withWireForm(f *ast.File, types []string) []string {
	custom := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		switch fd.Name.Name {
		case "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText":
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				custom[id.Name] = true
			}
		}
	}
	hasCodec := func(cg *ast.CommentGroup) bool { // Text() drops directives: the raw lines
		for _, c := range cgList(cg) {
			if strings.HasPrefix(c.Text, "//tagc:codec") {
				return true
			}
		}
		return false
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			if ts := sp.(*ast.TypeSpec); hasCodec(gd.Doc) || hasCodec(ts.Doc) {
				delete(custom, ts.Name.Name)
			}
		}
	}
	var out []string
	for _, t := range types {
		if !custom[t] {
			out = append(out, t)
		}
	}
	return out
}

func cgList(cg *ast.CommentGroup) []*ast.Comment {
	if cg == nil {
		return nil
	}
	return cg.List
}

func load(path string) (*schema, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	s := &schema{path: path, pkg: f.Name.Name}
	goImports := map[string]bool{}
	var decls []ast.Decl
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			decls = append(decls, d)
			continue
		}
		switch gd.Tok {
		case token.IMPORT:
			var specs []ast.Spec
			for _, sp := range gd.Specs {
				is := sp.(*ast.ImportSpec)
				p := strings.Trim(is.Path.Value, "\"`")
				if strings.HasSuffix(p, ".tagc") {
					continue
				}
				goImports[p] = true
				specs = append(specs, sp)
			}
			if len(specs) == 0 {
				continue
			}
			gd.Specs = specs
			if len(specs) == 1 {
				gd.Lparen = token.NoPos
			}
		case token.TYPE:
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				// a generic type has C functions per instantiation only (its users')
				if ts.Assign == token.NoPos && ts.Name.Name != "_" && ts.TypeParams == nil {
					s.types = append(s.types, ts.Name.Name)
				}
			}
		case token.CONST:
			for _, sp := range gd.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					if n.Name != "_" && ast.IsExported(n.Name) {
						s.consts = append(s.consts, n.Name)
					}
				}
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	s.types = withWireForm(f, s.types)
	f.Imports = nil
	f.Comments = nil // comments of dropped imports would float around
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, f); err != nil {
		return nil, err
	}
	// Imported Go packages may be unused (an import of "time" for nothing).
	if goImports["time"] {
		b.WriteString("\nvar _ time.Duration\n")
	}
	if goImports["encoding/json"] {
		b.WriteString("\nvar _ json.RawMessage\n")
	}
	s.src = b.Bytes()
	return s, nil
}

func writeCRegistry(path string, schemas []*schema) error {
	var b bytes.Buffer
	b.WriteString("/* go_diff_registry.c - generated by tests/go/prepare.go: wrappers around the\n" +
		" * generated functions of every named type of the differential test's schemas. */\n")
	b.WriteString("#include \"driver.h\"\n")
	for _, s := range schemas {
		fmt.Fprintf(&b, "#include \"%s.h\"\n", filepath.Base(s.path))
	}
	var rows []string
	for _, s := range schemas {
		for _, t := range s.types {
			c := s.pkg + "_" + snake(t)
			fmt.Fprintf(&b, "\nstatic void i_%s(void *v) { %s_init(v); }\n", c, c)
			fmt.Fprintf(&b, "static int d_%s(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *e, const tagc_json_opts *o)\n"+
				"{ return %s_decode_json(v, src, len, a, e, o); }\n", c, c)
			fmt.Fprintf(&b, "static int e_%s(const void *v, tagc_buf *out, const tagc_json_opts *o) { return %s_encode_json(v, out, o); }\n", c, c)
			fmt.Fprintf(&b, "static bool q_%s(const void *a, const void *b) { return %s_equal(a, b); }\n", c, c)
			rows = append(rows, fmt.Sprintf("    {\"%s.%s\", sizeof(%s), i_%s, d_%s, e_%s, q_%s},\n", s.pkg, t, c, c, c, c, c))
		}
	}
	b.WriteString("\nconst diff_type diff_types[] = {\n")
	for _, r := range rows {
		b.WriteString(r)
	}
	b.WriteString("};\nconst size_t diff_types_len = sizeof diff_types / sizeof diff_types[0];\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func writeModule(dir, genMain string, schemas []*schema) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tagcdiff\n\ngo 1.19\n"), 0o644); err != nil {
		return err
	}
	main, err := os.ReadFile(genMain)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), main, 0o644); err != nil {
		return err
	}
	pkgs := map[string]bool{}
	for _, s := range schemas {
		pd := filepath.Join(dir, "s_"+s.pkg)
		if err := os.MkdirAll(pd, 0o755); err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(s.path), ".tagc") + ".go"
		if err := os.WriteFile(filepath.Join(pd, name), s.src, 0o644); err != nil {
			return err
		}
		pkgs[s.pkg] = true
	}
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("// Code generated by prepare.go. DO NOT EDIT.\n\npackage main\n\nimport (\n\t\"reflect\"\n")
	for _, p := range names {
		fmt.Fprintf(&b, "\tp_%s \"tagcdiff/s_%s\"\n", p, p)
	}
	b.WriteString(")\n\nfunc init() {\n")
	for _, s := range schemas {
		for _, t := range s.types {
			fmt.Fprintf(&b, "\treg(\"%s.%s\", reflect.TypeOf((*p_%s.%s)(nil)).Elem())\n", s.pkg, t, s.pkg, t)
		}
		for _, c := range s.consts {
			fmt.Fprintf(&b, "\tenumValue(p_%s.%s)\n", s.pkg, c)
		}
	}
	b.WriteString("}\n")
	return os.WriteFile(filepath.Join(dir, "registry_gen.go"), b.Bytes(), 0o644)
}

func main() {
	creg := flag.String("creg", "", "write the C registry to this file")
	data := flag.String("data", "", "write the documents to this file")
	mod := flag.String("mod", "", "directory of the generated Go module (with -data)")
	genMain := flag.String("gen", "", "path of gen/main.go (with -data)")
	goExe := flag.String("go", "go", "the go command (with -data)")
	values := flag.Int("values", 300, "random values per type")
	mutations := flag.Int("mutations", 700, "mutated documents per type")
	seed := flag.Int64("seed", 1, "random seed")
	flag.Parse()

	var schemas []*schema
	for _, p := range flag.Args() {
		s, err := load(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "prepare:", err)
			os.Exit(1)
		}
		schemas = append(schemas, s)
	}
	if *creg != "" {
		if err := writeCRegistry(*creg, schemas); err != nil {
			fmt.Fprintln(os.Stderr, "prepare:", err)
			os.Exit(1)
		}
	}
	if *data != "" {
		if *mod == "" || *genMain == "" {
			fmt.Fprintln(os.Stderr, "prepare: -data needs -mod and -gen")
			os.Exit(2)
		}
		dir, err := filepath.Abs(*mod)
		if err == nil {
			err = writeModule(dir, *genMain, schemas)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "prepare:", err)
			os.Exit(1)
		}
		out, err := filepath.Abs(*data)
		if err != nil {
			fmt.Fprintln(os.Stderr, "prepare:", err)
			os.Exit(1)
		}
		cmd := exec.Command(*goExe, "run", ".", "-o", out,
			"-values", fmt.Sprint(*values), "-mutations", fmt.Sprint(*mutations), "-seed", fmt.Sprint(*seed))
		cmd.Dir = dir
		cmd.Stdout = os.Stdout
		cmd.Stderr = os.Stderr
		cmd.Env = append(os.Environ(), "GO111MODULE=on", "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0", "TZ=UTC")
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "prepare: go run:", err)
			os.Exit(1)
		}
	}
}
