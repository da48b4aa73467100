// Package client talks to the billing API.
package client

import (
	"net/http"
	"time"
)

// Client calls the billing API.
type Client struct {
	base    string
	http    *http.Client
	retries int
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the default HTTP client.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.http = h }
}

// WithTimeout sets the timeout of each request.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) { c.http.Timeout = d }
}

// WithRetries retries idempotent requests n times on 5xx answers.
func WithRetries(n int) Option {
	return func(c *Client) { c.retries = n }
}

// New returns a client for base.
func New(base string, opts ...Option) *Client {
	c := &Client{base: base, http: &http.Client{Timeout: 30 * time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c
}
