package foryimpl

import (
	"math"
	"strconv"
	"time"

	"github.com/forygen/forygen/buffer"

	"github.com/forygen/forygen/internal/meta"
)

// Non-struct roots: a message whose root is a scalar, a string, a time, a
// dense array, a list of strings or a map of scalars and strings, written
// as official Fory Go writes f.Serialize(value) for such a value
// (docs/format.md §1, §12.2): header, root flag, the value's type id and
// its payload. The type is picked by one type switch (WriteRootValue,
// ReadRootValue); each case calls a generic function with the codec of its
// Go type, so nothing on the way uses reflection.

// rootCodec says how one Go type is written and read as a root value.
type rootCodec[T any] struct {
	// info names the Go type in errors.
	info *TypeInfo
	// id is the type id written; alt are further type ids read (other
	// encodings of the same integer, BINARY for UINT8_ARRAY); 0 ends alt.
	id  byte
	alt [2]byte
	// tracked marks the kinds official Go tracks when WithTrackRef is on
	// (slices and maps): their root flag is then 00, "first occurrence of
	// a tracked value" (docs/format.md §2), instead of ff.
	tracked bool
	// isNil reports a nil slice or map, written as a null root (fd); nil
	// for types that cannot be nil.
	isNil func(T) bool
	// write appends the payload; an error is an *EncodeError.
	write func(f *Runtime, b *buffer.Buffer, v T) error
	// read reads the payload written under type id id; errors are
	// recorded in c.
	read func(c *ReadContext, id byte) T
}

func (k *rootCodec[T]) accepts(id byte) bool {
	return id == k.id || id != meta.TypeUnknown && (id == k.alt[0] || id == k.alt[1]) // an unused alt is 0
}

func rootInfo(name string) *TypeInfo { return &TypeInfo{StructSpec: StructSpec{GoName: name}} }

// writeRoot appends the message for v; on error nothing is appended.
func writeRoot[T any](f *Runtime, b *buffer.Buffer, v T, k *rootCodec[T]) error {
	if k.isNil != nil && k.isNil(v) {
		// Official Go writes a nil slice or map root as a null root.
		b.WriteUint8(meta.HeaderXlang)
		b.WriteUint8(FlagNull)
		return nil
	}
	flag := FlagNotNull
	if k.tracked && f.opts.TrackRef {
		flag = meta.FlagRefValue
	}
	start := b.WriterIndex()
	b.Reserve(3)
	w := b.Window()
	w[start], w[start+1], w[start+2] = meta.HeaderXlang, flag, k.id
	b.SetWriterIndex(start + 3)
	if err := k.write(f, b, v); err != nil {
		b.SetWriterIndex(start)
		return err
	}
	return nil
}

func writeRootPtr[T any](f *Runtime, b *buffer.Buffer, p *T, k *rootCodec[T]) (bool, error) {
	if p == nil {
		return false, nil
	}
	return true, writeRoot(f, b, *p, k)
}

// readRoot reads data, exactly one message whose root is a T, into *p; *p
// is set only when the whole message decodes.
func readRoot[T any](f *Runtime, data []byte, p *T, k *rootCodec[T]) (bool, error) {
	if p == nil {
		return false, nil
	}
	c := f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	var v T
	switch fl := r.ReadUint8(); {
	case r.Err() != nil:
	case fl == FlagNotNull || fl == meta.FlagRefValue:
		// 00 is what a tracking writer puts before a root slice or map:
		// the root is the message's first value, and nothing inside a
		// root of these kinds can refer back to it.
		id := r.ReadUint8()
		switch {
		case r.Err() != nil:
		case !k.accepts(id):
			r.Fail(mismatch("root type id %d where %s (type id %d) was expected", id, k.info.GoName, k.id))
		default:
			v = k.read(c, id)
		}
	case fl == FlagNull:
		if k.isNil == nil {
			r.Fail(mismatch("null root where %s cannot be nil", k.info.GoName))
		}
	case fl == meta.FlagRef:
		r.Fail(malformed("reference flag before the root value, which nothing precedes"))
	default:
		r.Fail(malformed("bad root flag 0x%02x", fl))
	}
	err := f.EndRead(c, k.info)
	if err == nil {
		*p = v
	}
	return true, err
}

