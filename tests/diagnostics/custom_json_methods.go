package gh

import (
	"strconv"
	"time"
)

// Timestamp also accepts unix times, as go-github's does: its own
// UnmarshalJSON is Go's to run.
type Timestamp struct {
	time.Time
}

func (t *Timestamp) UnmarshalJSON(data []byte) error {
	i, err := strconv.ParseInt(string(data), 10, 64)
	if err == nil {
		t.Time = time.Unix(i, 0)
	}
	return err
}

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte("level"), nil }

// Wrapper embeds Level: MarshalText is promoted.
type Wrapper struct {
	Level
	Note string `json:"note"`
}

type Event struct {
	Created Timestamp  `json:"created"`
	Updated *Timestamp `json:"updated"`
	Level   Level      `json:"level"`
	Wrapped Wrapper    `json:"wrapped"`
}
