package p

type User struct {
	Name string `json:"name"`
}

func (u User) Initial() rune {
	return 'x
}
