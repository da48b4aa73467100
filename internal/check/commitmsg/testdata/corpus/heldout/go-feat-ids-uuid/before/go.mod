module github.com/acme/orders

go 1.22
