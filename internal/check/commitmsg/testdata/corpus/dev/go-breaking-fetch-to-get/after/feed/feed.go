// Package feed reads RSS feeds.
package feed

import (
	"context"
	"encoding/xml"
	"net/http"
)

// Item is one entry.
type Item struct {
	Title string `xml:"title"`
	Link  string `xml:"link"`
}

// Reader fetches feeds.
type Reader struct {
	HTTP *http.Client
}

// Get reads the feed at url; ctx bounds the request.
func (r *Reader) Get(ctx context.Context, url string) ([]Item, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var doc struct {
		Items []Item `xml:"channel>item"`
	}
	return doc.Items, xml.NewDecoder(resp.Body).Decode(&doc)
}
