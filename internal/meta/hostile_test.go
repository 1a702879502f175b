package meta

import (
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrapBody builds a TypeDef around an arbitrary body with a correct size and
// hash, so hostile bodies get past the header checks.
func wrapBody(body []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, typeDefHeader(body))
	if len(body) >= 255 {
		out = appendVarU32(out, uint32(len(body)-255))
	}
	return append(out, body...)
}

// rehash recomputes the hash bits of the TypeDef at b[0] in place, keeping its
// low 12 bits, when its declared body fits in b. It reports whether it did.
func rehash(b []byte) bool {
	if len(b) < headerLen {
		return false
	}
	header := binary.LittleEndian.Uint64(b)
	off, n := headerLen, uint64(header&0xff)
	if n == 0xff {
		extra, k := readVarU32(b[off:])
		if k <= 0 {
			return false
		}
		off += k
		n += uint64(extra)
	}
	if n > uint64(len(b)-off) {
		return false
	}
	low := header & headerLowMask
	binary.LittleEndian.PutUint64(b, typeDefHash(b[off:off+int(n)], low)|low)
	return true
}

// exact copies b into a slice of exactly its length, so a read past the end
// panics instead of reading spare capacity.
func exact(b []byte) []byte {
	c := make([]byte, len(b))
	copy(c, b)
	return c
}

// checkParse runs ParseTypeDef and checks the invariants that hold for every
// input: errors are *TypeDefError wrapping ErrBadTypeDef with an offset
// inside the input; successes consume a prefix, alias it, re-encode without
// panicking and re-parse to the same model.
func checkParse(t testing.TB, b []byte) (*TypeDef, error) {
	t.Helper()
	td, n, err := ParseTypeDef(b, DefaultLimits)
	if err != nil {
		require.True(t, errors.Is(err, ErrBadTypeDef), "%v", err)
		var te *TypeDefError
		require.True(t, errors.As(err, &te), "%T", err)
		require.True(t, te.Offset >= 0 && te.Offset <= len(b), "offset %d outside [0,%d]: %v", te.Offset, len(b), err)
		require.Nil(t, td)
		require.Zero(t, n)
		return nil, err
	}
	require.True(t, n >= headerLen+1 && n <= len(b), "consumed %d of %d", n, len(b))
	require.Equal(t, b[:n], td.Encoded)
	require.NoError(t, td.Validate())
	re := EncodeTypeDef(td)
	td2, n2, err := ParseTypeDef(re, Limits{MaxBodyBytes: 1 << 20, MaxFields: 1 << 20})
	require.NoError(t, err, "re-encoded TypeDef does not parse")
	require.Equal(t, len(re), n2)
	require.Equal(t, wire(td), wire(td2))
	return td, nil
}

func TestParseTypeDefTruncations(t *testing.T) {
	checked := 0
	for _, v := range typeDefVectors {
		b := h(v.hex)
		for i := 0; i < len(b); i++ {
			_, err := checkParse(t, exact(b[:i]))
			require.Error(t, err, "%s truncated to %d bytes", v.name, i)
			checked++
		}
	}
	t.Logf("%d truncations rejected", checked)
}

func TestParseTypeDefMutations(t *testing.T) {
	masks := []byte{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff}
	raw, deep, deepOK := 0, 0, 0
	for _, v := range typeDefVectors {
		b := h(v.hex)
		bodyStart := headerLen
		if b[0] == 0xff {
			_, k := readVarU32(b[headerLen:])
			bodyStart += k
		}
		for i := range b {
			for _, m := range masks {
				c := exact(b)
				c[i] ^= m
				// Without fixing the hash, any change must be caught: the
				// hash covers the body and the low 12 header bits, and a
				// changed size or extra varint moves the hashed range.
				_, err := checkParse(t, c)
				assert.Error(t, err, "%s: byte %d ^ %#x accepted", v.name, i, m)
				raw++

				// With the hash fixed, the body parser itself must cope.
				if i >= bodyStart && rehash(c) {
					deep++
					if td, err := checkParse(t, c); err == nil && td != nil {
						deepOK++
					}
				}
			}
		}
	}
	t.Logf("%d raw mutations rejected; %d rehashed body mutations parsed without panic (%d accepted as valid TypeDefs)", raw, deep, deepOK)
	assert.Greater(t, deepOK, 0)
	assert.Less(t, deepOK, deep)
}

