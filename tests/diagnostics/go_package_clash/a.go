package shop

type User struct {
	Name string `json:"name"`
}
