package shop

type Status string

const (
	Active Status = "active"
	Closed Status = "closed"
)

//tagc:closed
type Kind struct {
	Name string `json:"name"`
}

//tagc:closed
type Level int

const (
	Low Level = iota
	High
)

type Item struct {
	S Status `json:"s"`
	K Kind   `json:"k"`
	L Level  `json:"l"`
	N Note   `json:"n"`
}
