package meta

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMurmur3KnownVectors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		seed   uint64
		h1, h2 uint64
	}{
		{"", 0, 0, 0},
		// Published MurmurHash3_x64_128 digests (e.g. Python mmh3.hash64 and
		// the canonical "quick brown fox" digest 6c1b07bc7bbc4be347939ac4a93c437a).
		{"hello", 0, 0xcbd8a7b341bd9b02, 0x5b1e906a48ae1d19},
		{"The quick brown fox jumps over the lazy dog", 0, 0xe34bbc7bbc071b6c, 0x7a433ca9c49a9347},
	} {
		h1, h2 := Murmur3x64_128([]byte(tc.in), tc.seed)
		assert.Equal(t, tc.h1, h1, "h1(%q)", tc.in)
		assert.Equal(t, tc.h2, h2, "h2(%q)", tc.in)
	}
}

// TestMurmur3SMHasherVerification runs SMHasher's VerificationTest: hash the
// keys {}, {0}, {0,1}, ..., {0..254} with seeds 256, 255, ..., 1, hash the
// concatenated 16-byte digests with seed 0, and compare the first 4 bytes with
// the value SMHasher publishes for MurmurHash3_x64_128. It exercises every
// tail length and the block loop.
func TestMurmur3SMHasherVerification(t *testing.T) {
	key := make([]byte, 256)
	digests := make([]byte, 0, 256*16)
	for i := 0; i < 256; i++ {
		key[i] = byte(i)
		h1, h2 := Murmur3x64_128(key[:i], uint64(256-i))
		digests = binary.LittleEndian.AppendUint64(digests, h1)
		digests = binary.LittleEndian.AppendUint64(digests, h2)
	}
	h1, _ := Murmur3x64_128(digests, 0)
	assert.Equal(t, uint32(0x6384BA69), uint32(h1))
}

// murmur3WithSuffix2 must equal hashing the real concatenation for every body
// length around the block boundaries.
func TestMurmur3WithSuffix2(t *testing.T) {
	for n := 0; n <= 70; n++ {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(i*37 + 11)
		}
		cat := append(append([]byte{}, body...), 0xab, 0x0c)
		w1, w2 := Murmur3x64_128(cat, hashSeed)
		g1, g2 := murmur3WithSuffix2(body, 0xab, 0x0c)
		require.Equal(t, w1, g1, "len %d", n)
		require.Equal(t, w2, g2, "len %d", n)
	}
}

