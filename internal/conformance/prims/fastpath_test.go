package prims

import (
	"errors"
	"math"
	"testing"

	"github.com/forygen/forygen/serializer"
)

// The context-free fast path of ForyDeserialize (a struct of primitive
// fields only) accepts exactly the messages the read-context path accepts,
// with the same value; it never reports an error of its own, so a rejected
// message gets the context path's error.
func FuzzFastPathAgrees(f *testing.F) {
	full := AllPrims{B: true, I8: -8, I16: -1600, I32: 1 << 30, I64: -1 << 60, I: 42, U8: 200,
		U16: 60000, U32: 1 << 31, U64: 1 << 63, F32: 1.5, F64: -2.25}
	modes := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false))}
	for _, fy := range modes {
		data, err := fy.Serialize(&full)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)-1])
		f.Add(append(data, 0))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range modes {
			var fast, slow AllPrims
			fastErr := fast.ForyDeserialize(fy, data)
			slowErr := slow.foryDeserializeContext(fy, data)
			if (fastErr == nil) != (slowErr == nil) || !same(fast, slow) {
				t.Fatalf("compatible=%v % x: fast path %+v (%v), context path %+v (%v)", fy.Compatible(), data, fast, fastErr, slow, slowErr)
			}
			var de *serializer.DecodeError
			if fastErr != nil && !errors.As(fastErr, &de) {
				t.Fatalf("error %v is not a *serializer.DecodeError", fastErr)
			}
		}
	})
}

// Every truncation and every single-byte change of both encodings: the two
// paths agree (the fuzz target's check, exhaustively for this input).
func TestFastPathAgreesOnMutations(t *testing.T) {
	full := AllPrims{B: true, I8: -8, I16: -1600, I32: 1 << 30, I64: -1 << 60, I: 42, U8: 200,
		U16: 60000, U32: 1 << 31, U64: 1 << 63, F32: 1.5, F64: -2.25}
	for _, fy := range []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false))} {
		data, err := fy.Serialize(&full)
		if err != nil {
			t.Fatal(err)
		}
		var inputs [][]byte
		for n := 0; n <= len(data); n++ {
			inputs = append(inputs, data[:n])
		}
		for i := range data {
			for _, b := range []byte{0x00, 0x01, 0x7f, 0x80, 0xff, data[i] ^ 0x40} {
				m := append([]byte(nil), data...)
				m[i] = b
				inputs = append(inputs, m)
			}
		}
		for _, in := range inputs {
			var fast, slow AllPrims
			fastErr := fast.ForyDeserialize(fy, in)
			slowErr := slow.foryDeserializeContext(fy, in)
			if (fastErr == nil) != (slowErr == nil) || !same(fast, slow) {
				t.Fatalf("compatible=%v % x: fast path %+v (%v), context path %+v (%v)", fy.Compatible(), in, fast, fastErr, slow, slowErr)
			}
		}
		var back AllPrims
		if err := back.ForyDeserialize(fy, data); err != nil || !same(back, full) {
			t.Fatalf("round trip: %+v, %v", back, err)
		}
	}
}

// same compares two values, floats by their bits (a decoded NaN is not
// equal to itself).
func same(a, b AllPrims) bool {
	if math.Float32bits(a.F32) != math.Float32bits(b.F32) || math.Float64bits(a.F64) != math.Float64bits(b.F64) {
		return false
	}
	a.F32, a.F64, b.F32, b.F64 = 0, 0, 0, 0
	return a == b
}
