package memory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrVector means a vector or its encoded blob is malformed: empty, a length that is
// not a whole number of float32s, or two vectors of different dimensions.
var ErrVector = errors.New("invalid vector")

// EncodeVector returns v as consecutive little-endian IEEE 754 float32s, the blob
// format sqlite-vec's vec_f32 and vec_distance_cosine accept and the one Cairn stores.
func EncodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// DecodeVector is the inverse of EncodeVector. It fails on an empty blob or one whose
// length is not a multiple of four.
func DecodeVector(b []byte) ([]float32, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("decode vector: empty blob: %w", ErrVector)
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("decode vector: blob of %d bytes is not a whole number of float32s: %w", len(b), ErrVector)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// Normalize returns v scaled to unit Euclidean length, as a new slice. A zero vector
// has no direction and comes back as zeros.
func Normalize(v []float32) []float32 {
	out := make([]float32, len(v))
	n := norm(v)
	if n == 0 {
		return out
	}
	for i, f := range v {
		out[i] = float32(float64(f) / n)
	}
	return out
}

// Cosine returns the cosine similarity of a and b, from -1 to 1; it is 0 when either is
// a zero vector. The vectors must have the same, non-zero dimension.
func Cosine(a, b []float32) (float64, error) {
	if len(a) == 0 || len(b) == 0 {
		return 0, fmt.Errorf("cosine: empty vector: %w", ErrVector)
	}
	if len(a) != len(b) {
		return 0, fmt.Errorf("cosine: dimensions differ (%d and %d): %w", len(a), len(b), ErrVector)
	}
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	na, nb := norm(a), norm(b)
	if na == 0 || nb == 0 {
		return 0, nil
	}
	c := dot / (na * nb)
	// Rounding can push parallel vectors a hair past ±1.
	return math.Max(-1, math.Min(1, c)), nil
}

func norm(v []float32) float64 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	return math.Sqrt(s)
}