// Every fingerprint → hash pair below is copied from the fixture manifest
// (official Go's outputs); the first nine are the structs of docs/format.md §10.2.
var schemaHashVectors = []struct {
	fingerprint string
	hash        int32
}{
	{"1,5,0,0;2,5,0,0;3,5,0,0;4,5,0,0;5,5,0,0;6,5,0,0;7,5,0,0;8,5,0,0;9,5,0,0;10,5,0,0;11,5,0,0;12,5,0,0;", -373483677},                                                                                                      // NumericStruct
	{"1,5,0,0;2,7,0,0;3,19,0,0;4,20,0,0;5,5,0,0;6,5,0,0;7,1,0,0;8,5,0,0;9,7,0,0;10,19,0,0;11,20,0,0;12,5,0,0;13,5,0,0;14,1,0,0;15,46,0,0;16,47,0,0;17,55,0,0;18,56,0,0;19,46,0,0;20,46,0,0;21,43,0,0;22,21,0,0;", 552725182}, // Sample
	{"1,21,0,0;2,21,0,0;3,5,0,0;4,5,0,0;5,21,0,0;6,7,0,0;7,7,0,0;8,5,0,0;9,1,0,0;10,22,0,0[21,0,0];11,0,0,0;12,21,0,0;", -604294006},                                                                                         // Media
	{"1,21,0,0;2,21,0,0;3,5,0,0;4,5,0,0;5,0,0,0;", 1960516840},                       // Image
	{"1,0,0,0;2,22,0,0[0,0,0];", 192112701},                                          // MediaContent
	{"1,22,0,0[0,0,0];", 925871694},                                                  // the three *List types
	{"i32_to_str,24,0,0[5,0,0|21,0,0];str_to_i32,24,0,0[21,0,0|5,0,0];", 1881998207}, // Maps
	{"ints,22,0,1[5,0,0];map,24,0,1[21,0,0|5,0,0];strs,22,0,1[21,0,0];", -956444084}, // NullableContainers
	{"p_b,1,0,0;p_f64,20,0,0;p_i32,5,0,0;p_i64,7,0,0;p_s,21,0,0;", -128040816},       // Ptrs
	{"b,1,0,0;f32,19,0,0;f64,20,0,0;i,7,0,0;i16,3,0,0;i32,5,0,0;i64,7,0,0;i8,2,0,0;u16,10,0,0;u32,12,0,0;u64,14,0,0;u8,9,0,0;", -299331752},
	{"a_s_c_i_i,21,0,0;c_j_k,21,0,0;emoji,21,0,0;empty,21,0,0;latin1,21,0,0;", 1904676594},
	{"i32s,22,0,0[5,0,0];i64_arr,47,0,0;i64s,22,0,0[7,0,0];strs,22,0,0[21,0,0];", -1958479619},
	{"inner,0,0,0;x,5,0,0;", -1420372558},
	{"s,21,0,0;v,5,0,0;", 270494220},
	{"c,0,0,0;colors,22,0,0[0,0,0];p_c,0,0,0;", -1905787043},
	{"i_d,5,0,0;mid,0,0,0;", -1488160190},
	{"deep,0,0,0;deep_p,0,0,0;name,21,0,0;", -337581895},
	{"tags,22,0,0[21,0,0];value,7,0,0;", 74480476},
	{"d,37,0,0;dt,39,0,0;t,38,0,0;", -1508952944},
	{"fixed_i32,4,0,0;fixed_i64,6,0,0;fixed_u32,11,0,0;fixed_u64,13,0,0;tagged_i64,8,0,0;tagged_u64,15,0,0;uint,14,0,0;var_i64,7,0,0;var_u32,12,0,0;", -2042259195},
	{"bin,41,0,0;bool_a,43,0,0;bools,22,0,0[1,0,0];plain,22,0,0[9,0,0];u8_arr,48,0,0;", 1625798738},
	{"pointers,22,0,0[0,0,0];values,22,0,0[0,0,0];", 732929628},
	{"h_t_t_p_code,5,0,0;u_r_i,21,0,0;user_i_d,7,0,0;x2_y,5,0,0;", -501123143},
	{"big,14,0,0;child,0,0,0;code,5,0,0;count,7,0,0;flag,1,0,0;items,22,0,0[21,0,0];kind,0,0,0;lookup,24,0,0[21,0,0|5,0,0];name,21,0,0;opt,5,0,0;opt_flag,1,0,0;ratio,19,0,0;small,3,0,0;stamp,38,0,0;", 859706216},
	{"street,21,0,0;zip,5,0,0;", 2079610740},
	{"age,5,0,0;name,21,0,0;", -1021436278},
	{"40,21,0,0;another_quite_long_field_name_without_any_tag,21,0,0;field_number01,5,0,0;field_number02,5,0,0;field_number03,5,0,0;field_number04,5,0,0;field_number05,5,0,0;field_number06,5,0,0;field_number07,5,0,0;field_number08,5,0,0;field_number09,5,0,0;field_number10,5,0,0;field_number11,5,0,0;field_number12,5,0,0;field_number13,5,0,0;field_number14,5,0,0;field_number15,5,0,0;field_number16,5,0,0;field_number17,5,0,0;field_number18,5,0,0;field_number19,5,0,0;field_number20,5,0,0;field_number21,5,0,0;field_number22,5,0,0;field_number23,5,0,0;field_number24,5,0,0;field_number25,5,0,0;field_number26,5,0,0;field_number27,5,0,0;field_number28,5,0,0;field_number29,5,0,0;field_number30,5,0,0;field_number31,5,0,0;field_number32,5,0,0;", 985436612},
}

func TestSchemaHash(t *testing.T) {
	for _, v := range schemaHashVectors {
		assert.Equal(t, v.hash, SchemaHash(v.fingerprint), v.fingerprint)
	}
	// §10.2 also gives the little-endian bytes of two of them.
	var le [4]byte
	binary.LittleEndian.PutUint32(le[:], uint32(SchemaHash(schemaHashVectors[0].fingerprint)))
	assert.Equal(t, [4]byte{0x63, 0x17, 0xbd, 0xe9}, le)
	binary.LittleEndian.PutUint32(le[:], uint32(SchemaHash(schemaHashVectors[4].fingerprint)))
	assert.Equal(t, [4]byte{0x3d, 0x68, 0x73, 0x0b}, le)
}
