package conformance_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/benchid"
	"github.com/forygen/forygen/internal/conformance/benchname"
	"github.com/forygen/forygen/serializer"
)

// The project's own byte vectors: the Fory benchmark's CreateNumericStruct and
// CreateMediaContent values, written by official Fory Go (apache/fory
// c8bf23342ba3) and checked by hand against docs/format.md §13. They need no
// fixture files. TestOwnVectorsWellFormed rebuilds every literal from the value
// with a small independent encoder (zigzag varints, MurmurHash3 schema hashes
// and TypeDef headers, meta strings), so a typo in a literal cannot go unnoticed.

// numericStructConsistentByIDHex is NumericStruct, same-schema mode, registered
// by id 1 (48 bytes, docs/format.md §13.1). Every field is an untagged-encoding int32
// with a tag id, so all twelve are VARINT32 (zz32 = varu32((v << 1) ^ (v >> 31)))
// written in tag-id order.
const numericStructConsistentByIDHex = "" +
	"01" + //         xlang header
	"ff" + //         root: not null
	"1b01" + //       STRUCT (27), user id 1
	"6317bde9" + //   schema hash -373483677 (i32le) of "1,5,0,0;2,5,0,0;…;12,5,0,0;"
	numericStructFieldsHex

// numericStructFieldsHex is the twelve zigzag varints, the same in both modes.
const numericStructFieldsHex = "" +
	"f1c001" + //     f1  = -12345      zigzag 24689
	"e2a2f3ad07" + // f2  = 987654321   zigzag 1975308642
	"edea03" + //     f3  = -31415      zigzag 62829
	"c49bf619" + //   f4  = 27182818    zigzag 54365636
	"fff303" + //     f5  = -32000      zigzag 63999
	"80897a" + //     f6  = 1000000     zigzag 2000000
	"fda7d6b907" + // f7  = -999999999  zigzag 1999999997
	"54" + //         f8  = 42          zigzag 84
	"aab4de75" + //   f9  = 123456789   zigzag 246913578
	"53" + //         f10 = -42         zigzag 83
	"ecf9fa1d" + //   f11 = 31415926    zigzag 62831852
	"c39bf619" //     f12 = -27182818   zigzag 54365635

// numericStructConsistentByNameHex is the same value registered by name
// "bench.NumericStruct" (65 bytes): the type meta 1b 01 becomes NAMED_STRUCT
// with two inline meta strings (§6.3).
const numericStructConsistentByNameHex = "" +
	"01ff" +
	"1d" + //                         NAMED_STRUCT (29)
	"0804848d11c0" + //               namespace: varu32(4<<1), encoding 04 ATLS, "bench" (codes 1,4,13,2,7; strip flag set)
	"140475b461228176538d0530" + //   type name: varu32(10<<1), ATLS, "|numeric|struct"
	"6317bde9" + //                   schema hash (registration does not change it)
	numericStructFieldsHex

