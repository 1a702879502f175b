package meta

// SnakeCase converts a Go field name into the identifier official Fory Go
// uses for hashing, ordering and TypeDef names (docs/format.md §6.2): every ASCII
// capital becomes '_' plus its lower-case letter, except that no '_' is added
// at the very start; every other byte is kept. Acronyms are therefore split
// letter by letter (URI → u_r_i, HTTPCode → h_t_t_p_code, UserID →
// user_i_d), which is exactly what peers must reproduce (§14 item 17).
//
// Official Go walks runes; walking bytes is identical for valid UTF-8 because
// no byte of a multi-byte sequence is an ASCII capital (Go identifiers are
// always valid UTF-8).
func SnakeCase(goName string) string {
	upper := 0
	for i := 0; i < len(goName); i++ {
		if isUpper(goName[i]) {
			upper++
		}
	}
	if upper == 0 {
		return goName
	}
	out := make([]byte, 0, len(goName)+upper)
	for i := 0; i < len(goName); i++ {
		c := goName[i]
		if isUpper(c) {
			if len(out) > 0 {
				out = append(out, '_')
			}
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
