package shop

// one package is one scope: a second User is a duplicate, as in Go
type User struct {
	ID int `json:"id"`
}
