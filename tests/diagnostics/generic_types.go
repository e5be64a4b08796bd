package api

type Page[T any] struct {
	Items []T   `json:"items"`
	Next  *int  `json:"next,omitempty"`
	Total int   `json:"total"`
}

type Pair[K comparable, V any] struct {
	Key   K `json:"key"`
	Value V `json:"value"`
}

type User struct {
	Name string `json:"name"`
}

type Response struct {
	Users  Page[User]              `json:"users"`
	Again  *Page[User]             `json:"again"`
	Names  Page[string]            `json:"names"`
	Pairs  []Pair[string, []User]  `json:"pairs"`
}
