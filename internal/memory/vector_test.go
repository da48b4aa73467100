package memory

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestEncodeVector(t *testing.T) {
	// 1.0 is 0x3f800000 and -2.0 is 0xc0000000; little-endian puts the low byte first.
	got := EncodeVector([]float32{1, -2})
	want := []byte{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeVector = % x, want % x", got, want)
	}
	if got := EncodeVector(nil); len(got) != 0 {
		t.Fatalf("EncodeVector(nil) = % x, want empty", got)
	}
}

func TestDecodeVector_RoundTrip(t *testing.T) {
	in := []float32{0, 1, -1, 0.5, float32(math.Pi), math.MaxFloat32, math.SmallestNonzeroFloat32, float32(math.Inf(-1))}
	out, err := DecodeVector(EncodeVector(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("got %d values, want %d", len(out), len(in))
	}
	for i := range in {
		if math.Float32bits(out[i]) != math.Float32bits(in[i]) {
			t.Fatalf("value %d: got %v, want %v", i, out[i], in[i])
		}
	}
}

func TestDecodeVector_Errors(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {1}, {1, 2, 3}, {1, 2, 3, 4, 5}} {
		if _, err := DecodeVector(b); !errors.Is(err, ErrVector) {
			t.Errorf("DecodeVector(% x) error = %v, want ErrVector", b, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	in := []float32{3, 4}
	got := Normalize(in)
	if got[0] != 0.6 || got[1] != 0.8 {
		t.Fatalf("Normalize(3,4) = %v, want [0.6 0.8]", got)
	}
	if in[0] != 3 {
		t.Fatal("Normalize changed its argument")
	}
	if got := Normalize([]float32{0, 0}); got[0] != 0 || got[1] != 0 {
		t.Fatalf("Normalize(zero) = %v, want zeros", got)
	}
	if n := norm(Normalize([]float32{1e-30, 2e-30, -7e-31})); math.Abs(n-1) > 1e-6 {
		t.Fatalf("norm of a normalized tiny vector = %v, want 1", n)
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []float32
		want float64
	}{
		{"same direction", []float32{1, 2, 3}, []float32{2, 4, 6}, 1},
		{"opposite", []float32{1, 0}, []float32{-3, 0}, -1},
		{"orthogonal", []float32{1, 0}, []float32{0, 5}, 0},
		{"45 degrees", []float32{1, 0}, []float32{1, 1}, 1 / math.Sqrt2},
		{"zero vector", []float32{0, 0}, []float32{1, 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Cosine(tt.a, tt.b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tt.want) > 1e-7 {
				t.Fatalf("Cosine = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCosine_Errors(t *testing.T) {
	for _, c := range []struct{ a, b []float32 }{
		{[]float32{1, 2}, []float32{1, 2, 3}},
		{nil, []float32{1}},
		{nil, nil},
	} {
		if _, err := Cosine(c.a, c.b); !errors.Is(err, ErrVector) {
			t.Errorf("Cosine(%v, %v) error = %v, want ErrVector", c.a, c.b, err)
		}
	}
}

func BenchmarkCosine768(b *testing.B) {
	x, y := make([]float32, 768), make([]float32, 768)
	for i := range x {
		x[i], y[i] = float32(i%13), float32(i%7)
	}
	for b.Loop() {
		Cosine(x, y)
	}
}

func BenchmarkDecodeVector768(b *testing.B) {
	blob := EncodeVector(make([]float32, 768))
	for b.Loop() {
		DecodeVector(blob)
	}
}