// mediaContentConsistentByIDHex is MediaContent, same-schema mode, all types
// registered by id (310 bytes, docs/format.md §13.3; offsets on the left).
const mediaContentConsistentByIDHex = "" +
	"01ff1b05" + // 0000 header 01, root not null ff, STRUCT 1b, user id 5
	"3d68730b" + // 0004 MediaContent schema hash 192112701
	"8a34fbdb" + // 0008 media (#1): nested struct, no flag, no type meta; Media schema hash -604294006
	"00" + // 000c has_bitrate#9 = false (fixed group)
	"82a29511" + // 000d duration#6 = 18000001 (zz64)
	"8280a038" + // 0011 size#7 = 58982401 (zz64)
	"820a" + // 0015 width#3 = 641 (zz32)
	"c207" + // 0017 height#4 = 481 (zz32)
	"00" + // 0019 bitrate#8 = 0
	"7a687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74652e6f6767" + // 001a u_r_i#1: header (30<<2)|2, "http://javaone.com/keynote.ogg"
	"02" + // 0039 title#2: "" (UTF-8, length 0)
	"3e766964656f2f7468656f7261e188b4" + // 003a format#5: header (15<<2)|2, "video/theora" + e1 88 b4 (U+1234)
	"020c" + // 004a persons#10: 2 elements, elements header 0c
	"3e42696c6c2047617465732c204a722e" + // 004c "Bill Gates, Jr."
	"2e53746576656e204a6f6273" + // 005c "Steven Jobs"
	"01" + // 0068 player#11 = PlayerFlash (enum, varu32)
	"9201436f707972696768742028632920323030392c2053636f6f627920446f6f627920446f6f" + // 0069 copyright#12: header (36<<2)|2 = 146 = 92 01
	"03081b04" + // 008f images#2: 3 elements, header 08 (same type), element type meta STRUCT 1b id 4
	"e81cdb74" + // 0093 image 0: Image schema hash 1960516840
	"80f40380f702" + // 0097 width#3 = 32000, height#4 = 24000
	"8e01687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f687567652e6a7067" + // 009d u_r_i#1 "http://javaone.com/keynote_huge.jpg"
	"4a4a6176616f6e65204b65796e6f7465e188b4" + // 00c2 title#2 "Javaone Keynote\u1234"
	"01" + // 00d5 size#5 = SizeLarge
	"e81cdb74" + // 00d6 image 1: Image schema hash
	"8010800c" + // 00da width#3 = 1024, height#4 = 768
	"9201687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f6c617267652e6a7067" + // 00de u_r_i#1 "http://javaone.com/keynote_large.jpg"
	"02" + // 0104 title#2 ""
	"01" + // 0105 size#5 = SizeLarge
	"e81cdb74" + // 0106 image 2: Image schema hash
	"8005e003" + // 010a width#3 = 320, height#4 = 240
	"9201687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f736d616c6c2e6a7067" + // 010e u_r_i#1 "http://javaone.com/keynote_small.jpg"
	"02" + // 0134 title#2 ""
	"00" //    0135 size#5 = SizeSmall

// numericStructCompatibleByIDHex is NumericStruct, compatible mode, by id
// (78 bytes, docs/format.md §13.2).
const numericStructCompatibleByIDHex = "" +
	"01ff" +
	"1c" + //               COMPATIBLE_STRUCT (28)
	"00" + //               shared meta marker: new TypeDef, index 0
	"1a50ae72ee1e8c4b" + // TypeDef header 0x4b8c1eee72ae501a: body 26 bytes, 52-bit hash
	"cc" + //               0x80 struct | 0x40 compatible | 12 fields
	"01" + //               user id 1
	"c405c805cc05d005d405d805" + // f1..f6: TAG_ID field header 0xC0|tag<<2, type 05 VARINT32
	"dc05e005e405e805ec05f005" + // f7..f12
	numericStructFieldsHex //      the same varints, no schema hash

// numericStructCompatibleByNameHex is the compatible by-name form
// "bench.NumericStruct" (93 bytes).
const numericStructCompatibleByNameHex = "" +
	"01ff" +
	"1e" + //                         NAMED_COMPATIBLE_STRUCT (30)
	"00" + //                         new TypeDef #0
	"29e048b375022a26" + //           TypeDef header: body 41 bytes
	"ec" + //                         struct | compatible | by name (0x20) | 12 fields
	"11848d11c0" + //                 namespace (4<<2)|1 ATLS, "bench"
	"2975b461228176538d0530" + //     type name (10<<2)|1 ATLS, "NumericStruct"
	"c405c805cc05d005d405d805" + //   f1..f6
	"dc05e005e405e805ec05f005" + //   f7..f12
	numericStructFieldsHex

