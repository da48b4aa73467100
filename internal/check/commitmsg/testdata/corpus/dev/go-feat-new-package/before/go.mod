module github.com/acme/kit

go 1.22
