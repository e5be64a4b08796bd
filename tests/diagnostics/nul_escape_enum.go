// Package html: an enum value is a C string in the generated code: one with a
// NUL escape is a constant tagc cannot evaluate, an error at it.
package html

type Sep string

const (
	Comma Sep = ","
	Nul   Sep = "\x00"
)

type Node struct {
	Sep Sep `json:"sep"`
}
