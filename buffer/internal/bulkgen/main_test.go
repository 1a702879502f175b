package main

import (
	"bytes"
	"os"
	"testing"
)

// TestFresh fails when bulk_gen.go is not what the table generates.
func TestFresh(t *testing.T) {
	src, err := source()
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(target())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, src) {
		t.Fatal("buffer/bulk_gen.go is stale: run go generate ./buffer")
	}
}
