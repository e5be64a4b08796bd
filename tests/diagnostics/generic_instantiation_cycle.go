package p
type P[T any] struct{ X P[P[T]] }
type U struct { A P[int] `json:"a"` }
