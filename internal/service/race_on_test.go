//go:build race

package service_test

// raceEnabled: the race detector slows the retrieval benchmark (150
// embeddings over HTTP, redaction's regular expressions) about fiftyfold;
// scripts/test runs it without -race.
const raceEnabled = true
