// Package shop: a Go file as it is, with what tagc reads and skips.
package shop

import "time"

//go:generate stringer -type=Kind

var ErrNotFound = errors.New("not found: }")

var (
	ratio   = 1.5e3
	handler = func(r rune) bool { return r == '}' || r == '\'' }
	table   = map[string]int{"{": 1}
)

// Visitor is never on the wire.
type Visitor func(u *User) (stop bool, err error)

type Stringer interface {
	String() string
}

type User struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	visit   Visitor
	done    chan struct{}
	Log     func(format string, args ...interface{}) `json:"-"`
	Any     interface{} `json:"any,omitempty"`
}

func (u *User) String() string {
	s := `raw } string with { braces`
	/* a } in a comment */
	if u.Name != "}" {
		return s + string('{')
	}
	return fmt.Sprintf("%v %d", 1.5, 0x1F)
}

func Map[K comparable, V any](m map[K]V, f func(V) V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

func (p Page[T]) Len() int { return len(p.Items) }

func asmOnly(x int) int

func init() {
	go func() { <-time.After(time.Second) }()
}
