package gh

// Both embedded structs have Page and PerPage with no json tag: Go drops
// both names from the JSON wire, silently, and so does tagc.
type ListOptions struct {
	Page    int `url:"page,omitempty"`
	PerPage int `url:"per_page,omitempty"`
}

type ListCursorOptions struct {
	Page    string `url:"page,omitempty"`
	PerPage int    `url:"per_page,omitempty"`
	Cursor  string `url:"cursor,omitempty"`
}

type AlertListOptions struct {
	State string `url:"state,omitempty" json:"state"`
	ListOptions
	ListCursorOptions
}
