// Package memory holds the memory toolset's pure rules: entry types, redaction, rank fusion.
package memory
