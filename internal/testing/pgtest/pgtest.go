// Package pgtest finds the PostgreSQL database the tests run against and
// names fresh projects in it.
package pgtest

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
)

// EnvURL names the variable that holds the test database's URL;
// scripts/test starts a server (scripts/pg.sh) and sets it.
const EnvURL = "CAIRN_TEST_DATABASE_URL"

// URL returns the test database's URL. When it is unset the test is skipped,
// unless CI is set (CI=true): then it fails, so that CI cannot pass by
// skipping the PostgreSQL tests.
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(EnvURL)
	if url == "" {
		msg := EnvURL + " is not set: run scripts/test (which starts PostgreSQL with scripts/pg.sh), " +
			"or eval \"$(scripts/pg.sh start)\" first"
		if os.Getenv("CI") != "" && os.Getenv("CI") != "false" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return url
}

// Project returns a project name no other test uses, so that tests sharing
// one database never see each other's rows.
func Project(t testing.TB) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return t.Name() + "-" + hex.EncodeToString(b[:])
}