// Scalars (docs/format.md §3, §4.2, §12). Official Go writes int and uint
// as the 64-bit varints; the fixed and tagged encodings of the same
// integers are read too, as official Go reads them.

var boolRoot = rootCodec[bool]{info: rootInfo("bool"), id: meta.TypeBool,
	write: func(_ *Runtime, b *buffer.Buffer, v bool) error { b.WriteBool(v); return nil },
	read:  func(c *ReadContext, _ byte) bool { return c.r.ReadUint8() != 0 }}

var int8Root = rootCodec[int8]{info: rootInfo("int8"), id: meta.TypeInt8,
	write: func(_ *Runtime, b *buffer.Buffer, v int8) error { b.WriteInt8(v); return nil },
	read:  func(c *ReadContext, _ byte) int8 { return c.r.ReadInt8() }}

var int16Root = rootCodec[int16]{info: rootInfo("int16"), id: meta.TypeInt16,
	write: func(_ *Runtime, b *buffer.Buffer, v int16) error { b.WriteInt16(v); return nil },
	read:  func(c *ReadContext, _ byte) int16 { return c.r.ReadInt16() }}

var int32Root = rootCodec[int32]{info: rootInfo("int32"), id: meta.TypeVarInt32, alt: [2]byte{meta.TypeInt32},
	write: func(_ *Runtime, b *buffer.Buffer, v int32) error { b.WriteVarInt32(v); return nil },
	read: func(c *ReadContext, id byte) int32 {
		if id == meta.TypeInt32 {
			return c.r.ReadInt32()
		}
		return c.r.ReadVarInt32()
	}}

func readInt64As(c *ReadContext, id byte) int64 {
	switch id {
	case meta.TypeInt64:
		return c.r.ReadInt64()
	case meta.TypeTaggedInt64:
		return c.r.ReadTaggedInt64()
	}
	return c.r.ReadVarInt64()
}

func readUint64As(c *ReadContext, id byte) uint64 {
	switch id {
	case meta.TypeUint64:
		return c.r.ReadUint64()
	case meta.TypeTaggedUint64:
		return c.r.ReadTaggedUint64()
	}
	return c.r.ReadVarUint64()
}

var int64Root = rootCodec[int64]{info: rootInfo("int64"), id: meta.TypeVarInt64, alt: [2]byte{meta.TypeInt64, meta.TypeTaggedInt64},
	write: func(_ *Runtime, b *buffer.Buffer, v int64) error { b.WriteVarInt64(v); return nil },
	read:  readInt64As}

var intRoot = rootCodec[int]{info: rootInfo("int"), id: meta.TypeVarInt64, alt: [2]byte{meta.TypeInt64, meta.TypeTaggedInt64},
	write: func(_ *Runtime, b *buffer.Buffer, v int) error { b.WriteVarInt64(int64(v)); return nil },
	read: func(c *ReadContext, id byte) int {
		v := readInt64As(c, id)
		if int64(int(v)) != v && c.r.Err() == nil {
			c.r.Fail(mismatch("%d overflows int", v))
		}
		return int(v)
	}}

var uint8Root = rootCodec[uint8]{info: rootInfo("uint8"), id: meta.TypeUint8,
	write: func(_ *Runtime, b *buffer.Buffer, v uint8) error { b.WriteUint8(v); return nil },
	read:  func(c *ReadContext, _ byte) uint8 { return c.r.ReadUint8() }}

var uint16Root = rootCodec[uint16]{info: rootInfo("uint16"), id: meta.TypeUint16,
	write: func(_ *Runtime, b *buffer.Buffer, v uint16) error { b.WriteUint16(v); return nil },
	read:  func(c *ReadContext, _ byte) uint16 { return c.r.ReadUint16() }}

var uint32Root = rootCodec[uint32]{info: rootInfo("uint32"), id: meta.TypeVarUint32, alt: [2]byte{meta.TypeUint32},
	write: func(_ *Runtime, b *buffer.Buffer, v uint32) error { b.WriteVarUint32(v); return nil },
	read: func(c *ReadContext, id byte) uint32 {
		if id == meta.TypeUint32 {
			return c.r.ReadUint32()
		}
		return c.r.ReadVarUint32()
	}}