func TestParseTypeDefErrors(t *testing.T) {
	numeric := h(typeDefVectors[0].hex)
	setHeader := func(b []byte, f func(uint64) uint64) []byte {
		c := exact(b)
		binary.LittleEndian.PutUint64(c, f(binary.LittleEndian.Uint64(c)))
		return c
	}
	// 0xff size byte, then varu32(1<<30 − 255): a header claiming a 1 GiB body.
	huge := appendVarU32(binary.LittleEndian.AppendUint64(nil, 0xff), 1<<30-255)
	flipBody := exact(numeric)
	flipBody[len(flipBody)-1] ^= 1
	deepList := []byte{0xc1, 0x01, 0x40, TypeList}
	for i := 0; i < MaxTypeNesting; i++ {
		deepList = append(deepList, TypeList<<2|2)
	}
	deepList = append(deepList, tBool<<2, 0x00) // element, then the name "a"

	for _, tc := range []struct {
		name   string
		in     []byte
		offset int
		field  int
	}{
		{"empty input", nil, 0, -1},
		{"short header", numeric[:7], 0, -1},
		{"compressed", setHeader(numeric, func(x uint64) uint64 { return x | 1<<8 }), 1, -1},
		{"reserved bit 9", setHeader(numeric, func(x uint64) uint64 { return x | 1<<9 }), 1, -1},
		{"reserved bit 11", setHeader(numeric, func(x uint64) uint64 { return x | 1<<11 }), 1, -1},
		{"zero body", wrapBody(nil), 0, -1},
		{"truncated size varint", []byte{0xff, 0, 0, 0, 0, 0, 0, 0, 0x80}, 8, -1},
		{"size varint too long", []byte{0xff, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff}, 8, -1},
		{"1 GiB body", huge, 0, -1},
		{"body over the default limit", wrapBody(make([]byte, 4097)), 0, -1},
		{"truncated body", numeric[:20], 20, -1},
		{"hash mismatch", flipBody, 0, -1},
		{"non-struct bits 4-6", wrapBody([]byte{0x10, 0x01}), 8, -1},
		{"unknown non-struct code 6", wrapBody([]byte{0x06, 0x01}), 8, -1},
		{"user id varint too long", wrapBody([]byte{0xc0, 0xff, 0xff, 0xff, 0xff, 0x1f}), 9, -1},
		{"field count over the limit", wrapBody(appendVarU32([]byte{0xdf}, 1<<30)), 8, -1},
		{"field count past the body", wrapBody([]byte{0xc3, 0x01, 0xc4, 0x05, 0xc8}), 10, -1},
		{"namespace flag 3", wrapBody([]byte{0xe0, 0x03, 0x00}), 9, -1},
		{"namespace overruns", wrapBody([]byte{0xe0, 0x11, 0x84, 0x8d}), 10, -1},
		{"long namespace length overruns", wrapBody([]byte{0xe0, 0xfd, 0x05}), 11, -1},
		{"bad namespace bytes", wrapBody([]byte{0xe0, 0x05, 0x7c, 0x00}), 9, -1},
		{"missing type name", wrapBody([]byte{0xe0, 0x00}), 10, -1},
		{"FTLS type name not a letter", wrapBody([]byte{0xe0, 0x00, 0x07, 0x68}), 10, -1},
		{"left over bytes", wrapBody([]byte{0xc1, 0x01, 0xc4, 0x05, 0x00, 0x00}), 12, -1},
		{"one field, no bytes left", wrapBody([]byte{0xc1, 0x01}), 10, -1},
		{"tag varint truncated", wrapBody([]byte{0xc1, 0x01, 0xfc, 0x80, 0x80}), 11, 0},
		{"field type missing", wrapBody([]byte{0xc2, 0x01, 0x40, 0x05, 0x5c, 0xc8}), 14, 1},
		{"list child missing", wrapBody([]byte{0xc1, 0x01, 0xc4, TypeList}), 12, 0},
		{"child type id over 255", wrapBody([]byte{0xc1, 0x01, 0xc4, TypeList, 0x80, 0x10, 0x00}), 12, 0},
		{"map value missing", wrapBody([]byte{0xc2, 0x01, 0x40, 0x05, 0x5c, 0xc4, TypeMap, 0x56}), 16, 1},
		{"nesting too deep", wrapBody(deepList), 12 + MaxTypeNesting, 0},
		{"field name overruns", wrapBody([]byte{0xc1, 0x01, 0x44, 0x01, 0x00}), 12, 0},
		{"field name bad bytes", wrapBody([]byte{0xc1, 0x01, 0x40, 0x01, 0x7c}), 12, 0},
		{"field name invalid UTF-8", wrapBody([]byte{0xc1, 0x01, 0x00, 0x01, 0xff}), 12, 0},
		{"second field bad", wrapBody([]byte{0xc2, 0x01, 0xc4, 0x05, 0x40, 0x05}), 14, 1},
	} {
		_, err := checkParse(t, exact(tc.in))
		require.Error(t, err, tc.name)
		var te *TypeDefError
		require.True(t, errors.As(err, &te), tc.name)
		assert.Equal(t, tc.offset, te.Offset, "%s: %v", tc.name, err)
		assert.Equal(t, tc.field, te.Field, "%s: %v", tc.name, err)
		assert.NotEmpty(t, te.Reason)
		assert.Contains(t, err.Error(), "offset", tc.name)
	}

	// A cause from the meta string decoder is kept.
	_, _, err := ParseTypeDef(wrapBody([]byte{0xc1, 0x01, 0x40, 0x01, 0x7c}), DefaultLimits)
	assert.ErrorIs(t, err, ErrBadMetaString)
	assert.ErrorIs(t, err, ErrBadTypeDef)
}

