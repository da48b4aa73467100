// Package redact removes secrets and private spans from text before Cairn keeps it:
// the rules and provider shapes, Redact and FindSecrets over a string, and Scrub over
// every string a write carries. It is a pure domain package, used by hooks, sessions
// and memory writes alike.
package redact
