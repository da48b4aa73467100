module example.com/defects

go 1.24