// mediaContentCompatibleByIDHex is MediaContent, compatible mode, by id
// (362 bytes, docs/format.md §13.4).
const mediaContentCompatibleByIDHex = "" +
	"01ff1c00" + // 0000 header, not null, COMPATIBLE_STRUCT 1c, shared meta marker 00 = new TypeDef #0
	"0790f6d4f636ac03" + // 0004 TypeDef header: body 7 bytes, 52-bit hash
	"c205c41cc81672" + // 000c c2 = struct|compatible|2 fields, user id 5; media#1 c4 type 1c; images#2 c8 LIST 16, child 72 = (28<<2)|nullable
	"1c02" + // 0013 media#1: type meta COMPATIBLE_STRUCT, marker 02 = new TypeDef #1 (no flag, no hash)
	"1bf0c41bde82f400" + // 0015 TypeDef header: body 27 bytes
	"cc03e401d807dc07cc05d005e005c415c815d415e81656ec19f015" + // 001d cc = 12 fields, user id 3, then has_bitrate#9 BOOL, duration#6, size#7 VARINT64, width#3, height#4, bitrate#8 VARINT32, u_r_i#1, title#2, format#5 STRING, persons#10 LIST<STRING?>, player#11 ENUM, copyright#12 STRING
	"0082a295118280a038820ac20700" + // 0038 has_bitrate, duration, size, width, height, bitrate (same bytes as same-schema)
	"7a687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74652e6f6767023e766964656f2f7468656f7261e188b4020c3e42696c6c2047617465732c204a722e2e53746576656e204a6f6273019201436f707972696768742028632920323030392c2053636f6f627920446f6f627920446f6f" + // 0046 u_r_i, title, format, persons, player, copyright
	"03081c04" + // 00bb images#2: 3 elements, header 08, COMPATIBLE_STRUCT, marker 04 = new TypeDef #2
	"0c50ea540a3b1d32" + // 00bf TypeDef header: body 12 bytes
	"c504cc05d005c415c815d419" + // 00c7 c5 = 5 fields, user id 4: width#3, height#4 VARINT32, u_r_i#1, title#2 STRING, size#5 ENUM
	"80f40380f7028e01687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f687567652e6a70674a4a6176616f6e65204b65796e6f7465e188b401" + // 00d3 image 0 (no hash)
	"8010800c9201687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f6c617267652e6a70670201" + // 0112 image 1 (no hash)
	"8005e0039201687474703a2f2f6a6176616f6e652e636f6d2f6b65796e6f74655f736d616c6c2e6a70670200" // 013e image 2 (no hash)

// createNumericStruct is the benchmark's CreateNumericStruct.
func createNumericStruct() benchid.NumericStruct {
	return benchid.NumericStruct{
		F1: -12345, F2: 987654321, F3: -31415, F4: 27182818, F5: -32000, F6: 1000000,
		F7: -999999999, F8: 42, F9: 123456789, F10: -42, F11: 31415926, F12: -27182818,
	}
}

// createMediaContent is the benchmark's CreateMediaContent.
func createMediaContent() benchid.MediaContent {
	return benchid.MediaContent{
		Media: benchid.Media{
			URI:        "http://javaone.com/keynote.ogg",
			Title:      "",
			Width:      641,
			Height:     481,
			Format:     "video/theora\u1234",
			Duration:   18000001,
			Size:       58982401,
			Bitrate:    0,
			HasBitrate: false,
			Persons:    []string{"Bill Gates, Jr.", "Steven Jobs"},
			Player:     benchid.PlayerFlash,
			Copyright:  "Copyright (c) 2009, Scooby Dooby Doo",
		},
		Images: []benchid.Image{
			{URI: "http://javaone.com/keynote_huge.jpg", Title: "Javaone Keynote\u1234", Width: 32000, Height: 24000, Size: benchid.SizeLarge},
			{URI: "http://javaone.com/keynote_large.jpg", Title: "", Width: 1024, Height: 768, Size: benchid.SizeLarge},
			{URI: "http://javaone.com/keynote_small.jpg", Title: "", Width: 320, Height: 240, Size: benchid.SizeSmall},
		},
	}
}

func TestOwnVectors(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	ns := createNumericStruct()
	nsByName := benchname.NumericStruct(ns) // identical field lists: a plain conversion
	mc := createMediaContent()
	t.Run("NumericStruct/id", func(t *testing.T) {
		checkVector(t, f, numericStructConsistentByIDHex, 48, &ns, new(benchid.NumericStruct))
	})
	t.Run("NumericStruct/name", func(t *testing.T) {
		checkVector(t, f, numericStructConsistentByNameHex, 65, &nsByName, new(benchname.NumericStruct))
	})
	t.Run("MediaContent/id", func(t *testing.T) {
		checkVector(t, f, mediaContentConsistentByIDHex, 310, &mc, new(benchid.MediaContent))
	})
}

