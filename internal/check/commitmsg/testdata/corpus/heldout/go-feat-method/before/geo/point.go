// Package geo does plane geometry.
package geo

import "math"

// Point is a point in the plane.
type Point struct{ X, Y float64 }

// Dist is the distance between p and q.
func (p Point) Dist(q Point) float64 { return math.Hypot(q.X-p.X, q.Y-p.Y) }
