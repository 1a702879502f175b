package buffer

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// The fuzz targets compare the Reader with the byte-at-a-time references of
// ref_test.go on arbitrary input. forEachPlacement hands the input over as an
// exactly sized slice, and on Linux also against guard pages, so a load
// outside the input faults.

// checkFailed checks that r failed with the sentinel want, recorded at off,
// and did not move.
func checkFailed(t *testing.T, r *Reader, want error, off int) {
	t.Helper()
	if !errors.Is(r.Err(), want) {
		t.Fatalf("err = %v, want %v at offset %d", r.Err(), want, off)
	}
	var e *Error
	if !errors.As(r.Err(), &e) || e.Offset != off || r.Offset() != off {
		t.Fatalf("err = %v, reader offset %d, want offset %d", r.Err(), r.Offset(), off)
	}
}

func refSentinel(e refErr) error {
	switch e {
	case refTruncated:
		return ErrTruncated
	case refOverflow:
		return ErrVarintOverflow
	}
	return nil
}

// FuzzReadFixed runs a sequence of fixed-width reads chosen by ops over data.
func FuzzReadFixed(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []byte{0, 1, 2, 3, 4})
	f.Add([]byte{0xff}, []byte{3})
	f.Add(make([]byte, 40), []byte{4, 4, 4, 4, 4, 0, 6})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		forEachPlacement(data, func(in []byte) {
			r := NewReader(in)
			off := 0
			for _, op := range ops {
				if r.Err() != nil {
					break
				}
				width := [...]int{1, 2, 4, 8, 4, 8, 0}[op%7]
				var got, want uint64
				if len(in)-off >= width {
					want = binary.LittleEndian.Uint64(append(in[off:off+width:off+width], make([]byte, 8)...))
				}
				switch op % 7 {
				case 0:
					got = uint64(r.ReadUint8())
				case 1:
					got = uint64(r.ReadUint16())
				case 2:
					got = uint64(r.ReadUint32())
				case 3:
					got = r.ReadUint64()
				case 4:
					got = uint64(math.Float32bits(r.ReadFloat32()))
				case 5:
					got = math.Float64bits(r.ReadFloat64())
				case 6:
					// A run: Need, then unchecked loads, then SetOffset.
					width = int(op >> 3)
					if r.Need(width) {
						buf, o := r.Bytes(), r.Offset()
						for i := 0; i < width; i++ {
							if ReadUint8At(buf, o+i) != in[off+i] {
								t.Fatalf("ReadUint8At(%d)", o+i)
							}
						}
						r.SetOffset(o + width)
					}
				}
				if len(in)-off < width {
					checkFailed(t, r, ErrTruncated, off)
					break
				}
				if got != want {
					t.Fatalf("op %d at %d: got %#x want %#x", op, off, got, want)
				}
				off += width
				if r.Offset() != off {
					t.Fatalf("offset %d want %d", r.Offset(), off)
				}
			}
		})
	})
}

// FuzzReadVarint32 reads varu32 (alternating with zz32) until the input ends
// or fails.
func FuzzReadVarint32(f *testing.F) {
	f.Add([]byte{0xf1, 0xc0, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x10})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0, 0, 0, 0})
	f.Add([]byte{0x80, 0x00, 0x7f, 0x81})
	f.Fuzz(func(t *testing.T, data []byte) {
		forEachPlacement(data, func(in []byte) {
			r := NewReader(in)
			for i := 0; r.Offset() < len(in); i++ {
				off := r.Offset()
				want, n, rerr := refDecodeVarUint32(in[off:])
				var got uint32
				if i%2 == 0 {
					got = r.ReadVarUint32()
				} else {
					got = uint32(refZigZag32(r.ReadVarInt32()))
				}
				if rerr != refOK {
					checkFailed(t, r, refSentinel(rerr), off)
					return
				}
				if r.Err() != nil || got != want || r.Offset() != off+n {
					t.Fatalf("at %d: got %d (%v, offset %d) want %d (%d bytes)", off, got, r.Err(), r.Offset(), want, n)
				}
			}
		})
	})
}

