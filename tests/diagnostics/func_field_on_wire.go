package shop

// Handler is called on each event; it is never on the wire.
type Handler func(event string) error

type Hook struct {
	Name     string        `json:"name"`
	OnSave   func() error  `json:"on_save"`
	Handler  Handler
	Events   chan<- string `json:"events"`
	Err      error         `json:"err,omitempty"`
	Notifier interface {
		Notify(msg string) error
	} `json:"notifier"`
}
