package e2e_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// at returns the offset of the only occurrence of marker in data.
func at(t *testing.T, data []byte, marker string) int {
	t.Helper()
	i := bytes.Index(data, []byte(marker))
	require.GreaterOrEqual(t, i, 0, "marker %q not in the encoding", marker)
	require.Equal(t, -1, bytes.Index(data[i+1:], []byte(marker)), "marker %q occurs twice", marker)
	return i
}

func with(data []byte, edit func(b []byte) []byte) []byte {
	return edit(append([]byte(nil), data...))
}

// decodeErr decodes data into v and checks the error contract; it returns
// the DecodeError.
func decodeErr(t *testing.T, f *serializer.Fory, data []byte, v any, typeName string, sentinel error) *serializer.DecodeError {
	t.Helper()
	err := f.Deserialize(data, v)
	require.Error(t, err)
	de, s := hostile.CheckError(t, err, data, typeName)
	require.Equal(t, sentinel, s, "%v", err)
	return de
}

// TestDecodeErrorFields checks Type, Path and Offset of errors at known
// places, in both modes.
func TestDecodeErrorFields(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		t.Run(m.name, func(t *testing.T) {
			// Invalid UTF-8 in the second element of a list of strings: the
			// offset is just after the string's bytes (where the check runs),
			// the path names the element.
			ct := &e2e.Containers{Strs: []string{"first", "SeCoNd"}}
			data, err := f.Serialize(ct)
			require.NoError(t, err)
			i := at(t, data, "SeCoNd")
			bad := with(data, func(b []byte) []byte { b[i+2] = 0xff; return b })
			de := decodeErr(t, f, bad, new(e2e.Containers), "e2e.Containers", serializer.ErrMalformed)
			require.Equal(t, "Strs[1]", de.Path)
			require.Equal(t, i+len("SeCoNd"), de.Offset)

			// A string in a struct of another package, in a list, inside a
			// struct: the path crosses all of them.
			c := &e2e.Composite{Addrs: []other.Address{{Street: "a"}, {Street: "STREET-B"}}}
			data, err = f.Serialize(c)
			require.NoError(t, err)
			i = at(t, data, "STREET-B")
			bad = with(data, func(b []byte) []byte { b[i] = 0xc0; return b })
			de = decodeErr(t, f, bad, new(e2e.Composite), "e2e.Composite", serializer.ErrMalformed)
			require.Equal(t, "Addrs[1].Street", de.Path)
			require.Equal(t, i+len("STREET-B"), de.Offset)

			// Truncation inside a pointer field's string: the offset is
			// where the read that ran out began, the string's first byte.
			s := &e2e.Scalars{PS: ptrTo("TAIL-STRING")}
			data, err = f.Serialize(s)
			require.NoError(t, err)
			i = at(t, data, "TAIL-STRING")
			de = decodeErr(t, f, data[:i+3], new(e2e.Scalars), "e2e.Scalars", serializer.ErrMalformed)
			require.Equal(t, "PS", de.Path)
			require.Equal(t, i, de.Offset, "the string bytes' offset")

			// A reference-tracking flag where a null flag belongs.
			n := &e2e.Node{Value: 1, Next: &e2e.Node{Value: 2}}
			data, err = f.Serialize(n)
			require.NoError(t, err)
			j := bytes.IndexByte(data[4:], 0xff) + 4 // Next's null flag (the first after the root's)
			bad = with(data, func(b []byte) []byte { b[j] = 0xfe; return b })
			de = decodeErr(t, f, bad, new(e2e.Node), "e2e.Node", serializer.ErrUnsupported)
			require.Equal(t, "Next", de.Path)
			require.Equal(t, j+1, de.Offset)

			// Trailing bytes: the offset is the end of the message.
			data, err = f.Serialize(fullTree())
			require.NoError(t, err)
			de = decodeErr(t, f, append(append([]byte(nil), data...), 0), new(e2e.Tree), "e2e.Tree", serializer.ErrMalformed)
			require.Equal(t, "", de.Path)
			require.Equal(t, len(data), de.Offset)
		})
	}

	// Same-schema mode: a nested struct's schema hash differs (the writer's
	// Node is another version): ErrSchemaMismatch at that hash, path to it.
	f := serializer.New(serializer.WithCompatible(false))
	data, err := f.Serialize(&e2e.Node{Value: 1, Next: &e2e.Node{Value: 2, Next: &e2e.Node{Value: 3}}})
	require.NoError(t, err)
	hash := data[5:9]
	k := bytes.LastIndex(data, hash)
	require.Greater(t, k, 9)
	bad := with(data, func(b []byte) []byte { b[k] ^= 0x55; return b })
	de := decodeErr(t, f, bad, new(e2e.Node), "e2e.Node", serializer.ErrSchemaMismatch)
	require.Equal(t, "Next.Next", de.Path)
	require.Equal(t, k+4, de.Offset)
}

