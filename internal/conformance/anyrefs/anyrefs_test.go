package anyrefs

import (
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/refs"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

func init() {
	foryimpl.RegisterAny(foryimpl.AnyType{Info: (*refs.Image)(nil).ForyType(),
		New:   func() foryimpl.Message { return new(refs.Image) },
		Deref: func(m foryimpl.Message) any { return *m.(*refs.Image) },
		Ptr:   (*refs.Image)(nil), Val: refs.Image{}})
}

// rootType is the TypeInfo of a golden file's root struct, built from the
// file's own type meta (user id, same-schema hash, compatible TypeDef), so
// that its root prefix is accepted and takes TypeDef #0. It returns the
// prefix length up to the first field.
func rootType(t *testing.T, data []byte, compatible bool) (*foryimpl.TypeInfo, int) {
	t.Helper()
	// Same-schema type meta: 1b and the user id.
	r := buffer.NewReader(data[3:])
	uid := r.ReadVarUint32()
	cm := append([]byte(nil), data[2:3+r.Offset()]...)
	var td []byte
	n := 3 + r.Offset() + 4
	if compatible {
		d, used, err := meta.ParseTypeDef(data[4:], meta.DefaultLimits)
		require.NoError(t, err)
		td, n = data[4:4+used], 4+used
		cm = append([]byte{0x1b}, binary.AppendUvarint(nil, uint64(d.UserID))...)
	} else {
		// Any TypeDef parses; same-schema mode never writes it.
		td = meta.EncodeTypeDef(&meta.TypeDef{Kind: 28, Compatible: true, UserID: uid})
	}
	spec := foryimpl.StructSpec{GoName: "root", UserID: uid, ConsistentMeta: cm, TypeDef: td,
		RootConsistent: append([]byte{1, 0xff}, cm...), RootCompatible: append([]byte{1, 0xff, 0x1c, 0}, td...)}
	if !compatible {
		spec.SchemaHash = int32(binary.LittleEndian.Uint32(data[n-4:]))
	}
	return foryimpl.NewStructType(spec), n
}

// readRoot positions a tracking read after the root prefix: the root is
// object 0 and, in compatible mode, TypeDef #0.
func readRoot(t *testing.T, f *serializer.Fory, data []byte, root *foryimpl.TypeInfo, compatible bool) *foryimpl.ReadContext {
	t.Helper()
	c := f.Runtime().BeginRead(data)
	c.Reader().SetOffset(1)
	st, id := c.ReadRefFlag()
	require.Equal(t, foryimpl.RefFollows, st)
	require.Equal(t, 0, id)
	require.Nil(t, c.ReadStructMeta(root))
	if !compatible {
		require.Equal(t, root.SchemaHash, c.Reader().ReadInt32())
	}
	require.False(t, c.Failed())
	return c
}

// ref_tracked_kinds: SharedTracked's Any1 and Any2 hold the same *Image;
// with tracking the first is 00, the Image's type meta (in compatible mode
// its tracking TypeDef, marker 02) and body, the second fe 01. WriteAny
// writes exactly these bytes after the root prefix, and ReadAny reads them
// as one *Image.
func TestRefTrackedKindsAny(t *testing.T) {
	img := &refs.Image{URI: "http://javaone.com/keynote_small.jpg", Width: 320, Height: 240, Size: refs.SizeSmall}
	for _, m := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		t.Run(m.dir, func(t *testing.T) {
			data := golden(t, m.dir, "ref_tracked_kinds")
			root, n := rootType(t, data, m.compatible)
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(true), serializer.WithOfficialGoForm(true))

			b := buffer.New(64)
			c := f.Runtime().BeginWrite(b, root)
			b.WriteBytes(data[:n])
			var rootValue struct{}
			foryimpl.WriteRootRef(c, &rootValue)
			foryimpl.WriteAny(c, img)
			foryimpl.WriteAny(c, img)
			require.NoError(t, c.EndWrite(0))
			got := b.Bytes()
			require.Equal(t, hex.EncodeToString(data[:len(got)]), hex.EncodeToString(got))
			// Both any values, and then Arr1 follows: a new tracked object.
			require.Greater(t, len(got), n+40)
			require.Equal(t, []byte{0xfe, 0x01, 0x00}, data[len(got)-2:len(got)+1])

			rc := readRoot(t, f, data, root, m.compatible)
			a1 := foryimpl.ReadAny(rc, false)
			a2 := foryimpl.ReadAny(rc, false)
			require.False(t, rc.Failed())
			require.Equal(t, len(got), rc.Reader().Offset())
			require.Equal(t, img, a1)
			require.Same(t, a1.(*refs.Image), a2.(*refs.Image))
		})
	}
}

// ref_nil_pointers: NilPointers' Extra any is nil: fd, after the nil
// Count pointer, with tracking on.
func TestRefNilPointersAny(t *testing.T) {
	for _, m := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		data := golden(t, m.dir, "ref_nil_pointers")
		root, n := rootType(t, data, m.compatible)
		f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(true), serializer.WithOfficialGoForm(true))
		b := buffer.New(64)
		c := f.Runtime().BeginWrite(b, root)
		b.WriteBytes(data[:n+1]) // up to the nil Count
		foryimpl.WriteAny(c, nil)
		require.NoError(t, c.EndWrite(0))
		require.Equal(t, data[:n+2], b.Bytes())

		rc := readRoot(t, f, data, root, m.compatible)
		rc.Reader().Skip(1)
		require.Nil(t, foryimpl.ReadAny(rc, false))
		require.False(t, rc.Failed())
		require.Equal(t, n+2, rc.Reader().Offset())
	}
}
