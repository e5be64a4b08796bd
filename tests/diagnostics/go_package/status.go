package shop

type Status string

const (
	StatusOpen Status = "open"
	StatusPaid Status = "paid"
)
