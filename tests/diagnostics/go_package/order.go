// Package shop: its types are spread over files, as Go packages are.
package shop

import (
	"time"

	"github.com/example/money"
)

type Order struct {
	ID       int64     `json:"id"`
	Buyer    User      `json:"buyer"`
	PlacedAt time.Time `json:"placed_at"`
	Status   Status    `json:"status"`
	total    money.Amount
}
