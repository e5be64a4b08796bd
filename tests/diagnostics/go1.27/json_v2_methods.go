package shop

import "encoding/json/jsontext"

// Label has only AppendText: Go 1.27 writes it as a string, Go 1.26 as {}.
type Label struct {
	Text string
}

func (l Label) AppendText(b []byte) ([]byte, error) { return append(b, l.Text...), nil }

// Money writes itself with json/v2's method.
type Money struct {
	Cents int64
}

func (m Money) MarshalJSONTo(e *jsontext.Encoder) error { return nil }

// Cursor reads itself with json/v2's method (pointer receiver).
type Cursor struct {
	Pos int
}

func (c *Cursor) UnmarshalJSONFrom(d *jsontext.Decoder) error { return nil }

type Item struct {
	Label  Label
	Price  Money
	Cursor Cursor
}
