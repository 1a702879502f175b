package intenc

import (
	"bytes"
	"testing"

	"github.com/forygen/forygen/serializer"
)

// A message written with reference tracking starts with the tracking root
// prefix: in compatible mode the 91 bytes of foryRootIntEncodings with root
// flag 00, which ForyDeserialize compares with the variable rather than as
// words (it is longer than emit's maxWordPrefix). The prefix read and the
// read-context path agree on it, on every truncation and on every change
// of a prefix byte.
func TestTrackedLongPrefix(t *testing.T) {
	in := IntEncodings{TaggedI64: -1 << 40, FixedI64: 7, FixedI32: -3, TaggedU64: 1 << 50, FixedU32: 9, FixedU64: 1 << 63, VarI64: -5, VarU32: 300, Uint: 12}
	for _, compatible := range []bool{true, false} {
		fy := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(true))
		data, err := fy.Serialize(&in)
		if err != nil {
			t.Fatal(err)
		}
		if compatible {
			want := append([]byte(nil), foryRootIntEncodings[:]...)
			want[1] = 0x00
			if len(foryRootIntEncodings) != 91 || !bytes.HasPrefix(data, want) {
				t.Fatalf("tracked message % x does not start with the tracking prefix % x", data, want)
			}
		}
		inputs := [][]byte{data}
		for n := 0; n < len(data); n++ {
			inputs = append(inputs, data[:n])
		}
		for i := 0; i < len(data) && i < 100; i++ {
			m := append([]byte(nil), data...)
			m[i] ^= 0x40
			inputs = append(inputs, m)
		}
		for _, d := range inputs {
			var fast, slow IntEncodings
			fastErr := fast.ForyDeserialize(fy, d)
			slowErr := slow.foryDeserializeContext(fy, d)
			if (fastErr == nil) != (slowErr == nil) || fast != slow {
				t.Fatalf("compatible=%v % x: fast %+v (%v), context %+v (%v)", compatible, d, fast, fastErr, slow, slowErr)
			}
		}
		var back IntEncodings
		if err := back.ForyDeserialize(fy, data); err != nil || back != in {
			t.Fatalf("compatible=%v: round trip %+v, %v", compatible, back, err)
		}
	}
}
