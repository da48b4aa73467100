// Package kit collects small helpers.
package kit
