package kv_test

import (
	"testing"

	. "github.com/onsi/gomega"

	"example.com/kvstore/internal/kv"
)

func TestFormatWithGomega(t *testing.T) {
	g := NewWithT(t)
	g.Expect(kv.Format(map[string]string{"x": "y"})).To(Equal("x=y"))
}

func TestGomegaDotImport(t *testing.T) {
	RegisterTestingT(t)
	Expect(kv.Format(nil)).To(BeEmpty())
}
