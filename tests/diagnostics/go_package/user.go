package shop

import t "time"

type User struct {
	Name string `json:"name"`
	Seen t.Time `json:"seen"`
}

func (u User) String() string { return u.Name }
