// Directives in every file of a package apply to the type that follows them
// there, never to a type of another file on the same line.
package shop

//tagc:closed
type Note struct {
	Text string `json:"text"`
}

//tagc:closed
var limit = 1 // b.go has type Kind on this line: not this directive's