var uint64Root = rootCodec[uint64]{info: rootInfo("uint64"), id: meta.TypeVarUint64, alt: [2]byte{meta.TypeUint64, meta.TypeTaggedUint64},
	write: func(_ *Runtime, b *buffer.Buffer, v uint64) error { b.WriteVarUint64(v); return nil },
	read:  readUint64As}

var uintRoot = rootCodec[uint]{info: rootInfo("uint"), id: meta.TypeVarUint64, alt: [2]byte{meta.TypeUint64, meta.TypeTaggedUint64},
	write: func(_ *Runtime, b *buffer.Buffer, v uint) error { b.WriteVarUint64(uint64(v)); return nil },
	read: func(c *ReadContext, id byte) uint {
		v := readUint64As(c, id)
		if uint64(uint(v)) != v && c.r.Err() == nil {
			c.r.Fail(mismatch("%d overflows uint", v))
		}
		return uint(v)
	}}

var float32Root = rootCodec[float32]{info: rootInfo("float32"), id: meta.TypeFloat32,
	write: func(_ *Runtime, b *buffer.Buffer, v float32) error { b.WriteFloat32(v); return nil },
	read:  func(c *ReadContext, _ byte) float32 { return c.r.ReadFloat32() }}

var float64Root = rootCodec[float64]{info: rootInfo("float64"), id: meta.TypeFloat64,
	write: func(_ *Runtime, b *buffer.Buffer, v float64) error { b.WriteFloat64(v); return nil },
	read:  func(c *ReadContext, _ byte) float64 { return c.r.ReadFloat64() }}

var stringRoot = rootCodec[string]{info: rootInfo("string"), id: meta.TypeString,
	write: func(f *Runtime, b *buffer.Buffer, v string) error {
		if f.CheckUTF8() && !ValidString(v) {
			return InvalidUTF8(stringRootInfo, "")
		}
		WriteString(b, v)
		return nil
	},
	read: func(c *ReadContext, _ byte) string { return c.ReadString() }}

var stringRootInfo = rootInfo("string")

var timeRoot = rootCodec[time.Time]{info: rootInfo("time.Time"), id: meta.TypeTimestamp,
	write: func(_ *Runtime, b *buffer.Buffer, v time.Time) error { WriteTime(b, v); return nil },
	read:  func(c *ReadContext, _ byte) time.Time { return c.ReadTime() }}

var durationRoot = rootCodec[time.Duration]{info: rootInfo("time.Duration"), id: meta.TypeDuration,
	write: func(_ *Runtime, b *buffer.Buffer, v time.Duration) error { WriteDuration(b, v); return nil },
	read:  func(c *ReadContext, _ byte) time.Duration { return c.ReadDuration() }}

// Dense arrays (docs/format.md §8.2): official Go writes a root slice of
// fixed-width numbers or bools as the dense array of its element type, a
// []byte as BINARY and a []int as INT64_ARRAY.

// arrayCodec is the codec of a dense array of width-byte elements; put and
// get copy the elements, which ReadArrayLength has checked against the
// input.
func arrayCodec[E Scalar](name string, id byte, width int, put func(*buffer.Buffer, []E), get func(*buffer.Reader, []E)) rootCodec[[]E] {
	info := rootInfo(name)
	return rootCodec[[]E]{info: info, id: id, tracked: true,
		isNil: func(s []E) bool { return s == nil },
		write: func(_ *Runtime, b *buffer.Buffer, s []E) error {
			n := uint64(len(s)) * uint64(width)
			if n > math.MaxUint32 {
				return tooLong(info, len(s))
			}
			b.WriteVarUint32(uint32(n))
			put(b, s)
			return nil
		},
		read: func(c *ReadContext, _ byte) []E {
			n := c.ReadArrayLength(width)
			s := MakeScalarSlice[[]E](c, n)
			if c.r.Err() != nil {
				return nil
			}
			get(&c.r, s)
			return s
		}}
}

func tooLong(t *TypeInfo, n int) error {
	return &EncodeError{Type: t.GoName, Err: &detail{sentinel: ErrInvalidValue,
		msg: strconv.Itoa(n) + " elements do not fit a length of 32 bits"}}
}

