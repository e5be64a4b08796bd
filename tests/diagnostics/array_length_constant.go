package gh

// RateCategory is an index into the rate limits; Categories counts them.
type RateCategory int

const (
	CoreCategory RateCategory = iota
	SearchCategory
	GraphqlCategory
	_
	Categories // an array of this length holds every category
)

const Pair = 2 * (1 << 1) - 2

type Rate struct {
	Limit int `json:"limit"`
}

type Client struct {
	Rates      [Categories]Rate `json:"rates"`
	Pair       [Pair]string     `json:"pair"`
	rateLimits [Categories]Rate
}

// Generic types are read; their type parameters are not array lengths.
type structPtr[T any] interface{ *T }

type (
	pair[K comparable, V any] struct {
		Key   K
		Value V
	}
	Fixed [4]byte
)
