// methods.go - go-github's Timestamp as its Go source declares it: with its own
// UnmarshalJSON (tagc reads methods and skips their bodies), which makes it a
// type Go's encoding/json hands to the method. The //tagc:codec comment gives
// tagc the C side of that method; without it the type is an error at the
// field that needs it (tests/diagnostics/custom_json_methods.go).
package ghm

import (
	"strconv"
	"time"
)

//tagc:codec ctype=tagc_time json=gh_timestamp_json msgpack=gh_timestamp_msgpack equal=gh_timestamp_equal wire=string|integer
type Timestamp struct {
	time.Time
}

func (t *Timestamp) UnmarshalJSON(data []byte) (err error) {
	str := string(data)
	i, err := strconv.ParseInt(str, 10, 64)
	if err == nil {
		t.Time = time.Unix(i, 0)
		if t.Time.Year() > 3000 {
			t.Time = time.Unix(0, i*1e6)
		}
	} else {
		t.Time, err = time.Parse(`"`+time.RFC3339+`"`, str)
	}
	return
}

type Repo struct {
	PushedAt *Timestamp `json:"pushed_at,omitempty"`
}
