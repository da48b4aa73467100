module example.com/legacy

go 1.21
