// Package html: a NUL in a string tagc keeps (a struct tag) is still an error.
package html

type Node struct {
	Data string "json:\"data\x00\""
}
