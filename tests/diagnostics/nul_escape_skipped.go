// Package html: "\x00" and its kin are Go string escapes; in code tagc skips
// (function bodies, var declarations) they are read and not an error
// (golang.org/x/net/html's parse.go, golang.org/x/text's tables.go).
package html

import "strings"

var table = "---\x00aaa\000bbb\u0000"

func clean(d string) string {
	return strings.Replace(d, "\x00", "", -1)
}

type Node struct {
	Data string `json:"data"`
}
