// Package feed reads RSS feeds.
package feed

import (
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

// Fetch reads the feed at url.
func (r *Reader) Fetch(url string) ([]Item, error) {
	resp, err := r.HTTP.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var doc struct {
		Items []Item `xml:"channel>item"`
	}
	return doc.Items, xml.NewDecoder(resp.Body).Decode(&doc)
}
