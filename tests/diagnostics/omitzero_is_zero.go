package shop

type Money struct {
	Cents    int64  `json:"cents"`
	Currency string `json:"currency"`
}

// IsZero: no amount, whatever the currency.
func (m Money) IsZero() bool { return m.Cents == 0 }

type Order struct {
	ID    int64  `json:"id"`
	Total Money  `json:"total,omitzero"`
	Tip   *Money `json:"tip,omitzero"`
}
