package buffer

import (
	"encoding/binary"
	"runtime"
	"testing"
)

// Benchmarks backing the performance choices of this package. Compare runs
// with benchstat; the sub-benchmark names are stable.
//
// Besides wall time each benchmark reports cpu-ns/op, the CPU time of the
// benchmarking thread (Linux only): on a shared machine wall time includes
// the time the thread waited for a CPU, which makes sec/op swing by 2x
// between runs; cpu-ns/op is much steadier there.

// measureCPU locks the benchmark to its OS thread and returns a function that
// reports the thread's CPU time per op. Use it as defer measureCPU(b)().
func measureCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPUTime()
	return func() {
		end := threadCPUTime()
		runtime.UnlockOSThread()
		if start >= 0 && end >= 0 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// A record of 8 uint64 and 8 uint32 fields, the shape of a generated
// struct's fixed-width run.
const fixedRunBytes = 8*8 + 8*4

var (
	sink64 uint64
	sink32 uint32
	sinkN  int
)

// BenchmarkPutFixed writes one fixed-width run per op: unchecked put-at into
// a reserved window, encoding/binary PutUint64 on sub-slices of the same
// window (a bounds check per store), and encoding/binary AppendUint64.
func BenchmarkPutFixed(b *testing.B) {
	var vals [8]uint64
	for i := range vals {
		vals[i] = uint64(i) * 0x0101010101010101
	}
	b.Run("putat", func(b *testing.B) {
		buf := New(fixedRunBytes)
		b.ReportAllocs()
		defer measureCPU(b)()
		b.SetBytes(fixedRunBytes)
		for i := 0; i < b.N; i++ {
			buf.Reset()
			buf.Reserve(fixedRunBytes)
			w, off := buf.Window(), buf.WriterIndex()
			for j, v := range vals {
				PutUint64At(w, off+8*j, v)
			}
			for j, v := range vals {
				PutUint32At(w, off+64+4*j, uint32(v))
			}
			buf.SetWriterIndex(off + fixedRunBytes)
		}
	})
	b.Run("binary", func(b *testing.B) {
		buf := New(fixedRunBytes)
		b.ReportAllocs()
		defer measureCPU(b)()
		b.SetBytes(fixedRunBytes)
		for i := 0; i < b.N; i++ {
			buf.Reset()
			buf.Reserve(fixedRunBytes)
			w, off := buf.Window(), buf.WriterIndex()
			for j, v := range vals {
				binary.LittleEndian.PutUint64(w[off+8*j:], v)
			}
			for j, v := range vals {
				binary.LittleEndian.PutUint32(w[off+64+4*j:], uint32(v))
			}
			buf.SetWriterIndex(off + fixedRunBytes)
		}
	})
	b.Run("append", func(b *testing.B) {
		out := make([]byte, 0, fixedRunBytes)
		b.ReportAllocs()
		defer measureCPU(b)()
		b.SetBytes(fixedRunBytes)
		for i := 0; i < b.N; i++ {
			out = out[:0]
			for _, v := range vals {
				out = binary.LittleEndian.AppendUint64(out, v)
			}
			for _, v := range vals {
				out = binary.LittleEndian.AppendUint32(out, uint32(v))
			}
		}
		sinkN = len(out)
	})
}

// varintSizes are the value classes of the varint benchmarks: 1-byte,
// 3-byte, and the longest encoding (5 bytes for varu32, 9 for varu64). Each
// class holds distinct values so no store is loop-invariant.
var varintSizes = []struct {
	name string
	u64  [64]uint64
	u32  [64]uint32
}{
	{name: "small"}, {name: "medium"}, {name: "large"},
}

func init() {
	for i := 0; i < 64; i++ {
		varintSizes[0].u64[i], varintSizes[0].u32[i] = uint64(i), uint32(i)
		varintSizes[1].u64[i], varintSizes[1].u32[i] = 1<<14+uint64(i)*977, 1<<14+uint32(i)*977
		varintSizes[2].u64[i], varintSizes[2].u32[i] = 1<<63+uint64(i)*0x0123456789, 1<<31+uint32(i)*12345
	}
}

// BenchmarkPutVarint compares the batched stores (one 8-byte write) with the
// conventional one-store-per-byte loop, 64 values per op.
func BenchmarkPutVarint(b *testing.B) {
	for _, sz := range varintSizes {
		sz := sz
		window := make([]byte, 64*MaxVarUint64Len+BatchSlack)
		b.Run("u64/"+sz.name+"/batched", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				off := 0
				for _, v := range &sz.u64 {
					off = PutVarUint64At(window, off, v)
				}
				sinkN = off
			}
		})
		b.Run("u64/"+sz.name+"/byteloop", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				off := 0
				for _, v := range &sz.u64 {
					off = byteLoopPutVarUint64(window, off, v)
				}
				sinkN = off
			}
		})
		b.Run("u32/"+sz.name+"/batched", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				off := 0
				for _, v := range &sz.u32 {
					off = PutVarUint32At(window, off, v)
				}
				sinkN = off
			}
		})
		b.Run("u32/"+sz.name+"/byteloop", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				off := 0
				for _, v := range &sz.u32 {
					off = byteLoopPutVarUint32(window, off, v)
				}
				sinkN = off
			}
		})
	}
}

