package gen_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Type hints official Fory Go's grammar parses but forygen does not
// implement (testdata/src/badhints) are generation errors that name the
// field and the hint, never accepted and ignored (issue 24).
func TestRefusedHints(t *testing.T) {
	errs := runErrors(t, "./testdata/src/badhints")
	want := []struct{ pos, what string }{
		{"10:2", "H.ArrayKey: type=map(key=array(element=int32)): array type hint is not valid for map keys; remove key=array(\u2026) (an array key is a list)"},
		{"11:2", "H.NullValue: type=list(element=int32(nullable=true)): int32(nullable=true): nullable=true needs a pointer or Optional element, not int32; declare the element a pointer"},
		{"12:2", "H.NotNullPtr: type=list(element=_(nullable=false)): _(nullable=false): nullable=false on a pointer element is not supported; declare the element a value"},
		{"13:2", "H.OtherScalar: type=list(element=int64(encoding=fixed)): int64(encoding=fixed) does not match the Go type int32; name the Go type's own scalar or use _"},
		{"14:2", "H.Tagged32: type=list(element=int32(encoding=tagged)): encoding=tagged is not valid for int32; use encoding=varint, encoding=fixed or no encoding tag (tagged applies to int64 and uint64 only)"},
		{"15:2", "H.ArrayArgs: type=array(element=int32(encoding=fixed)): array(element=int32(encoding=fixed)): an array element is a plain number or bool, without arguments"},
		{"16:2", "H.ArrayOther: type=array(element=int64): array(element=int64) does not match the Go element type int32"},
		{"17:2", "H.ArrayString: type=array(element=string): array element \"string\" is not a dense array element type"},
		{"18:2", "H.ListKey: type=list(key=int32): list(key=int32): list takes element=, not key= or value="},
		{"19:2", "H.MapElement: type=map(element=int32): map(element=int32): map takes key= and value=, not element="},
		{"20:2", "H.SetOnSlice: type=set(element=int32) applies only to a serializer.Set field, not []int32; remove it"},
		{"21:2", "H.TooDeep: type=list(element=list(element=int32)): list(element=int32) does not apply to int32"},
		{"22:2", "H.OuterNull: type=list(nullable=true): nullable= and ref= of the field itself belong in the tag (fory:\"nullable,ref,type=\u2026\"), not in the hint's outer node"},
		{"23:2", "H.NotNullInt: nullable=false on a pointer to int32 is not supported; use a non-pointer field"},
		{"24:2", "H.ContainerEnc: type=map(value=list(encoding=fixed)): list(encoding=fixed): encoding= applies to integer nodes, not list"},
		{"25:2", "H.PlaceKey: type=_(key=int32): _(key=int32): its element, key or value does not match the Go type slice"},
		{"26:2", "H.ScalarOnMap: type=int32: int32 does not match the Go type map; name the Go type's own scalar or use _"},
		{"27:2", "H.SetElemEnc: type=set(element=string(encoding=fixed)): encoding=fixed applies only to integer fields"},
		{"28:2", "H.ArrayNoElem: type=array: array: array needs element=, e.g. array(element=int32)"},
		{"29:2", "H.MapValueOpt: type=map(value=_(nullable=false)): _(nullable=false): nullable=false on a pointer element is not supported; declare the element a value"},
		{"30:2", "H.ScalarArgs: type=list(element=int32(element=int32)): int32(element=int32): a scalar has no element, key or value"},
		{"31:2", "H.UnknownName: tag `fory:\"type=list(element=vector)\"`: type=list(element=vector): unknown type name \"vector\" (want _, list, array, set, map or a scalar: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, string, bytes, timestamp, date, duration, decimal)"},
		{"32:2", "H.IntElemEnc: type=list(element=int64(encoding=fixed)): encoding=fixed on an element or Optional of Go type int is not supported; declare it int32 or int64"},
		{"33:2", "H.OptUintEnc: encoding=varint on an element or Optional of Go type uint is not supported; declare it uint32 or uint64"},
	}
	require.Len(t, errs, len(want), "%v", errs)
	for _, w := range want {
		requireError(t, errs, "hints.go", w.pos, w.what)
	}
}