// TestStrictUTF8: invalid UTF-8 in a string is rejected by default and
// accepted, byte for byte, with WithUTF8Validation(false); the same holds
// for unpaired UTF-16 surrogates, which decode to U+FFFD when accepted.
func TestStrictUTF8(t *testing.T) {
	for _, m := range modes {
		strict := serializer.New(serializer.WithCompatible(m.compatible))
		lax := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithUTF8Validation(false))
		data, err := strict.Serialize(&e2e.Containers{S: "GOOD-TEXT"})
		require.NoError(t, err)
		i := at(t, data, "GOOD-TEXT")
		bad := with(data, func(b []byte) []byte { b[i+4] = 0xfe; return b })
		de := decodeErr(t, strict, bad, new(e2e.Containers), "e2e.Containers", serializer.ErrMalformed)
		require.Equal(t, "S", de.Path)
		got := new(e2e.Containers)
		require.NoError(t, lax.Deserialize(bad, got))
		require.Equal(t, "GOOD\xfeTEXT", got.S)

		// The same string as UTF-16LE (header: byte length << 2 | 1) with an
		// unpaired high surrogate (0xd800).
		utf16 := []byte{0x41, 0x00, 0x00, 0xd8, 0x42, 0x00} // "A", 0xd800, "B"
		hdr := data[i-1]
		require.Equal(t, byte(len("GOOD-TEXT")<<2|2), hdr)
		u := bytes.Join([][]byte{data[:i-1], {byte(len(utf16)<<2 | 1)}, utf16, data[i+len("GOOD-TEXT"):]}, nil)
		decodeErr(t, strict, u, new(e2e.Containers), "e2e.Containers", serializer.ErrMalformed)
		got = new(e2e.Containers)
		require.NoError(t, lax.Deserialize(u, got))
		require.Equal(t, "A\uFFFDB", got.S)
	}
}

// TestStrictTrailingBytes: one byte, or a whole second message, after the
// root value is an error for every root type in both modes.
func TestStrictTrailingBytes(t *testing.T) {
	for _, e := range allEncodings(t) {
		for _, extra := range [][]byte{{0x00}, {0xff}, e.data} {
			in := append(append([]byte(nil), e.data...), extra...)
			de := decodeErr(t, e.f, in, e.r.fresh(), goName(e.r), serializer.ErrMalformed)
			require.Equal(t, len(e.data), de.Offset, e.name)
		}
	}
}

// TestStrictTypeIDs: a message of another type, an unknown user id, an
// unknown internal type id, a by-name type of another name, a bad header
// byte, and a null root are errors.
func TestStrictTypeIDs(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		scalars, err := f.Serialize(&e2e.Scalars{})
		require.NoError(t, err)
		// Another generated type's message.
		decodeErr(t, f, scalars, new(e2e.Maps), "e2e.Maps", serializer.ErrSchemaMismatch)
		decodeErr(t, f, scalars, new(other.Address), "other.Address", serializer.ErrSchemaMismatch)
		// Every other struct or unknown type id at the root.
		for _, id := range []byte{0x00, 0x01, 0x15, 0x19, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x3f, 0x63, 0xff} {
			if id == scalars[2] {
				continue
			}
			bad := with(scalars, func(b []byte) []byte { b[2] = id; return b })
			err := f.Deserialize(bad, new(e2e.Scalars))
			require.Error(t, err, "type id %#x", id)
			hostile.CheckError(t, err, bad, "e2e.Scalars")
		}
		// Bad message header, null root, out-of-band header bit.
		// (Root flag 0x00 is the same message written with tracking, which
		// every reader follows: TestTrackedMessageAnyReader.)
		for _, h := range [][2]byte{{0x00, 0xff}, {0x03, 0xff}, {0x01, 0xfd}, {0x01, 0xfe}, {0x01, 0x01}} {
			bad := with(scalars, func(b []byte) []byte { b[0], b[1] = h[0], h[1]; return b })
			err := f.Deserialize(bad, new(e2e.Scalars))
			require.Error(t, err, "header %x", h)
			hostile.CheckError(t, err, bad, "e2e.Scalars")
		}
		// A by-name type (other.Tag) read as another by-name type
		// (e2e.Containers): names differ.
		tag, err := f.Serialize(&other.Tag{})
		require.NoError(t, err)
		decodeErr(t, f, tag, new(e2e.Containers), "e2e.Containers", serializer.ErrSchemaMismatch)
	}
	// Same-schema mode: the user id differs, or the hash.
	f := serializer.New(serializer.WithCompatible(false))
	data, err := f.Serialize(&e2e.Base{})
	require.NoError(t, err)
	bad := with(data, func(b []byte) []byte { b[3]++; return b }) // varu32 user id 911 → 912+ (low byte)
	decodeErr(t, f, bad, new(e2e.Base), "e2e.Base", serializer.ErrSchemaMismatch)
	bad = with(data, func(b []byte) []byte { b[5] ^= 1; return b }) // schema hash
	decodeErr(t, f, bad, new(e2e.Base), "e2e.Base", serializer.ErrSchemaMismatch)
	// A list element type id that is not the declared one.
	data, err = f.Serialize(&e2e.Containers{Strs: []string{"x"}})
	require.NoError(t, err)
	i := at(t, data, "\x01\x0c\x06x")                                   // length 1, header 0x0c, "x"
	bad = with(data, func(b []byte) []byte { b[i+1] = 0x08; return b }) // header without DECL: an id follows
	err = f.Deserialize(bad, new(e2e.Containers))
	require.Error(t, err)
	hostile.CheckError(t, err, bad, "e2e.Containers")
}

