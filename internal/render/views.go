package render

// ViewsOf is xs each as its view, nil for nil: a view's JSON keeps the
// difference between an absent list (null) and an empty one ([]).
func ViewsOf[T, V any](xs []T, view func(T) V) []V {
	if xs == nil {
		return nil
	}
	out := make([]V, len(xs))
	for i, x := range xs {
		out[i] = view(x)
	}
	return out
}
