module github.com/acme/semkit

go 1.22
