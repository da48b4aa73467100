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
	bySKU    map[string]int // index into products: Find was a linear scan on every request
}

// Add appends a product.
func (c *Catalog) Add(p Product) {
	if c.bySKU == nil {
		c.bySKU = map[string]int{}
	}
	c.bySKU[p.SKU] = len(c.products)
	c.products = append(c.products, p)
}

// Find returns the product with sku in O(1).
func (c *Catalog) Find(sku string) (Product, bool) {
	i, ok := c.bySKU[sku]
	if !ok {
		return Product{}, false
	}
	return c.products[i], true
}
