// Package client talks to the billing API.
package client

import (
	"net/http"
	"time"
)

// Client calls the billing API.
type Client struct {
	base string
	http *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the default HTTP client.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.http = h }
}

// New returns a client for base.
func New(base string, opts ...Option) *Client {
	c := &Client{base: base, http: &http.Client{Timeout: 30 * time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c
}