// FuzzReadVarint64 reads varu64 (alternating with zz64) until the input ends
// or fails.
func FuzzReadVarint64(f *testing.F) {
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x05})
	f.Add([]byte{0x01, 0x7f, 0x80, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		forEachPlacement(data, func(in []byte) {
			r := NewReader(in)
			for i := 0; r.Offset() < len(in); i++ {
				off := r.Offset()
				want, n, rerr := refDecodeVarUint64(in[off:])
				var got uint64
				if i%2 == 0 {
					got = r.ReadVarUint64()
				} else {
					got = refZigZag64(r.ReadVarInt64())
				}
				if rerr != refOK {
					checkFailed(t, r, refSentinel(rerr), off)
					return
				}
				if r.Err() != nil || got != want || r.Offset() != off+n {
					t.Fatalf("at %d: got %d (%v, offset %d) want %d (%d bytes)", off, got, r.Err(), r.Offset(), want, n)
				}
			}
		})
	})
}

// FuzzReadTagged reads tagged i64 (alternating with tagged u64) until the
// input ends or fails.
func FuzzReadTagged(f *testing.F) {
	f.Add([]byte{0xfa, 0xff, 0xff, 0xff, 0x01, 0, 0, 0, 0x40, 0, 0, 0, 0})
	f.Add([]byte{0x01, 0, 0, 0})
	f.Add([]byte{0x02, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		forEachPlacement(data, func(in []byte) {
			r := NewReader(in)
			for i := 0; r.Offset() < len(in); i++ {
				off := r.Offset()
				var got, want uint64
				var n int
				var rerr refErr
				if i%2 == 0 {
					var w int64
					w, n, rerr = refDecodeTaggedInt64(in[off:])
					want, got = uint64(w), uint64(r.ReadTaggedInt64())
				} else {
					want, n, rerr = refDecodeTaggedUint64(in[off:])
					got = r.ReadTaggedUint64()
				}
				if rerr != refOK {
					checkFailed(t, r, refSentinel(rerr), off)
					return
				}
				if r.Err() != nil || got != want || r.Offset() != off+n {
					t.Fatalf("at %d: got %d (%v) want %d", off, got, r.Err(), want)
				}
			}
		})
	})
}

// FuzzReadBytesRaw reads byte strings and raw slices whose lengths come from
// ops, including negative and oversized lengths.
func FuzzReadBytesRaw(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{2, 3, 0x81, 9})
	f.Add(make([]byte, 64), []byte{0x13, 0x24, 0x35, 0x46, 0x57, 0x68, 0x79, 0x8a})
	f.Add([]byte{}, []byte{0xff})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		forEachPlacement(data, func(in []byte) {
			r := NewReader(in)
			for _, op := range ops {
				if r.Err() != nil {
					return
				}
				off := r.Offset()
				count := int(op >> 4)
				var width int
				var got []byte // the bytes the read produced, re-encoded
				switch op & 0xf {
				case 0:
					width = 1
					got = r.ReadBytes(count)
				case 1:
					// A negative length must fail, not panic.
					if r.ReadBytes(-count-1) != nil {
						t.Fatal("negative ReadBytes returned data")
					}
					checkFailed(t, r, ErrTruncated, off)
					return
				case 2:
					width = 2
					d := make([]int16, count)
					r.ReadRawInt16s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint16(got, uint16(v))
					}
				case 3:
					width = 2
					d := make([]uint16, count)
					r.ReadRawUint16s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint16(got, v)
					}
				case 4:
					width = 4
					d := make([]int32, count)
					r.ReadRawInt32s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint32(got, uint32(v))
					}
				case 5:
					width = 4
					d := make([]uint32, count)
					r.ReadRawUint32s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint32(got, v)
					}
				case 6:
					width = 8
					d := make([]int64, count)
					r.ReadRawInt64s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint64(got, uint64(v))
					}
				case 7:
					width = 8
					d := make([]uint64, count)
					r.ReadRawUint64s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint64(got, v)
					}
				case 8:
					width = 4
					d := make([]float32, count)
					r.ReadRawFloat32s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint32(got, math.Float32bits(v))
					}
				case 9:
					width = 8
					d := make([]float64, count)
					r.ReadRawFloat64s(d)
					for _, v := range d {
						got = binary.LittleEndian.AppendUint64(got, math.Float64bits(v))
					}
				default:
					width = 1
					d := make([]bool, count)
					r.ReadRawBools(d)
					for _, v := range d {
						c := byte(0)
						if v {
							c = 1
						}
						got = append(got, c)
					}
				}
				n := count * width
				if n > len(in)-off {
					checkFailed(t, r, ErrTruncated, off)
					for _, c := range got {
						if c != 0 {
							t.Fatal("dst not zeroed after a short read")
						}
					}
					return
				}
				want := append([]byte(nil), in[off:off+n]...)
				if op&0xf > 9 { // bools: any nonzero byte reads as true
					for i, c := range want {
						want[i] = min(c, 1)
					}
				}
				if r.Err() != nil || r.Offset() != off+n || string(got) != string(want) {
					t.Fatalf("op %#x at %d: %v offset %d got %x want %x", op, off, r.Err(), r.Offset(), got, want)
				}
			}
		})
	})
}

