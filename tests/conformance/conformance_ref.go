// conformance_ref prints what Go 1.19's encoding/json does with each file of a
// directory (JSONTestSuite's test_parsing), for tests/conformance/test_conformance.c:
//
//	go run conformance_ref.go DIR
//
// One line per file, sorted by name: "NAME ok HEX" when json.Unmarshal into an
// interface{} succeeds (HEX: json.Marshal of the result, hex-encoded), or
// "NAME err -" when it fails.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	dir := os.Args[1]
	ents, err := os.ReadDir(dir)
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && filepath.Ext(e.Name()) == ".json" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			panic(err)
		}
		var v interface{}
		if err := json.Unmarshal(data, &v); err != nil {
			fmt.Fprintf(w, "%s err -\n", n)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "%s ok %x\n", n, out)
	}
}
