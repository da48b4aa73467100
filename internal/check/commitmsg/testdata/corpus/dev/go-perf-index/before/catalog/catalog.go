package catalog

// Product is one item for sale.
type Product struct {
	SKU   string
	Name  string
	Price int
}

// Catalog holds the products.
type Catalog struct {
	products []Product
}

// Add appends a product.
func (c *Catalog) Add(p Product) { c.products = append(c.products, p) }

// Find returns the product with sku.
func (c *Catalog) Find(sku string) (Product, bool) {
	for _, p := range c.products {
		if p.SKU == sku {
			return p, true
		}
	}
	return Product{}, false
}
