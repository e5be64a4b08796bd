package api

type Page[T any] struct {
	Items []T `json:"items"`
}

type User struct {
	Name string `json:"name"`
}

type Response struct {
	Bare   Page             `json:"bare"`
	Two    Page[User, User] `json:"two"`
	NotGen User[int]        `json:"not_gen"`
	Bad    Page[Usr]        `json:"bad"`
}
