// Package python reads Python test files (pytest, unittest) for package testcheck.
package python