var (
	bytesRoot = func() rootCodec[[]byte] {
		k := arrayCodec("[]byte", meta.TypeBinary, 1, (*buffer.Buffer).WriteBytes,
			func(r *buffer.Reader, dst []byte) { copy(dst, r.ReadBytes(len(dst))) })
		k.alt = [2]byte{meta.TypeUint8Array}
		return k
	}()
	boolsRoot = arrayCodec("[]bool", meta.TypeBoolArray, 1, (*buffer.Buffer).WriteRawBools, (*buffer.Reader).ReadRawBools)
	int8sRoot = arrayCodec("[]int8", meta.TypeInt8Array, 1,
		func(b *buffer.Buffer, s []int8) {
			for _, v := range s {
				b.WriteInt8(v)
			}
		},
		func(r *buffer.Reader, dst []int8) {
			for i, v := range r.ReadBytes(len(dst)) {
				dst[i] = int8(v)
			}
		})
	int16sRoot   = arrayCodec("[]int16", meta.TypeInt16Array, 2, (*buffer.Buffer).WriteRawInt16s, (*buffer.Reader).ReadRawInt16s)
	int32sRoot   = arrayCodec("[]int32", meta.TypeInt32Array, 4, (*buffer.Buffer).WriteRawInt32s, (*buffer.Reader).ReadRawInt32s)
	int64sRoot   = arrayCodec("[]int64", meta.TypeInt64Array, 8, (*buffer.Buffer).WriteRawInt64s, (*buffer.Reader).ReadRawInt64s)
	uint16sRoot  = arrayCodec("[]uint16", meta.TypeUint16Array, 2, (*buffer.Buffer).WriteRawUint16s, (*buffer.Reader).ReadRawUint16s)
	uint32sRoot  = arrayCodec("[]uint32", meta.TypeUint32Array, 4, (*buffer.Buffer).WriteRawUint32s, (*buffer.Reader).ReadRawUint32s)
	uint64sRoot  = arrayCodec("[]uint64", meta.TypeUint64Array, 8, (*buffer.Buffer).WriteRawUint64s, (*buffer.Reader).ReadRawUint64s)
	float32sRoot = arrayCodec("[]float32", meta.TypeFloat32Array, 4, (*buffer.Buffer).WriteRawFloat32s, (*buffer.Reader).ReadRawFloat32s)
	float64sRoot = arrayCodec("[]float64", meta.TypeFloat64Array, 8, (*buffer.Buffer).WriteRawFloat64s, (*buffer.Reader).ReadRawFloat64s)
	intsRoot     = arrayCodec("[]int", meta.TypeInt64Array, 8,
		func(b *buffer.Buffer, s []int) {
			for _, v := range s {
				b.WriteInt64(int64(v))
			}
		},
		func(r *buffer.Reader, dst []int) {
			for i := range dst {
				v := r.ReadInt64()
				if int64(int(v)) != v && r.Err() == nil {
					r.Fail(mismatch("%d overflows int", v))
				}
				dst[i] = int(v)
			}
		})
)

// stringsRoot is a []string root: a LIST (docs/format.md §8.1) whose
// elements header says "same type, not declared" (08) followed by the
// element type STRING, as official Go writes it with no declared element
// type. The reader takes any header ReadListHeader accepts.
var stringsRoot = func() rootCodec[[]string] {
	info := rootInfo("[]string")
	return rootCodec[[]string]{info: info, id: meta.TypeList, tracked: true,
		isNil: func(s []string) bool { return s == nil },
		write: func(f *Runtime, b *buffer.Buffer, s []string) error {
			if uint64(len(s)) > math.MaxUint32 {
				return tooLong(info, len(s))
			}
			b.WriteVarUint32(uint32(len(s)))
			if len(s) == 0 {
				return nil
			}
			b.WriteUint8(meta.ListSameType)
			b.WriteUint8(meta.TypeString)
			check := f.CheckUTF8()
			for i, v := range s {
				if check && !ValidString(v) {
					return InvalidUTF8(info, "["+strconv.Itoa(i)+"]")
				}
				WriteString(b, v)
			}
			return nil
		},
		read: func(c *ReadContext, _ byte) []string {
			n := c.ReadLength(1)
			if c.r.Err() != nil {
				return nil
			}
			s := MakeSlice[[]string](c, n)
			if n == 0 || c.r.Err() != nil {
				return s
			}
			hasNull := c.ReadListHeader(meta.TypeString)
			for i := 0; i < n && c.r.Err() == nil; i++ {
				if hasNull && !c.ReadFlag() {
					if c.r.Err() == nil {
						c.r.Fail(mismatch("null element %d in a list read into a []string", i))
					}
					break
				}
				s[i] = c.ReadString()
			}
			return s
		}}
}()

