package foryimpl

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/forygen/forygen/buffer"
)

// rootTargets returns a fresh pointer of every root value type, for
// ReadRootValue.
func rootTargets() []any {
	return []any{new(bool), new(int8), new(int16), new(int32), new(int64), new(int), new(uint8), new(uint16),
		new(uint32), new(uint64), new(uint), new(float32), new(float64), new(string), new(time.Time), new(time.Duration),
		new([]byte), new([]bool), new([]int8), new([]int16), new([]int32), new([]int64), new([]int), new([]uint16),
		new([]uint32), new([]uint64), new([]float32), new([]float64), new([]string),
		new(map[string]bool), new(map[string]int32), new(map[string]int64), new(map[string]int), new(map[string]float64),
		new(map[string]string), new(map[int32]bool), new(map[int32]int32), new(map[int32]int64), new(map[int32]float64),
		new(map[int32]string), new(map[int64]bool), new(map[int64]int32), new(map[int64]int64), new(map[int64]float64),
		new(map[int64]string), new(map[int]int)}
}

// rootSeeds are messages of every root kind.
func rootSeeds(f *Runtime) [][]byte {
	var out [][]byte
	for _, v := range []any{true, int8(-2), int16(300), int32(-7), int64(math.MinInt64), 42, uint8(7), uint16(9),
		uint32(1 << 31), uint64(math.MaxUint64), uint(3), float32(1.5), math.Inf(-1), "héllo", time.Unix(5, 6),
		-time.Second, []byte{1, 2}, []bool{true}, []int8{-1}, []int16{2}, []int32{3, 4}, []int64{5}, []int{6},
		[]uint16{7}, []uint32{8}, []uint64{9}, []float32{1}, []float64{2}, []string{"a", ""}, []int32(nil),
		map[string]int64{"a": 1, "b": -1}, map[int32]string{1: "x"}, map[string]string{"k": "v"},
		map[int64]float64{1: 2}, map[string]bool{}, map[int]int{1: 2}} {
		b := buffer.New(16)
		if ok, err := f.WriteRootValue(b, v); !ok || err != nil {
			panic("seed")
		}
		out = append(out, b.Bytes())
	}
	return out
}

// Every sample decodes into its own type and fails with a DecodeError for
// the others; nothing panics.
func TestRootValueTargets(t *testing.T) {
	var f Runtime
	f.Init(DefaultConfig())
	for _, data := range rootSeeds(&f) {
		decoded := 0
		for _, p := range rootTargets() {
			ok, err := f.ReadRootValue(data, p)
			if !ok {
				t.Fatalf("%T not handled", p)
			}
			var de *DecodeError
			switch {
			case err == nil:
				decoded++
			case !errors.As(err, &de):
				t.Fatalf("%x into %T: %v is not a DecodeError", data, p, err)
			}
		}
		// A type id names one Go type, or a few for an integer (int64
		// and int) or an empty map (every map type).
		if decoded == 0 {
			t.Fatalf("%x decodes into no type", data)
		}
	}
	if ok, _ := f.ReadRootValue([]byte{1, 0xff, 7, 2}, new(struct{})); ok {
		t.Fatal("a struct pointer is not a root value")
	}
}

// FuzzRootValues decodes arbitrary input into every root value type: it
// never panics, every error is a DecodeError, and what decodes re-encodes
// to a message that decodes again.
func FuzzRootValues(f *testing.F) {
	var rt Runtime
	rt.Init(DefaultConfig())
	for _, s := range rootSeeds(&rt) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range rootTargets() {
			_, err := rt.ReadRootValue(data, p)
			if err != nil {
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%T: %v is not a DecodeError", p, err)
				}
				continue
			}
			b := buffer.New(len(data))
			if ok, err := rt.WriteRootPointer(b, p); !ok || err != nil {
				t.Fatalf("%T: decoded value does not re-encode: %v", p, err)
			}
			if _, err := rt.ReadRootValue(b.Bytes(), p); err != nil {
				t.Fatalf("%T: re-encoded value does not decode: %v", p, err)
			}
		}
	})
}
