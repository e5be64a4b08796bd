// Methods decide what encoding/json does, as in Go.
package gh

import "time"

// Stamp embeds time.Time: its MarshalJSON is promoted, so Stamp is a time on
// the wire and Zone never is.
type Stamp struct {
	time.Time
	Zone string `json:"zone"`
}

// Later embeds Stamp, and so a time too.
type Later struct {
	*Stamp
}

// Bare is a defined type: it has none of time.Time's methods, and Go
// marshals it as {} (time.Time has no exported field).
type Bare time.Time

// Greeting has its own String method only: a plain struct.
type Greeting struct {
	Text string `json:"text"`
}

func (g Greeting) String() string { return g.Text }

// Rich has a MarshalJSON, but no wire field uses it: nothing to report.
type Rich struct {
	Data []byte
}

func (r *Rich) MarshalJSON() ([]byte, error) { return r.Data, nil }

type Event struct {
	At       Stamp    `json:"at"`
	Later    *Later   `json:"later,omitempty"`
	Bare     Bare     `json:"bare"`
	Greeting Greeting `json:"greeting"`
	rich     Rich
}