// Maps (docs/format.md §8.4). Official Go writes a root map with
// undeclared key and value types: every chunk is header 00, its size, the
// key type id and the value type id, then the entries. forygen writes each
// entry once, in chunks of at most 255; official c8bf233's writers for
// some key and value pairs restart the iteration for every chunk, so a
// map of more than 255 entries loses some and repeats others
// (docs/format.md §14.25). The reader takes any well-formed chunk sequence
// that ReadMapChunk accepts; a key repeated in the input keeps its last
// value.

const maxChunk = 255

func mapCodec[K comparable, V any](name string, kc *rootCodec[K], vc *rootCodec[V]) rootCodec[map[K]V] {
	info := rootInfo(name)
	return rootCodec[map[K]V]{info: info, id: meta.TypeMap, tracked: true,
		isNil: func(m map[K]V) bool { return m == nil },
		write: func(f *Runtime, b *buffer.Buffer, m map[K]V) error {
			left := len(m)
			if uint64(left) > math.MaxUint32 {
				return tooLong(info, left)
			}
			b.WriteVarUint32(uint32(left))
			size, in := 0, 0
			for k, v := range m {
				if in == 0 {
					size = min(left, maxChunk)
					b.WriteUint8(0)
					b.WriteUint8(uint8(size))
					b.WriteUint8(kc.id)
					b.WriteUint8(vc.id)
				}
				if err := kc.write(f, b, k); err != nil {
					return mapEntryError(info, err, "key")
				}
				if err := vc.write(f, b, v); err != nil {
					return mapEntryError(info, err, "value")
				}
				if in++; in == size {
					left -= size
					in = 0
				}
			}
			return nil
		},
		read: func(c *ReadContext, _ byte) map[K]V {
			n := c.ReadLength(2)
			if c.r.Err() != nil {
				return nil
			}
			m := MakeMap[map[K]V](c, n)
			for n > 0 && c.r.Err() == nil {
				size, _, _ := c.ReadMapChunk(n, kc.id, vc.id, nil, false)
				for j := 0; j < size && c.r.Err() == nil; j++ {
					k := kc.read(c, kc.id)
					v := vc.read(c, vc.id)
					m[k] = v
				}
				if size == 0 {
					break
				}
				n -= size
			}
			return m
		}}
}

// mapEntryError is an entry's EncodeError with the map's type name.
func mapEntryError(info *TypeInfo, err error, side string) error {
	if e, ok := err.(*EncodeError); ok {
		return &EncodeError{Type: info.GoName, Path: side, Err: e.Err}
	}
	return err
}

var (
	mapStringBool    = mapCodec("map[string]bool", &stringRoot, &boolRoot)
	mapStringInt32   = mapCodec("map[string]int32", &stringRoot, &int32Root)
	mapStringInt64   = mapCodec("map[string]int64", &stringRoot, &int64Root)
	mapStringInt     = mapCodec("map[string]int", &stringRoot, &intRoot)
	mapStringFloat64 = mapCodec("map[string]float64", &stringRoot, &float64Root)
	mapStringString  = mapCodec("map[string]string", &stringRoot, &stringRoot)
	mapInt32Bool     = mapCodec("map[int32]bool", &int32Root, &boolRoot)
	mapInt32Int32    = mapCodec("map[int32]int32", &int32Root, &int32Root)
	mapInt32Int64    = mapCodec("map[int32]int64", &int32Root, &int64Root)
	mapInt32Float64  = mapCodec("map[int32]float64", &int32Root, &float64Root)
	mapInt32String   = mapCodec("map[int32]string", &int32Root, &stringRoot)
	mapInt64Bool     = mapCodec("map[int64]bool", &int64Root, &boolRoot)
	mapInt64Int32    = mapCodec("map[int64]int32", &int64Root, &int32Root)
	mapInt64Int64    = mapCodec("map[int64]int64", &int64Root, &int64Root)
	mapInt64Float64  = mapCodec("map[int64]float64", &int64Root, &float64Root)
	mapInt64String   = mapCodec("map[int64]string", &int64Root, &stringRoot)
	mapIntInt        = mapCodec("map[int]int", &intRoot, &intRoot)
)

