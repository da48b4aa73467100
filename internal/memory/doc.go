// Package memory holds the memory toolset's pure rules: entry types, sessions, anchors,
// error text, fingerprints, rank fusion. Redaction is package redact.
package memory