// TestAPIMisuse: values that are neither non-nil pointers to generated
// types nor root values (serializer.RootValue) are errors
// (ErrNotGenerated), never panics.
func TestAPIMisuse(t *testing.T) {
	data, err := serializer.Serialize(&e2e.Node{})
	require.NoError(t, err)
	var nilNode *e2e.Node
	for _, v := range []any{nil, e2e.Node{}, nilNode, complex(1, 2), []uint{5}, map[bool]string{}, &struct{}{}, new(*e2e.Node), new(*int64)} {
		_, err := serializer.Serialize(v)
		require.ErrorIs(t, err, serializer.ErrNotGenerated, "%T", v)
		require.ErrorIs(t, serializer.Deserialize(data, v), serializer.ErrNotGenerated, "%T", v)
	}
	// The error says what to pass.
	for _, c := range []struct {
		v    any
		want string
	}{
		{e2e.Node{}, "e2e.Node is a struct value, where a pointer is needed: pass &v (a *e2e.Node)"},
		{nilNode, "a nil *e2e.Node: pass a pointer to a value"},
		{new(*e2e.Node), "**e2e.Node is a pointer to a pointer: pass the *e2e.Node itself"},
		{&struct{}{}, "*struct {} has no generated code and is not a root value (RootValue); annotate the struct with //fory:generate and run go generate"},
		{nil, "a nil value"},
	} {
		_, err := serializer.Serialize(c.v)
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		require.Contains(t, err.Error(), c.want)
		err = serializer.Deserialize(data, c.v)
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		require.Contains(t, err.Error(), c.want)
		err = serializer.NewEncoder(serializer.New(), io.Discard).Encode(c.v)
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		require.Contains(t, err.Error(), c.want)
		err = serializer.NewDecoder(serializer.New(), bytes.NewReader(data)).Decode(c.v)
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		require.Contains(t, err.Error(), c.want)
	}
	for _, in := range [][]byte{nil, {}, {0x01}} {
		err := serializer.Deserialize(in, new(e2e.Node))
		require.Error(t, err)
		hostile.CheckError(t, err, in, "e2e.Node")
	}
}

// TestErrorPathStopsAtFailure: when a struct's type meta or a list's
// elements header is bad, the path ends at the field that holds them; no
// field of a value that was never read is named.
func TestErrorPathStopsAtFailure(t *testing.T) {
	// A compatible-mode message read in same-schema mode fails at the
	// root's type id: empty path.
	compat, err := serializer.Serialize(fullComposite())
	require.NoError(t, err)
	f := serializer.New(serializer.WithCompatible(false))
	de := decodeErr(t, f, compat, new(e2e.Composite), "e2e.Composite", serializer.ErrSchemaMismatch)
	require.Equal(t, "", de.Path)
	require.Equal(t, 3, de.Offset)

	// Compatible mode: the only Address-typed value is Home; its type id
	// (the byte before its shared TypeDef marker) is made same-schema. It
	// then reads as a non-evolving struct's STRUCT and user id
	// (docs/format.md §11.5), and the marker (02, a new entry 1) as user
	// id 2: another type.
	data, err := serializer.Serialize(&e2e.Composite{Home: other.Address{Street: "HOME-ST"}})
	require.NoError(t, err)
	td := (&other.Address{}).ForyType().TypeDef
	i := bytes.Index(data, td)
	require.Greater(t, i, 2)
	require.Equal(t, byte(0x1c), data[i-2], "COMPATIBLE_STRUCT, then the new-TypeDef marker")
	bad := with(data, func(b []byte) []byte { b[i-2] = 0x1b; return b })
	de = decodeErr(t, serializer.New(), bad, new(e2e.Composite), "e2e.Composite", serializer.ErrSchemaMismatch)
	require.Equal(t, "Home", de.Path)
	require.Equal(t, i, de.Offset)
	require.Contains(t, de.Error(), "user type id 2 where other.Address")

	// Same-schema mode: a list of structs whose elements header asks for
	// reference tracking, in a message read without it: the header is
	// valid, the first element's reference flag is not.
	data, err = f.Serialize(&e2e.Composite{Addrs: []other.Address{{Street: "LIST-ST"}}})
	require.NoError(t, err)
	j := at(t, data, "\x01\x08\x1b\x85\x07") // length 1, header 0x08, STRUCT, varu32(901)
	bad = with(data, func(b []byte) []byte { b[j+1] = 0x09; return b })
	de = decodeErr(t, f, bad, new(e2e.Composite), "e2e.Composite", serializer.ErrMalformed)
	require.Equal(t, "Addrs[0]", de.Path)
	require.Equal(t, j+6, de.Offset)
}