// FuzzRoundTrip writes values with both the Write… methods and the put-at
// path (one reserve, batched stores, one commit), checks the bytes against
// the references, and reads them back.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(0), int64(0), uint32(0), int32(0), 0.0, "", uint8(0))
	f.Add(uint64(math.MaxUint64), int64(math.MinInt64), uint32(math.MaxUint32), int32(math.MinInt32), math.Inf(1), "héllo", uint8(7))
	f.Add(uint64(1<<56), int64(1<<30), uint32(1<<28), int32(-12345), -0.5, "x", uint8(3))
	f.Fuzz(func(t *testing.T, u uint64, s int64, u32 uint32, s32 int32, fl float64, str string, pad uint8) {
		var want []byte
		want = append(want, make([]byte, pad%8)...)
		want = append(want, refVarUint64(u)...)
		want = append(want, refVarUint64(refZigZag64(s))...)
		want = append(want, refVarUint32(u32)...)
		want = append(want, refVarUint32(refZigZag32(s32))...)
		want = append(want, refTaggedInt64(s)...)
		want = append(want, refTaggedUint64(u)...)
		want = binary.LittleEndian.AppendUint64(want, math.Float64bits(fl))
		want = binary.LittleEndian.AppendUint32(want, uint32(s32))
		want = append(want, refVarUint64(uint64(len(str))<<2|2)...)
		want = append(want, str...)

		// Checked writers.
		b := New(0)
		b.WriteBytes(make([]byte, pad%8))
		b.WriteVarUint64(u)
		b.WriteVarInt64(s)
		b.WriteVarUint32(u32)
		b.WriteVarInt32(s32)
		b.WriteTaggedInt64(s)
		b.WriteTaggedUint64(u)
		b.WriteFloat64(fl)
		b.WriteInt32(s32)
		b.WriteHeaderString(uint64(len(str))<<2|2, str)
		if string(b.Bytes()) != string(want) {
			t.Fatalf("Write…: %x want %x", b.Bytes(), want)
		}

		// Generated-code path: one Reserve of the maximum widths plus
		// BatchSlack, put-at stores, one commit.
		p := New(0)
		p.WriteBytes(make([]byte, pad%8))
		p.Reserve(2*MaxVarUint64Len + 2*MaxVarUint32Len + 2*MaxTaggedLen + 8 + 4 + BatchSlack)
		buf, off := p.Window(), p.WriterIndex()
		off = PutVarUint64At(buf, off, u)
		off = PutVarInt64At(buf, off, s)
		off = PutVarUint32At(buf, off, u32)
		off = PutVarInt32At(buf, off, s32)
		off = PutTaggedInt64At(buf, off, s)
		off = PutTaggedUint64At(buf, off, u)
		PutFloat64At(buf, off, fl)
		PutInt32At(buf, off+8, s32)
		p.SetWriterIndex(off + 12)
		p.WriteHeaderString(uint64(len(str))<<2|2, str)
		if string(p.Bytes()) != string(want) {
			t.Fatalf("put-at: %x want %x", p.Bytes(), want)
		}

		forEachPlacement(want, func(in []byte) {
			r := NewReader(in)
			r.Skip(int(pad % 8))
			gu, gs, gu32, gs32 := r.ReadVarUint64(), r.ReadVarInt64(), r.ReadVarUint32(), r.ReadVarInt32()
			gts, gtu := r.ReadTaggedInt64(), r.ReadTaggedUint64()
			gfl, gi32 := r.ReadFloat64(), r.ReadInt32()
			h := r.ReadVarUint64()
			gstr := r.ReadBytes(int(h >> 2))
			if r.Err() != nil || r.Remaining() != 0 {
				t.Fatalf("read back: %v, %d bytes left", r.Err(), r.Remaining())
			}
			if gu != u || gs != s || gu32 != u32 || gs32 != s32 || gts != s || gtu != u ||
				math.Float64bits(gfl) != math.Float64bits(fl) || gi32 != s32 || string(gstr) != str {
				t.Fatalf("read back mismatch")
			}
		})
	})
}
