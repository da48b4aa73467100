// Package order models customer orders.
package order

// Order is one purchase.
type Order struct {
	ID    string
	Total int
}
