package conformance_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

func comparisonName(exact bool) string {
	if exact {
		return "exact"
	}
	return "normalized: nil == empty, time.Time by Equal"
}

var timeType = reflect.TypeOf(time.Time{})

const maxDiffs = 20

// diffValues compares two pointers to values of the same type and returns the
// differences, at most maxDiffs. It is reflect.DeepEqual-strict except that
// time.Time values compare with Equal (Fory decodes timestamps in time.Local);
// lenient additionally treats nil and empty slices and maps as equal.
func diffValues(want, got any, lenient bool) []string {
	var d differ
	d.lenient = lenient
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(got)
	if wv.Type() != gv.Type() {
		return []string{fmt.Sprintf("type %s != %s", wv.Type(), gv.Type())}
	}
	d.diff("", wv, gv)
	if d.more > 0 {
		d.out = append(d.out, fmt.Sprintf("... and %d more differences", d.more))
	}
	return d.out
}

type differ struct {
	lenient bool
	out     []string
	more    int
}

func (d *differ) report(path, format string, args ...any) {
	if len(d.out) >= maxDiffs {
		d.more++
		return
	}
	if path == "" {
		path = "(root)"
	}
	d.out = append(d.out, path+": "+fmt.Sprintf(format, args...))
}

func (d *differ) diff(path string, w, g reflect.Value) {
	if w.Type() == timeType {
		if w.CanInterface() && g.CanInterface() {
			wt, gt := w.Interface().(time.Time), g.Interface().(time.Time)
			if !wt.Equal(gt) {
				d.report(path, "want %s, got %s", wt.Format(time.RFC3339Nano), gt.Format(time.RFC3339Nano))
			}
			return
		}
	}
	switch w.Kind() {
	case reflect.Pointer, reflect.Interface:
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				d.report(path, "want %s, got %s", nilness(w), nilness(g))
			}
			return
		}
		if w.Kind() == reflect.Interface && w.Elem().Type() != g.Elem().Type() {
			d.report(path, "want dynamic type %s, got %s", w.Elem().Type(), g.Elem().Type())
			return
		}
		d.diff(path, w.Elem(), g.Elem())
	case reflect.Struct:
		for i := 0; i < w.NumField(); i++ {
			d.diff(joinPath(path, w.Type().Field(i).Name), w.Field(i), g.Field(i))
		}
	case reflect.Slice:
		if w.IsNil() != g.IsNil() && !d.lenient {
			d.report(path, "want %s (len %d), got %s (len %d)", nilness(w), w.Len(), nilness(g), g.Len())
			return
		}
		fallthrough
	case reflect.Array:
		if w.Len() != g.Len() {
			d.report(path, "want len %d, got len %d", w.Len(), g.Len())
			return
		}
		for i := 0; i < w.Len(); i++ {
			d.diff(fmt.Sprintf("%s[%d]", path, i), w.Index(i), g.Index(i))
		}
	case reflect.Map:
		if w.IsNil() != g.IsNil() && !d.lenient {
			d.report(path, "want %s (len %d), got %s (len %d)", nilness(w), w.Len(), nilness(g), g.Len())
			return
		}
		keys := w.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			kp := fmt.Sprintf("%s[%v]", path, k)
			gv := g.MapIndex(k)
			if !gv.IsValid() {
				d.report(kp, "missing key")
				continue
			}
			d.diff(kp, w.MapIndex(k), gv)
		}
		for _, k := range g.MapKeys() {
			if !w.MapIndex(k).IsValid() {
				d.report(fmt.Sprintf("%s[%v]", path, k), "unexpected key")
			}
		}
	case reflect.Bool:
		if w.Bool() != g.Bool() {
			d.report(path, "want %v, got %v", w.Bool(), g.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if w.Int() != g.Int() {
			d.report(path, "want %d, got %d", w.Int(), g.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if w.Uint() != g.Uint() {
			d.report(path, "want %d, got %d", w.Uint(), g.Uint())
		}
	case reflect.Float32, reflect.Float64:
		wf, gf := w.Float(), g.Float()
		if wf != gf && !(wf != wf && gf != gf) { // NaN equals NaN here
			d.report(path, "want %v, got %v", wf, gf)
		}
	case reflect.Complex64, reflect.Complex128:
		if w.Complex() != g.Complex() {
			d.report(path, "want %v, got %v", w.Complex(), g.Complex())
		}
	case reflect.String:
		if w.String() != g.String() {
			d.report(path, "want %q, got %q", w.String(), g.String())
		}
	default: // chan, func, unsafe.Pointer: never in generated types
		if w.CanInterface() && g.CanInterface() && !reflect.DeepEqual(w.Interface(), g.Interface()) {
			d.report(path, "want %v, got %v", w.Interface(), g.Interface())
		}
	}
}

func nilness(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	return "non-nil"
}

func joinPath(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// hexDiff describes how got differs from want: lengths, the first differing
// offset and a hex window around it.
func hexDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "  want %d bytes, got %d bytes; first difference at offset %d (0x%04x)", len(want), len(got), i, i)
	switch {
	case i < len(want) && i < len(got):
		fmt.Fprintf(&sb, ": want %02x, got %02x", want[i], got[i])
	case i < len(want):
		sb.WriteString(": got ends early")
	default:
		sb.WriteString(": got has trailing bytes")
	}
	start := i/16*16 - 16
	if start < 0 {
		start = 0
	}
	for row := start; row < start+48 && (row < len(want) || row < len(got)); row += 16 {
		fmt.Fprintf(&sb, "\n  want %04x: %s", row, hexRow(want, row))
		fmt.Fprintf(&sb, "\n  got  %04x: %s", row, hexRow(got, row))
		var marks strings.Builder
		for k := row; k < row+16; k++ {
			if k < len(want) && k < len(got) && want[k] == got[k] || k >= len(want) && k >= len(got) {
				marks.WriteString("   ")
			} else {
				marks.WriteString("^^ ")
			}
		}
		if m := strings.TrimRight(marks.String(), " "); m != "" {
			fmt.Fprintf(&sb, "\n             %s", m)
		}
	}
	if len(got) <= 512 {
		fmt.Fprintf(&sb, "\n  got (hex): %x", got)
	}
	return sb.String()
}

func hexRow(b []byte, off int) string {
	var sb strings.Builder
	for k := off; k < off+16; k++ {
		if k < len(b) {
			fmt.Fprintf(&sb, "%02x ", b[k])
		} else {
			sb.WriteString("   ")
		}
	}
	return strings.TrimRight(sb.String(), " ")
}

// TestDiffValues pins down the comparison rules the fixture tests rely on.
func TestDiffValues(t *testing.T) {
	type inner struct{ V int32 }
	type value struct {
		S   []string
		M   map[string]int32
		P   *inner
		T   time.Time
		F   float32
		U   uint64
		Arr [2]int8
	}
	utc := time.Date(2023, 11, 14, 22, 13, 20, 123456789, time.UTC)
	base := func() *value {
		return &value{S: []string{}, M: map[string]int32{}, P: &inner{5}, T: utc, F: 0.5, U: 1 << 63}
	}
	check := func(name string, lenient bool, mutate func(*value), wantDiffs int) {
		t.Helper()
		got := base()
		mutate(got)
		if diffs := diffValues(base(), got, lenient); len(diffs) != wantDiffs {
			t.Errorf("%s (lenient=%v): got %d differences %q, want %d", name, lenient, len(diffs), diffs, wantDiffs)
		}
	}
	check("identical", false, func(*value) {}, 0)
	check("time in another location", false, func(v *value) { v.T = v.T.In(time.FixedZone("X", 3600)) }, 0)
	check("other instant", true, func(v *value) { v.T = v.T.Add(time.Nanosecond) }, 1)
	check("nil slice and map, exact", false, func(v *value) { v.S, v.M = nil, nil }, 2)
	check("nil slice and map, lenient", true, func(v *value) { v.S, v.M = nil, nil }, 0)
	check("nil pointer", true, func(v *value) { v.P = nil }, 1)
	check("pointee", true, func(v *value) { v.P.V = 6 }, 1)
	check("slice element", true, func(v *value) { v.S = []string{"x"} }, 1)
	check("map entry", true, func(v *value) { v.M["k"] = 1 }, 1)
	check("float", true, func(v *value) { v.F = 0.25 }, 1)
	check("uint64 top bit", true, func(v *value) { v.U = 1<<63 + 1 }, 1)
	check("array element", true, func(v *value) { v.Arr[1] = -1 }, 1)
}

func TestHexDiff(t *testing.T) {
	want := []byte{0x01, 0xff, 0x1b, 0x01, 0x63, 0x17}
	got := []byte{0x01, 0xff, 0x1b, 0x02, 0x63, 0x17, 0x00}
	d := hexDiff(want, got)
	for _, s := range []string{"want 6 bytes, got 7 bytes", "offset 3 (0x0003): want 01, got 02", "want 0000: 01 ff 1b 01 63 17", "got  0000: 01 ff 1b 02 63 17 00", "^^"} {
		if !strings.Contains(d, s) {
			t.Errorf("hexDiff output lacks %q:\n%s", s, d)
		}
	}
}