func TestParseTypeDefEdgeAccepts(t *testing.T) {
	// Nesting exactly at the bound is fine.
	ok := []byte{0xc1, 0x01, 0x40, TypeList}
	for i := 0; i < MaxTypeNesting-1; i++ {
		ok = append(ok, TypeList<<2|2)
	}
	ok = append(ok, tBool<<2, 0x00)
	td, err := checkParse(t, wrapBody(ok))
	require.NoError(t, err)
	depth := 0
	for ft := td.Fields[0].Type; len(ft.Children) > 0; ft = ft.Children[0] {
		depth++
	}
	assert.Equal(t, MaxTypeNesting, depth)

	// The largest tag id the varint can carry (an int overflow, reported as
	// an error, on 32-bit platforms).
	_, err = checkParse(t, wrapBody([]byte{0xc1, 0x01, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x05}))
	if strconv.IntSize == 64 {
		require.NoError(t, err)
		td, _, _ := ParseTypeDef(wrapBody([]byte{0xc1, 0x01, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x05}), DefaultLimits)
		assert.Equal(t, maxTagID, uint64(td.Fields[0].TagID))
	} else {
		require.Error(t, err)
	}

	// Encodings Go never writes but peers may: a UTF8 type name that is not
	// LUDS-encodable, an ATLS field name that is just '$' (code 28).
	body := []byte{0xe1, 0x00, 0x0c, 'a', '.', 'b', 0x40, 0x05, 0x70}
	td, err = checkParse(t, wrapBody(body))
	require.NoError(t, err)
	assert.Equal(t, "a.b", td.TypeName)
	assert.Equal(t, "$", td.Fields[0].Name)

	// An over-long size varint (c7 81 00 for 199) is accepted: the hash does
	// not cover it and other readers take it.
	wide := EncodeTypeDef(wideTypeDef())
	require.Equal(t, []byte{0xc7, 0x01}, wide[8:10])
	overlong := append(append(append([]byte{}, wide[:8]...), 0xc7, 0x81, 0x00), wide[10:]...)
	td, err = checkParse(t, overlong)
	require.NoError(t, err)
	assert.Equal(t, wire(wideTypeDef()), wire(td))

	// The body limit is inclusive.
	b := h(typeDefVectors[0].hex) // 26-byte body
	_, _, err = ParseTypeDef(b, Limits{MaxBodyBytes: 26})
	assert.NoError(t, err)
	_, _, err = ParseTypeDef(b, Limits{MaxBodyBytes: 25})
	assert.ErrorIs(t, err, ErrBadTypeDef)
	_, _, err = ParseTypeDef(b, Limits{MaxFields: 12})
	assert.NoError(t, err)
	_, _, err = ParseTypeDef(b, Limits{MaxFields: 11})
	assert.ErrorIs(t, err, ErrBadTypeDef)
}

// TestParseTypeDefAllocatesNothingForHugeClaims checks that sizes and counts
// from the input are rejected before anything sized by them is allocated.
func TestParseTypeDefAllocatesNothingForHugeClaims(t *testing.T) {
	huge := appendVarU32(binary.LittleEndian.AppendUint64(nil, 0xff), 1<<30-255)
	manyFields := wrapBody(appendVarU32([]byte{0xdf}, 1<<30))
	generous := Limits{MaxBodyBytes: math.MaxInt32, MaxFields: math.MaxInt32}
	for name, tc := range map[string]struct {
		in  []byte
		lim Limits
	}{
		"1 GiB body, default limits":   {huge, DefaultLimits},
		"1 GiB body, generous limits":  {huge, generous}, // then: truncated
		"2^30 fields, default limits":  {manyFields, DefaultLimits},
		"2^30 fields, generous limits": {manyFields, generous}, // then: cannot fit
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		const runs = 100
		for i := 0; i < runs; i++ {
			_, _, err := ParseTypeDef(tc.in, tc.lim)
			require.ErrorIs(t, err, ErrBadTypeDef, name)
		}
		runtime.ReadMemStats(&after)
		perRun := (after.TotalAlloc - before.TotalAlloc) / runs
		assert.Less(t, perRun, uint64(1024), "%s: %d bytes allocated per parse", name, perRun)
	}
}

// TestParseTypeDefDeepHostileNesting feeds a body that is nothing but list
// children; parsing must stop at the bound, not recurse through 4000 levels.
func TestParseTypeDefDeepHostileNesting(t *testing.T) {
	body := []byte{0xc1, 0x01, 0x40, TypeList}
	for len(body) < 4000 {
		body = append(body, TypeList<<2)
	}
	_, err := checkParse(t, wrapBody(body))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nests deeper")
}
