// Constants follow Go's rules: every kind of constant is read; only the
// integer and string ones of a declared type make enum values.
package p

import (
	"time"
	a "example.com/a"
)

const Debug = true
const Pi = 3.14159
const Timeout = 1 * time.Millisecond
const Name = "x" + "y"
const R = 'x'
const Shift = 1 << 10 | 3

type Status string

const (
	StatusOpen Status = "open"
	StatusDefault = StatusOpen
	StatusPaid Status = "paid"
	Alias Status = StatusPaid
)

const X a.CauseType = "x"

type Level int

const (
	Low Level = iota * 10
	_
	High
	Max = High
)

type T struct {
	S Status `json:"s"`
	L Level  `json:"l"`
}

const (
	KB = 1 << (10 * (iota + 1))
	MB
	Mask     = KB - 1 | 0x0f
	Enabled  = !false
	Half     = 1 / 2.0
	Size     = len("abc")
	Blocked  = Status("blocked")
	Interval time.Duration = 5 * time.Second
	Big      = 1e9
	Ratio    = 0x1p-2
)
