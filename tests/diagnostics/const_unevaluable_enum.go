package p

type Level int

const (
	Low  Level = 1 << 10 | 3
	High Level = 2
)

type Status string

const (
	Open    Status = "open"
	Default        = Open
	Same    Status = "open"
)