// BenchmarkReadFixedRun reads one fixed-width run per op: one Need and
// unchecked loads (the generated-code pattern) against a checked Read… call
// per field.
func BenchmarkReadFixedRun(b *testing.B) {
	in := make([]byte, fixedRunBytes)
	for i := range in {
		in[i] = byte(i)
	}
	r := NewReader(in)
	b.Run("need-once", func(b *testing.B) {
		b.ReportAllocs()
		defer measureCPU(b)()
		b.SetBytes(fixedRunBytes)
		var s64 uint64
		var s32 uint32
		for i := 0; i < b.N; i++ {
			r.Reset(in)
			if r.Need(fixedRunBytes) {
				buf, off := r.Bytes(), r.Offset()
				for j := 0; j < 8; j++ {
					s64 += ReadUint64At(buf, off+8*j)
				}
				for j := 0; j < 8; j++ {
					s32 += ReadUint32At(buf, off+64+4*j)
				}
				r.SetOffset(off + fixedRunBytes)
			}
		}
		sink64, sink32 = s64, s32
	})
	b.Run("per-read", func(b *testing.B) {
		b.ReportAllocs()
		defer measureCPU(b)()
		b.SetBytes(fixedRunBytes)
		var s64 uint64
		var s32 uint32
		for i := 0; i < b.N; i++ {
			r.Reset(in)
			for j := 0; j < 8; j++ {
				s64 += r.ReadUint64()
			}
			for j := 0; j < 8; j++ {
				s32 += r.ReadUint32()
			}
		}
		sink64, sink32 = s64, s32
	})
}

// byteLoopReadVarUint64 and byteLoopReadVarUint32 are the conventional
// decoders (one bounds-checked byte at a time) with the Reader's error
// handling, the alternative to its word-at-a-time fast path.
func byteLoopReadVarUint64(r *Reader) uint64 {
	var x uint64
	for i := 0; i < 9; i++ {
		if r.off+i >= len(r.buf) {
			r.Fail(ErrTruncated)
			return 0
		}
		c := r.buf[r.off+i]
		if i == 8 {
			r.off += 9
			return x | uint64(c)<<56
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.off += i + 1
			return x
		}
	}
	return x
}

func byteLoopReadVarUint32(r *Reader) uint32 {
	var x uint32
	for i := 0; i < 5; i++ {
		if r.off+i >= len(r.buf) {
			r.Fail(ErrTruncated)
			return 0
		}
		c := r.buf[r.off+i]
		if i == 4 {
			if c > 0x0f {
				r.Fail(ErrVarintOverflow)
				return 0
			}
			r.off += 5
			return x | uint32(c)<<28
		}
		x |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.off += i + 1
			return x
		}
	}
	return x
}

// BenchmarkReadVarint decodes 64 values per op with the Reader and with the
// byte loop.
func BenchmarkReadVarint(b *testing.B) {
	for _, sz := range varintSizes {
		enc64, enc32 := New(0), New(0)
		for i := range sz.u64 {
			enc64.WriteVarUint64(sz.u64[i])
			enc32.WriteVarUint32(sz.u32[i])
		}
		in64, in32 := enc64.Bytes(), enc32.Bytes()
		b.Run("u64/"+sz.name+"/reader", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			b.SetBytes(int64(len(in64)))
			r := NewReader(in64)
			var s uint64
			for i := 0; i < b.N; i++ {
				r.Reset(in64)
				for j := 0; j < 64; j++ {
					s += r.ReadVarUint64()
				}
			}
			sink64 = s
		})
		b.Run("u64/"+sz.name+"/byteloop", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			b.SetBytes(int64(len(in64)))
			r := NewReader(in64)
			var s uint64
			for i := 0; i < b.N; i++ {
				r.Reset(in64)
				for j := 0; j < 64; j++ {
					s += byteLoopReadVarUint64(r)
				}
			}
			sink64 = s
		})
		b.Run("u32/"+sz.name+"/reader", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			b.SetBytes(int64(len(in32)))
			r := NewReader(in32)
			var s uint32
			for i := 0; i < b.N; i++ {
				r.Reset(in32)
				for j := 0; j < 64; j++ {
					s += r.ReadVarUint32()
				}
			}
			sink32 = s
		})
		b.Run("u32/"+sz.name+"/byteloop", func(b *testing.B) {
			b.ReportAllocs()
			defer measureCPU(b)()
			b.SetBytes(int64(len(in32)))
			r := NewReader(in32)
			var s uint32
			for i := 0; i < b.N; i++ {
				r.Reset(in32)
				for j := 0; j < 64; j++ {
					s += byteLoopReadVarUint32(r)
				}
			}
			sink32 = s
		})
	}
}
