package benchmarks

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// Issue 7 asks to compare the generated design, a Reserve per struct, with
// one size pass over the whole message followed by unchecked writes. This
// file is that experiment, written by hand for MediaContent and
// MediaContentList in same-schema mode (where no TypeDef table is involved):
// sizeOf… bounds the message in one walk, then put… write every struct at
// one local offset with a single Reserve and a single commit. The test
// holds its bytes equal to the generated writer's; BenchmarkSizePass
// compares the two (PERFORMANCE.md has the instruction counts).

var (
	hashMediaContent = (*fixtures.MediaContent)(nil).ForyType().SchemaHash
	hashMedia        = (*fixtures.Media)(nil).ForyType().SchemaHash
	hashImage        = (*fixtures.Image)(nil).ForyType().SchemaHash
	hashMCList       = (*fixtures.MediaContentList)(nil).ForyType().SchemaHash
)

const (
	v32 = buffer.MaxVarUint32Len
	v64 = buffer.MaxVarUint64Len
)

func sizeOfImage(im *fixtures.Image) int {
	return 4 + 2*v32 + 2*v64 + len(im.URI) + len(im.Title) + v32
}

func sizeOfMedia(m *fixtures.Media) int {
	n := 4 + 1 + 2*v64 + 3*v32 + 4*v64 + len(m.URI) + len(m.Title) + len(m.Format) + len(m.Copyright) + v32 + 1 + v32
	for _, p := range m.Persons {
		n += v64 + len(p)
	}
	return n
}

func sizeOfMediaContent(mc *fixtures.MediaContent) int {
	n := 4 + sizeOfMedia(&mc.Media) + v32 + 1 + 2
	for i := range mc.Images {
		n += sizeOfImage(&mc.Images[i])
	}
	return n
}

func putString(w []byte, off int, s string) int {
	off = buffer.PutVarUint64At(w, off, uint64(len(s))<<2|2)
	return off + copy(w[off:], s)
}

func putImage(w []byte, off int, im *fixtures.Image) int {
	buffer.PutInt32At(w, off, hashImage)
	off = buffer.PutVarUint32At(w, off+4, buffer.ZigZag32(im.Width))
	off = buffer.PutVarUint32At(w, off, buffer.ZigZag32(im.Height))
	off = putString(w, off, im.URI)
	off = putString(w, off, im.Title)
	return buffer.PutVarUint32At(w, off, uint32(im.Size))
}

func putMedia(w []byte, off int, m *fixtures.Media) int {
	buffer.PutInt32At(w, off, hashMedia)
	buffer.PutBoolAt(w, off+4, m.HasBitrate)
	off = buffer.PutVarUint64At(w, off+5, buffer.ZigZag64(m.Duration))
	off = buffer.PutVarUint64At(w, off, buffer.ZigZag64(m.Size))
	off = buffer.PutVarUint32At(w, off, buffer.ZigZag32(m.Width))
	off = buffer.PutVarUint32At(w, off, buffer.ZigZag32(m.Height))
	off = buffer.PutVarUint32At(w, off, buffer.ZigZag32(m.Bitrate))
	off = putString(w, off, m.URI)
	off = putString(w, off, m.Title)
	off = putString(w, off, m.Format)
	off = buffer.PutVarUint32At(w, off, uint32(len(m.Persons)))
	if len(m.Persons) > 0 {
		buffer.PutUint8At(w, off, 0x0c) // declared element type, no nulls (docs/format.md §8.1)
		off++
		for _, p := range m.Persons {
			off = putString(w, off, p)
		}
	}
	off = buffer.PutVarUint32At(w, off, uint32(m.Player))
	return putString(w, off, m.Copyright)
}

func putMediaContent(w []byte, off int, mc *fixtures.MediaContent) int {
	buffer.PutInt32At(w, off, hashMediaContent)
	off = putMedia(w, off+4, &mc.Media)
	off = buffer.PutVarUint32At(w, off, uint32(len(mc.Images)))
	if len(mc.Images) > 0 {
		buffer.PutUint8At(w, off, 0x08) // same element type, declared by the list
		buffer.PutUint16At(w, off+1, 0x041b)
		off += 3
		for i := range mc.Images {
			off = putImage(w, off, &mc.Images[i])
		}
	}
	return off
}

// sizePassMediaContent appends a same-schema MediaContent message to b.
func sizePassMediaContent(b *buffer.Buffer, mc *fixtures.MediaContent) {
	b.Reserve(4 + sizeOfMediaContent(mc) + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	buffer.PutUint32At(w, off, 0x051bff01) // header, root flag, STRUCT id 5
	b.SetWriterIndex(putMediaContent(w, off+4, mc))
}

// sizePassMediaContentList appends a same-schema MediaContentList message.
func sizePassMediaContentList(b *buffer.Buffer, l *fixtures.MediaContentList) {
	n := 4 + 4 + v32 + 3
	for i := range l.MediaContentList {
		n += sizeOfMediaContent(&l.MediaContentList[i])
	}
	b.Reserve(n + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	buffer.PutUint32At(w, off, 0x0a1bff01) // header, root flag, STRUCT id 10
	buffer.PutInt32At(w, off+4, hashMCList)
	off = buffer.PutVarUint32At(w, off+8, uint32(len(l.MediaContentList)))
	if len(l.MediaContentList) > 0 {
		buffer.PutUint8At(w, off, 0x08)
		buffer.PutUint16At(w, off+1, 0x051b)
		off += 3
		for i := range l.MediaContentList {
			off = putMediaContent(w, off, &l.MediaContentList[i])
		}
	}
	b.SetWriterIndex(off)
}

func TestSizePassBytes(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	mc := fixtures.NewMediaContent()
	want, err := f.Serialize(&mc)
	require.NoError(t, err)
	b := buffer.New(16)
	sizePassMediaContent(b, &mc)
	require.Equal(t, want, b.Bytes())

	l := fixtures.NewMediaContentList()
	want, err = f.Serialize(&l)
	require.NoError(t, err)
	b.Reset()
	sizePassMediaContentList(b, &l)
	require.Equal(t, want, b.Bytes())
}

// BenchmarkSizePass/<fixture>/<design>: generated (a Reserve per struct)
// against sizepass (one size walk, one Reserve), same-schema mode, into a
// reused buffer.
func BenchmarkSizePass(b *testing.B) {
	f := serializer.New(serializer.WithCompatible(false))
	buf := buffer.New(256)
	mc, l := fixtures.NewMediaContent(), fixtures.NewMediaContentList()
	run := func(name string, write func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := write(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("MediaContent/generated", func() error { return mc.ForySerializeTo(f, buf) })
	run("MediaContent/sizepass", func() error { sizePassMediaContent(buf, &mc); return nil })
	run("MediaContentList/generated", func() error { return l.ForySerializeTo(f, buf) })
	run("MediaContentList/sizepass", func() error { sizePassMediaContentList(buf, &l); return nil })
}
