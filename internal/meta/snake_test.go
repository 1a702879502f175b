package meta

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		// docs/format.md §6.2 / fixture name_rules: acronyms split letter by letter.
		"URI":      "u_r_i",
		"HTTPCode": "h_t_t_p_code",
		"UserID":   "user_i_d",
		"X2Y":      "x2_y",
		"I64Arr":   "i64_arr",
		// Simple names.
		"Name":                                   "name",
		"HasBitrate":                             "has_bitrate",
		"F1":                                     "f1",
		"FieldNumber01":                          "field_number01",
		"AnotherQuiteLongFieldNameWithoutAnyTag": "another_quite_long_field_name_without_any_tag",
		// Official Go's own test cases.
		"aBcdEfgHij": "a_bcd_efg_hij",
		"ABcdEfgHij": "a_bcd_efg_hij",
		"ABCDEfgHij": "a_b_c_d_efg_hij",
		"toSnake":    "to_snake",
		"to_snake":   "to_snake",
		"AbcAbcAbc":  "abc_abc_abc",
		// Edges: no leading '_' is added, but existing ones are kept and a
		// capital after one still gets its own; non-ASCII is untouched.
		"":        "",
		"x":       "x",
		"X":       "x",
		"_Foo":    "__foo",
		"A_B":     "a__b",
		"ÄpfelZ":  "Äpfel_z",
		"already": "already",
	} {
		assert.Equal(t, want, SnakeCase(in), "SnakeCase(%q)", in)
	}
}