func TestOwnVectorsCompatible(t *testing.T) {
	f := serializer.New() // compatible is the default
	ns := createNumericStruct()
	nsByName := benchname.NumericStruct(ns)
	mc := createMediaContent()
	t.Run("NumericStruct/id", func(t *testing.T) {
		checkVector(t, f, numericStructCompatibleByIDHex, 78, &ns, new(benchid.NumericStruct))
	})
	t.Run("NumericStruct/name", func(t *testing.T) {
		checkVector(t, f, numericStructCompatibleByNameHex, 93, &nsByName, new(benchname.NumericStruct))
	})
	t.Run("MediaContent/id", func(t *testing.T) {
		checkVector(t, f, mediaContentCompatibleByIDHex, 362, &mc, new(benchid.MediaContent))
	})
}

// checkVector decodes the vector into target and compares it with want, then
// serializes want and compares the bytes with the vector.
func checkVector(t *testing.T, f *serializer.Fory, vectorHex string, size int, want, target any) {
	t.Helper()
	vector := mustHex(t, vectorHex)
	require.Len(t, vector, size, "vector literal length")
	require.NoError(t, f.Deserialize(vector, target), "Deserialize(vector)")
	require.Equal(t, want, target, "decoded value")
	out, err := f.Serialize(want)
	require.NoError(t, err, "Serialize(value)")
	if !bytes.Equal(out, vector) {
		t.Fatalf("Serialize(%T) differs from the vector:\n%s", want, hexDiff(vector, out))
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err, "hex literal")
	return b
}

// ---------------------------------------------------------------------------
// TestOwnVectorsWellFormed rebuilds every literal above from the values with an
// encoder written from docs/format.md (not from forygen), so the literals, the
// schema hashes and the TypeDef headers are checked without the generator.