// WriteRootValue appends to b the message whose root is v, a non-struct
// root value (the types of serializer.RootValue) or a non-nil pointer to
// one. handled is false for any other v; on error nothing is appended.
func (f *Runtime) WriteRootValue(b *buffer.Buffer, v any) (handled bool, err error) {
	switch x := v.(type) {
	case bool:
		return true, writeRoot(f, b, x, &boolRoot)
	case int8:
		return true, writeRoot(f, b, x, &int8Root)
	case int16:
		return true, writeRoot(f, b, x, &int16Root)
	case int32:
		return true, writeRoot(f, b, x, &int32Root)
	case int64:
		return true, writeRoot(f, b, x, &int64Root)
	case int:
		return true, writeRoot(f, b, x, &intRoot)
	case uint8:
		return true, writeRoot(f, b, x, &uint8Root)
	case uint16:
		return true, writeRoot(f, b, x, &uint16Root)
	case uint32:
		return true, writeRoot(f, b, x, &uint32Root)
	case uint64:
		return true, writeRoot(f, b, x, &uint64Root)
	case uint:
		return true, writeRoot(f, b, x, &uintRoot)
	case float32:
		return true, writeRoot(f, b, x, &float32Root)
	case float64:
		return true, writeRoot(f, b, x, &float64Root)
	case string:
		return true, writeRoot(f, b, x, &stringRoot)
	case time.Time:
		return true, writeRoot(f, b, x, &timeRoot)
	case time.Duration:
		return true, writeRoot(f, b, x, &durationRoot)
	case []byte:
		return true, writeRoot(f, b, x, &bytesRoot)
	case []bool:
		return true, writeRoot(f, b, x, &boolsRoot)
	case []int8:
		return true, writeRoot(f, b, x, &int8sRoot)
	case []int16:
		return true, writeRoot(f, b, x, &int16sRoot)
	case []int32:
		return true, writeRoot(f, b, x, &int32sRoot)
	case []int64:
		return true, writeRoot(f, b, x, &int64sRoot)
	case []int:
		return true, writeRoot(f, b, x, &intsRoot)
	case []uint16:
		return true, writeRoot(f, b, x, &uint16sRoot)
	case []uint32:
		return true, writeRoot(f, b, x, &uint32sRoot)
	case []uint64:
		return true, writeRoot(f, b, x, &uint64sRoot)
	case []float32:
		return true, writeRoot(f, b, x, &float32sRoot)
	case []float64:
		return true, writeRoot(f, b, x, &float64sRoot)
	case []string:
		return true, writeRoot(f, b, x, &stringsRoot)
	case map[string]bool:
		return true, writeRoot(f, b, x, &mapStringBool)
	case map[string]int32:
		return true, writeRoot(f, b, x, &mapStringInt32)
	case map[string]int64:
		return true, writeRoot(f, b, x, &mapStringInt64)
	case map[string]int:
		return true, writeRoot(f, b, x, &mapStringInt)
	case map[string]float64:
		return true, writeRoot(f, b, x, &mapStringFloat64)
	case map[string]string:
		return true, writeRoot(f, b, x, &mapStringString)
	case map[int32]bool:
		return true, writeRoot(f, b, x, &mapInt32Bool)
	case map[int32]int32:
		return true, writeRoot(f, b, x, &mapInt32Int32)
	case map[int32]int64:
		return true, writeRoot(f, b, x, &mapInt32Int64)
	case map[int32]float64:
		return true, writeRoot(f, b, x, &mapInt32Float64)
	case map[int32]string:
		return true, writeRoot(f, b, x, &mapInt32String)
	case map[int64]bool:
		return true, writeRoot(f, b, x, &mapInt64Bool)
	case map[int64]int32:
		return true, writeRoot(f, b, x, &mapInt64Int32)
	case map[int64]int64:
		return true, writeRoot(f, b, x, &mapInt64Int64)
	case map[int64]float64:
		return true, writeRoot(f, b, x, &mapInt64Float64)
	case map[int64]string:
		return true, writeRoot(f, b, x, &mapInt64String)
	case map[int]int:
		return true, writeRoot(f, b, x, &mapIntInt)
	}
	return f.WriteRootPointer(b, v)
}

