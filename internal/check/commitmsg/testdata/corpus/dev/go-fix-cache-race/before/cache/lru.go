package cache

import (
	"container/list"
	"sync"
)

// LRU is a least-recently-used cache of strings.
type LRU struct {
	mu    sync.Mutex
	max   int
	order *list.List
	items map[string]*list.Element
}

type entry struct{ key, value string }

// New returns a cache of at most max entries.
func New(max int) *LRU {
	return &LRU{max: max, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value of key and marks it used.
func (c *LRU) Get(key string) (string, bool) {
	e, ok := c.items[key]
	if !ok {
		return "", false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry).value, true
}

// Put stores key.
func (c *LRU) Put(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.Value.(*entry).value = value
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&entry{key, value})
	if c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*entry).key)
	}
}
