// Package geo does plane geometry.
package geo

import "math"

// Point is a point in the plane.
type Point struct{ X, Y float64 }

// Dist is the distance between p and q.
func (p Point) Dist(q Point) float64 { return math.Hypot(q.X-p.X, q.Y-p.Y) }

// Mid is the midpoint of p and q.
func (p Point) Mid(q Point) Point { return Point{(p.X + q.X) / 2, (p.Y + q.Y) / 2} }

// Rotate turns p around the origin by theta radians.
func (p Point) Rotate(theta float64) Point {
	s, c := math.Sincos(theta)
	return Point{p.X*c - p.Y*s, p.X*s + p.Y*c}
}
