// Package html: "\x00" and its kin are Go string escapes; in code tagc skips
// (function bodies, var declarations) and in constants no enum needs they are
// read and not an error (golang.org/x/net/html's parse.go, golang.org/x/text's
// tables.go).
package html

import "strings"

var table = "---\x00aaa\000bbb\u0000"

const whitespace = " \t\r\n\f"
const whitespaceOrNUL = whitespace + "\x00"
const sep = "\x00"

func clean(d string) string {
	return strings.Replace(d, "\x00", "", -1)
}

type Node struct {
	Data string `json:"data"`
}
