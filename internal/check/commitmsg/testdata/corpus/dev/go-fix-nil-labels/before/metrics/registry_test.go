package metrics

import "testing"

func TestInc(t *testing.T) {
	r := NewRegistry()
	r.Inc("requests", map[string]string{"code": "200"})
	if got := r.Value("requests", map[string]string{"code": "200"}); got != 1 {
		t.Errorf("got %d", got)
	}
}