// WriteRootPointer is WriteRootValue for a pointer to the value only. A
// caller's pointer to a local does not escape through it, as it would
// through WriteRootValue, whose maps are held in the interface itself
// (serializer.MarshalValueAppend does not allocate).
func (f *Runtime) WriteRootPointer(b *buffer.Buffer, p any) (handled bool, err error) {
	switch x := p.(type) {
	case *bool:
		return writeRootPtr(f, b, x, &boolRoot)
	case *int8:
		return writeRootPtr(f, b, x, &int8Root)
	case *int16:
		return writeRootPtr(f, b, x, &int16Root)
	case *int32:
		return writeRootPtr(f, b, x, &int32Root)
	case *int64:
		return writeRootPtr(f, b, x, &int64Root)
	case *int:
		return writeRootPtr(f, b, x, &intRoot)
	case *uint8:
		return writeRootPtr(f, b, x, &uint8Root)
	case *uint16:
		return writeRootPtr(f, b, x, &uint16Root)
	case *uint32:
		return writeRootPtr(f, b, x, &uint32Root)
	case *uint64:
		return writeRootPtr(f, b, x, &uint64Root)
	case *uint:
		return writeRootPtr(f, b, x, &uintRoot)
	case *float32:
		return writeRootPtr(f, b, x, &float32Root)
	case *float64:
		return writeRootPtr(f, b, x, &float64Root)
	case *string:
		return writeRootPtr(f, b, x, &stringRoot)
	case *time.Time:
		return writeRootPtr(f, b, x, &timeRoot)
	case *time.Duration:
		return writeRootPtr(f, b, x, &durationRoot)
	case *[]byte:
		return writeRootPtr(f, b, x, &bytesRoot)
	case *[]bool:
		return writeRootPtr(f, b, x, &boolsRoot)
	case *[]int8:
		return writeRootPtr(f, b, x, &int8sRoot)
	case *[]int16:
		return writeRootPtr(f, b, x, &int16sRoot)
	case *[]int32:
		return writeRootPtr(f, b, x, &int32sRoot)
	case *[]int64:
		return writeRootPtr(f, b, x, &int64sRoot)
	case *[]int:
		return writeRootPtr(f, b, x, &intsRoot)
	case *[]uint16:
		return writeRootPtr(f, b, x, &uint16sRoot)
	case *[]uint32:
		return writeRootPtr(f, b, x, &uint32sRoot)
	case *[]uint64:
		return writeRootPtr(f, b, x, &uint64sRoot)
	case *[]float32:
		return writeRootPtr(f, b, x, &float32sRoot)
	case *[]float64:
		return writeRootPtr(f, b, x, &float64sRoot)
	case *[]string:
		return writeRootPtr(f, b, x, &stringsRoot)
	case *map[string]bool:
		return writeRootPtr(f, b, x, &mapStringBool)
	case *map[string]int32:
		return writeRootPtr(f, b, x, &mapStringInt32)
	case *map[string]int64:
		return writeRootPtr(f, b, x, &mapStringInt64)
	case *map[string]int:
		return writeRootPtr(f, b, x, &mapStringInt)
	case *map[string]float64:
		return writeRootPtr(f, b, x, &mapStringFloat64)
	case *map[string]string:
		return writeRootPtr(f, b, x, &mapStringString)
	case *map[int32]bool:
		return writeRootPtr(f, b, x, &mapInt32Bool)
	case *map[int32]int32:
		return writeRootPtr(f, b, x, &mapInt32Int32)
	case *map[int32]int64:
		return writeRootPtr(f, b, x, &mapInt32Int64)
	case *map[int32]float64:
		return writeRootPtr(f, b, x, &mapInt32Float64)
	case *map[int32]string:
		return writeRootPtr(f, b, x, &mapInt32String)
	case *map[int64]bool:
		return writeRootPtr(f, b, x, &mapInt64Bool)
	case *map[int64]int32:
		return writeRootPtr(f, b, x, &mapInt64Int32)
	case *map[int64]int64:
		return writeRootPtr(f, b, x, &mapInt64Int64)
	case *map[int64]float64:
		return writeRootPtr(f, b, x, &mapInt64Float64)
	case *map[int64]string:
		return writeRootPtr(f, b, x, &mapInt64String)
	case *map[int]int:
		return writeRootPtr(f, b, x, &mapIntInt)
	}
	return false, nil
}

