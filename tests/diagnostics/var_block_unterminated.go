package p

type User struct {
	Name string `json:"name"`
}

var (
	defaultUser = User{Name: "x"}
