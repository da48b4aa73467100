package bridge

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// origin is a URL's scheme, host and port: the only place the bridge sends
// its credentials (the bearer token and the --header values).
type origin struct{ scheme, host, port string }

func originOf(u *url.URL) origin {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return origin{scheme: scheme, host: strings.ToLower(u.Hostname()), port: port}
}

func (o origin) String() string {
	return o.scheme + "://" + net.JoinHostPort(o.host, o.port)
}

// originTransport adds the configured headers (and the bearer token) to
// the requests for the remote's origin and to no other; http.Client strips
// Authorization on a cross-host redirect, but a transport that re-adds it
// on every request would undo that. It also bounds the body of every
// response to a request (not the long-lived standalone SSE stream), so a
// hostile remote cannot make one answer cost unbounded memory.
type originTransport struct {
	base     http.RoundTripper
	origin   origin
	header   http.Header
	maxBytes int64
}

func (t *originTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.header) > 0 && originOf(r.URL) == t.origin {
		r = r.Clone(r.Context())
		for k, vs := range t.header {
			r.Header[k] = vs
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil || r.Method == http.MethodGet || t.maxBytes <= 0 {
		return resp, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: t.maxBytes, max: t.maxBytes}
	return resp, nil
}

// errResponseTooLarge ends the read of a response over the cap.
var errResponseTooLarge = errors.New("response too large")

type cappedBody struct {
	io.ReadCloser
	left, max int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("the remote's answer exceeds the bridge's cap of %d bytes (raise it with --max-response-bytes): %w", c.max, errResponseTooLarge)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.ReadCloser.Read(p)
	c.left -= int64(n)
	return n, err
}

// checkRedirect refuses a redirect to any other origin (another host or
// port, or from https to http): the remote's endpoint is what was
// configured, and nothing of the session should go elsewhere.
func (b *Bridge) checkRedirect(prev func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if o := originOf(req.URL); o != b.origin {
			return fmt.Errorf("the remote redirected to %s, another origin than %s: refused (the bridge sends its credentials only to the URL it was given; use the final URL)", o, b.origin)
		}
		if prev != nil {
			return prev(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

func (b *Bridge) newHTTPClient() *http.Client {
	base := b.opts.HTTPClient
	if base == nil {
		base = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	h := b.opts.Header.Clone()
	if b.opts.Token != "" {
		if h == nil {
			h = http.Header{}
		}
		h.Set("Authorization", "Bearer "+b.opts.Token)
	}
	c := *base
	rt := c.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	c.Transport = &originTransport{base: rt, origin: b.origin, header: h, maxBytes: b.opts.MaxResponseBytes}
	c.CheckRedirect = b.checkRedirect(base.CheckRedirect)
	return &c
}

// sensitiveQueryKey reports whether a query parameter's name says its value
// is a credential.
func sensitiveQueryKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range []string{"token", "key", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "jwt", "code"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// RedactURL is raw without credentials, for the cache file, logs and
// messages: the user information (user:password@) is dropped and the values
// of query parameters named like credentials (token, key, secret, password,
// auth, signature, ...) are replaced.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for k, vs := range q {
			if sensitiveQueryKey(k) {
				for i := range vs {
					vs[i] = "REDACTED"
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// scrub removes the configured secrets from text bound for a log or a
// message: the raw URL (which may carry credentials) and the token.
func (b *Bridge) scrub(s string) string {
	if b.opts.URL != b.safeURL {
		s = strings.ReplaceAll(s, b.opts.URL, b.safeURL)
	}
	if u, err := url.Parse(b.opts.URL); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			s = strings.ReplaceAll(s, pw, "REDACTED")
		}
	}
	if b.opts.Token != "" {
		s = strings.ReplaceAll(s, b.opts.Token, "REDACTED")
	}
	return s
}
