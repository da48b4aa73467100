// Package scan is what the language readers of package testcheck share: the token
// lexers (JavaScript/TypeScript, Java, Rust, Python), the rule ids and the finding helpers.
package scan