func TestOwnVectorsWellFormed(t *testing.T) {
	// §10.2 schema hashes from their fingerprints.
	nsHash := schemaHash("1,5,0,0;2,5,0,0;3,5,0,0;4,5,0,0;5,5,0,0;6,5,0,0;7,5,0,0;8,5,0,0;9,5,0,0;10,5,0,0;11,5,0,0;12,5,0,0;")
	mcHash := schemaHash("1,0,0,0;2,22,0,0[0,0,0];")
	mediaHash := schemaHash("1,21,0,0;2,21,0,0;3,5,0,0;4,5,0,0;5,21,0,0;6,7,0,0;7,7,0,0;8,5,0,0;9,1,0,0;10,22,0,0[21,0,0];11,0,0,0;12,21,0,0;")
	imageHash := schemaHash("1,21,0,0;2,21,0,0;3,5,0,0;4,5,0,0;5,0,0,0;")
	require.Equal(t, int32(-373483677), nsHash, "NumericStruct hash")
	require.Equal(t, int32(192112701), mcHash, "MediaContent hash")
	require.Equal(t, int32(-604294006), mediaHash, "Media hash")
	require.Equal(t, int32(1960516840), imageHash, "Image hash")

	ns := createNumericStruct()
	nsFields := func(e *enc) {
		for _, v := range []int32{ns.F1, ns.F2, ns.F3, ns.F4, ns.F5, ns.F6, ns.F7, ns.F8, ns.F9, ns.F10, ns.F11, ns.F12} {
			e.zz32(v)
		}
	}
	// TypeDef field entries f1..f12: TAG_ID header 0xC0|tag<<2, type VARINT32.
	var nsFieldDefs []byte
	for tag := 1; tag <= 12; tag++ {
		nsFieldDefs = append(nsFieldDefs, byte(0xc0|tag<<2), 5)
	}

	// §13.1 NumericStruct, same-schema, by id and by name.
	var e enc
	e.bytes(0x01, 0xff, 0x1b, 0x01)
	e.i32(nsHash)
	nsFields(&e)
	requireVector(t, "NumericStruct consistent by id", numericStructConsistentByIDHex, e.b)

	e = enc{}
	e.bytes(0x01, 0xff, 0x1d)
	e.inlineMetaString("bench")
	e.inlineMetaString("NumericStruct")
	e.i32(nsHash)
	nsFields(&e)
	requireVector(t, "NumericStruct consistent by name", numericStructConsistentByNameHex, e.b)

	// §13.3 MediaContent, same-schema, by id.
	mc := createMediaContent()
	mediaFields := func(e *enc) {
		m := mc.Media
		e.bool(m.HasBitrate) // fixed group
		e.zz64(m.Duration)   // varint group: 8-byte kinds first, then by tag id
		e.zz64(m.Size)
		e.zz32(m.Width)
		e.zz32(m.Height)
		e.zz32(m.Bitrate)
		e.str(m.URI) // other group, by tag id
		e.str(m.Title)
		e.str(m.Format)
		e.varu(uint64(len(m.Persons)))
		e.bytes(0x0c)
		for _, p := range m.Persons {
			e.str(p)
		}
		e.varu(uint64(m.Player))
		e.str(m.Copyright)
	}
	imageFields := func(e *enc, im benchid.Image) {
		e.zz32(im.Width)
		e.zz32(im.Height)
		e.str(im.URI)
		e.str(im.Title)
		e.varu(uint64(im.Size))
	}
	e = enc{}
	e.bytes(0x01, 0xff, 0x1b, 0x05)
	e.i32(mcHash)
	e.i32(mediaHash)
	mediaFields(&e)
	e.varu(uint64(len(mc.Images)))
	e.bytes(0x08, 0x1b, 0x04)
	for _, im := range mc.Images {
		e.i32(imageHash)
		imageFields(&e, im)
	}
	requireVector(t, "MediaContent consistent by id", mediaContentConsistentByIDHex, e.b)

	// §13.2 NumericStruct, compatible, by id and by name.
	e = enc{}
	e.bytes(0x01, 0xff, 0x1c, 0x00)
	e.typeDef(append([]byte{0x80 | 0x40 | 12, 0x01}, nsFieldDefs...))
	nsFields(&e)
	requireVector(t, "NumericStruct compatible by id", numericStructCompatibleByIDHex, e.b)

	e = enc{}
	e.bytes(0x01, 0xff, 0x1e, 0x00)
	var body enc
	body.bytes(0x80 | 0x40 | 0x20 | 12)
	body.typeDefName("bench", 1)         // flag 1 = ATLS (namespace numbering)
	body.typeDefName("NumericStruct", 1) // flag 1 = ATLS (type-name numbering)
	body.bytes(nsFieldDefs...)
	e.typeDef(body.b)
	nsFields(&e)
	requireVector(t, "NumericStruct compatible by name", numericStructCompatibleByNameHex, e.b)

	// §13.4 MediaContent, compatible, by id.
	e = enc{}
	e.bytes(0x01, 0xff, 0x1c, 0x00)
	e.typeDef([]byte{0xc2, 0x05, 0xc4, 28, 0xc8, 22, 28<<2 | 2})
	e.bytes(0x1c, 0x02)
	e.typeDef([]byte{0xcc, 0x03,
		0xe4, 1, 0xd8, 7, 0xdc, 7, 0xcc, 5, 0xd0, 5, 0xe0, 5, // has_bitrate#9 .. bitrate#8
		0xc4, 21, 0xc8, 21, 0xd4, 21, 0xe8, 22, 21<<2 | 2, 0xec, 25, 0xf0, 21}) // u_r_i#1 .. copyright#12
	mediaFields(&e)
	e.varu(uint64(len(mc.Images)))
	e.bytes(0x08, 0x1c, 0x04)
	e.typeDef([]byte{0xc5, 0x04, 0xcc, 5, 0xd0, 5, 0xc4, 21, 0xc8, 21, 0xd4, 25})
	for _, im := range mc.Images {
		imageFields(&e, im)
	}
	requireVector(t, "MediaContent compatible by id", mediaContentCompatibleByIDHex, e.b)
}

func requireVector(t *testing.T, name, literal string, built []byte) {
	t.Helper()
	want := mustHex(t, literal)
	if !bytes.Equal(built, want) {
		t.Fatalf("%s: the literal differs from the bytes rebuilt from docs/format.md:\n%s", name, hexDiff(want, built))
	}
}

// enc is a minimal Fory xlang encoder for the vectors above (docs/format.md §3, §6, §7, §11).
type enc struct{ b []byte }

func (e *enc) bytes(b ...byte) { e.b = append(e.b, b...) }