// ReadRootValue reads data, exactly one message, into p, a non-nil pointer
// to a non-struct root value (the types of serializer.RootValue). handled
// is false for any other p. *p is replaced only when the message decodes;
// a null root (a nil slice or map, written fd) sets it to nil.
func (f *Runtime) ReadRootValue(data []byte, p any) (handled bool, err error) {
	switch x := p.(type) {
	case *bool:
		return readRoot(f, data, x, &boolRoot)
	case *int8:
		return readRoot(f, data, x, &int8Root)
	case *int16:
		return readRoot(f, data, x, &int16Root)
	case *int32:
		return readRoot(f, data, x, &int32Root)
	case *int64:
		return readRoot(f, data, x, &int64Root)
	case *int:
		return readRoot(f, data, x, &intRoot)
	case *uint8:
		return readRoot(f, data, x, &uint8Root)
	case *uint16:
		return readRoot(f, data, x, &uint16Root)
	case *uint32:
		return readRoot(f, data, x, &uint32Root)
	case *uint64:
		return readRoot(f, data, x, &uint64Root)
	case *uint:
		return readRoot(f, data, x, &uintRoot)
	case *float32:
		return readRoot(f, data, x, &float32Root)
	case *float64:
		return readRoot(f, data, x, &float64Root)
	case *string:
		return readRoot(f, data, x, &stringRoot)
	case *time.Time:
		return readRoot(f, data, x, &timeRoot)
	case *time.Duration:
		return readRoot(f, data, x, &durationRoot)
	case *[]byte:
		return readRoot(f, data, x, &bytesRoot)
	case *[]bool:
		return readRoot(f, data, x, &boolsRoot)
	case *[]int8:
		return readRoot(f, data, x, &int8sRoot)
	case *[]int16:
		return readRoot(f, data, x, &int16sRoot)
	case *[]int32:
		return readRoot(f, data, x, &int32sRoot)
	case *[]int64:
		return readRoot(f, data, x, &int64sRoot)
	case *[]int:
		return readRoot(f, data, x, &intsRoot)
	case *[]uint16:
		return readRoot(f, data, x, &uint16sRoot)
	case *[]uint32:
		return readRoot(f, data, x, &uint32sRoot)
	case *[]uint64:
		return readRoot(f, data, x, &uint64sRoot)
	case *[]float32:
		return readRoot(f, data, x, &float32sRoot)
	case *[]float64:
		return readRoot(f, data, x, &float64sRoot)
	case *[]string:
		return readRoot(f, data, x, &stringsRoot)
	case *map[string]bool:
		return readRoot(f, data, x, &mapStringBool)
	case *map[string]int32:
		return readRoot(f, data, x, &mapStringInt32)
	case *map[string]int64:
		return readRoot(f, data, x, &mapStringInt64)
	case *map[string]int:
		return readRoot(f, data, x, &mapStringInt)
	case *map[string]float64:
		return readRoot(f, data, x, &mapStringFloat64)
	case *map[string]string:
		return readRoot(f, data, x, &mapStringString)
	case *map[int32]bool:
		return readRoot(f, data, x, &mapInt32Bool)
	case *map[int32]int32:
		return readRoot(f, data, x, &mapInt32Int32)
	case *map[int32]int64:
		return readRoot(f, data, x, &mapInt32Int64)
	case *map[int32]float64:
		return readRoot(f, data, x, &mapInt32Float64)
	case *map[int32]string:
		return readRoot(f, data, x, &mapInt32String)
	case *map[int64]bool:
		return readRoot(f, data, x, &mapInt64Bool)
	case *map[int64]int32:
		return readRoot(f, data, x, &mapInt64Int32)
	case *map[int64]int64:
		return readRoot(f, data, x, &mapInt64Int64)
	case *map[int64]float64:
		return readRoot(f, data, x, &mapInt64Float64)
	case *map[int64]string:
		return readRoot(f, data, x, &mapInt64String)
	case *map[int]int:
		return readRoot(f, data, x, &mapIntInt)
	}
	return false, nil
}
