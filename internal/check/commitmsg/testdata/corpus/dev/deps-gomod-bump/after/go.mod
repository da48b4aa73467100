module github.com/acme/ingest

go 1.22

require (
	github.com/jackc/pgx/v5 v5.6.0
	golang.org/x/sync v0.6.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	golang.org/x/text v0.16.0 // indirect
)