func (e *enc) raw(b []byte) { e.b = append(e.b, b...) }

func (e *enc) bool(v bool) {
	if v {
		e.bytes(1)
	} else {
		e.bytes(0)
	}
}

func (e *enc) i32(v int32) { e.b = binary.LittleEndian.AppendUint32(e.b, uint32(v)) }

// varu is LEB128 (varu32/varu64); the vectors only need values below 2^56,
// where Fory's 9-byte varu64 form does not differ.
func (e *enc) varu(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *enc) zz32(v int32) { e.varu(uint64(uint32(v<<1) ^ uint32(v>>31))) }

func (e *enc) zz64(v int64) { e.varu(uint64(v<<1) ^ uint64(v>>63)) }

// str writes a string as Go does: header (byte_len << 2) | 2 (UTF-8), bytes.
func (e *enc) str(s string) {
	e.varu(uint64(len(s))<<2 | 2)
	e.b = append(e.b, s...)
}

// typeDefName writes a TypeDef namespace or type name (§6.4) packed as
// ALL_TO_LOWER_SPECIAL; the names here are shorter than 63 bytes.
func (e *enc) typeDefName(s string, flag byte) {
	b := allToLowerSpecial(s)
	e.bytes(byte(len(b))<<2 | flag)
	e.raw(b)
}

// inlineMetaString writes a same-schema meta string (§6.3): varu32(len<<1),
// encoding 4 (ALL_TO_LOWER_SPECIAL), the packed bytes (here always <= 16 bytes).
func (e *enc) inlineMetaString(s string) {
	b := allToLowerSpecial(s)
	e.varu(uint64(len(b)) << 1)
	e.bytes(4)
	e.raw(b)
}

// typeDef writes an 8-byte TypeDef header (§11.1) and the body.
func (e *enc) typeDef(body []byte) {
	low12 := uint64(min(len(body), 255))
	h1 := murmur3H1(append(append([]byte{}, body...), byte(low12), byte(low12>>8)), 47)
	h := int64(h1 << 12)
	if h < 0 {
		h = -h
	}
	e.b = binary.LittleEndian.AppendUint64(e.b, uint64(h)&0xFFFF_FFFF_FFFF_F000|low12)
	if len(body) >= 255 {
		e.varu(uint64(len(body) - 255))
	}
	e.raw(body)
}

// allToLowerSpecial packs s as ALL_TO_LOWER_SPECIAL (§6.1): every capital X
// becomes "|x", then 5-bit codes MSB first after a strip-last-char flag bit.
func allToLowerSpecial(s string) []byte {
	var codes []byte
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			codes = append(codes, 29, byte(r-'A'))
		case r >= 'a' && r <= 'z':
			codes = append(codes, byte(r-'a'))
		default:
			codes = append(codes, byte(strings.IndexRune("._$|", r)+26))
		}
	}
	n := len(codes) * 5
	out := make([]byte, (n+1+7)/8)
	if n+1+5 <= 8*len(out) {
		out[0] |= 0x80 // room for one more char: the decoder must drop it
	}
	bit := 1
	for _, c := range codes {
		for k := 4; k >= 0; k-- {
			if c>>k&1 == 1 {
				out[bit/8] |= 0x80 >> (bit % 8)
			}
			bit++
		}
	}
	return out
}

// schemaHash is the same-schema struct hash (§10): low 32 bits of
// MurmurHash3_x64_128(fingerprint, seed 47) lane 0.
func schemaHash(fingerprint string) int32 {
	return int32(uint32(murmur3H1([]byte(fingerprint), 47)))
}

// murmur3H1 is the first 64-bit lane of MurmurHash3_x64_128.
func murmur3H1(data []byte, seed uint64) uint64 {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h1, h2 := seed, seed
	n := len(data)
	for ; len(data) >= 16; data = data[16:] {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	var k1, k2 uint64
	for i := len(data) - 1; i >= 8; i-- {
		k2 = k2<<8 | uint64(data[i])
	}
	if len(data) > 8 {
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
	}
	for i := min(len(data), 8) - 1; i >= 0; i-- {
		k1 = k1<<8 | uint64(data[i])
	}
	if len(data) > 0 {
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	return h1 + h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
