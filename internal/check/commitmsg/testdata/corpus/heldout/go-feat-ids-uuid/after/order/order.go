// Package order models customer orders.
package order

import "github.com/google/uuid"

// Order is one purchase.
type Order struct {
	ID    string
	Total int
}

// New returns an order with a fresh random ID.
func New(total int) Order {
	return Order{ID: uuid.NewString(), Total: total}
}
