package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen/internal/model"
)

func TestParseTag(t *testing.T) {
	tests := []struct {
		in   string
		want model.Tag
		skip bool
	}{
		{"", model.Tag{ID: -1}, false},
		{"-", model.Tag{ID: -1}, true},
		{"ignore", model.Tag{ID: -1}, true},
		{"ignore=false,id=3", model.Tag{ID: 3}, false},
		{"id=12", model.Tag{ID: 12}, false},
		{"id=1, nullable", model.Tag{ID: 1, Nullable: true, NullableSet: true}, false},
		{"nullable=false", model.Tag{ID: -1, NullableSet: true}, false},
		{"ref", model.Tag{ID: -1, Ref: true, RefSet: true}, false},
		{"ref=false", model.Tag{ID: -1, RefSet: true}, false},
		{"encoding=tagged", model.Tag{ID: -1, Encoding: "tagged"}, false},
		{"id=15,type=array(element=int32)", model.Tag{ID: 15, Hint: &model.Hint{Name: "array", Element: leaf("int32"), Original: "array(element=int32)"}}, false},
		{"type=map(key=string,value=int32)", model.Tag{ID: -1, Hint: &model.Hint{Name: "map", Key: leaf("string"), Value: leaf("int32"), Original: "map(key=string,value=int32)"}}, false},
		{"type=bytes", model.Tag{ID: -1, Hint: leaf("bytes")}, false},
		{"type=list(element=_(ref=false))", model.Tag{ID: -1, Hint: &model.Hint{Name: "list", Element: &model.Hint{Name: "_", Ref: &no, Original: "_(ref=false)"}, Original: "list(element=_(ref=false))"}}, false},
		// Official Go's normalisations: booleans yes/no/1/0 in any case,
		// encodings in any case.
		{"encoding=FIXED", model.Tag{ID: -1, Encoding: "fixed"}, false},
		{"nullable=yes", model.Tag{ID: -1, Nullable: true, NullableSet: true}, false},
		{"nullable=NO,ref=1", model.Tag{ID: -1, NullableSet: true, Ref: true, RefSet: true}, false},
		{"nullable,encoding=fixed", model.Tag{ID: -1, Nullable: true, NullableSet: true, Encoding: "fixed"}, false},
		{"nullable=false,ref", model.Tag{ID: -1, NullableSet: true, Ref: true, RefSet: true}, false},
		{"id=1,nullable=false", model.Tag{ID: 1, NullableSet: true}, false},
		{"type=_", model.Tag{ID: -1, Hint: leaf("_")}, false},
		{"type=int32()", model.Tag{ID: -1, Hint: leaf("int32()")}, false},
		{"id=536870911", model.Tag{ID: 536870911}, false},
		{"-,nullable", model.Tag{ID: -1}, true},
		{"ignore,encoding=fixed,type=bytes", model.Tag{ID: -1}, true},
	}
	for _, tt := range tests {
		got, skip, err := ParseTag(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.skip, skip, tt.in)
		if !skip {
			assert.Equal(t, tt.want, got, tt.in)
		}
	}
	for _, bad := range []string{"id=-1", "id=x", "nullable=maybe", "nullable=t", "encoding=zigzag", "colour=red", "type=array(element=int32", "type=(x)", "encoding=fixed,type=bytes", "type=list(element=_(ref=maybe))",
		"type=list(element=int32(encoding=zigzag))", "type=list(element=vector)", "type=List(element=int32)", "type=list(element=int32)x", "type=list(elem=int32)",
		"type=list(element=int32,element=int64)", "type=list(element)", "type=list(element=int32 int64)", "type=map(key=,value=int32)", "type=int32(nullable=maybe)",
		"id=1,id=2", "nullable,nullable=false", "ref,ref", "ignore,ignore", "type=map(key=string,key=int32)",
		"id=536870912", "id=9223372036854775807", "id=-5", "ignore,colour=red"} {
		_, _, err := ParseTag(bad)
		assert.Error(t, err, bad)
	}
}

var no = false

// leaf is a hint node without arguments (or with empty parentheses).
func leaf(text string) *model.Hint {
	name, _, _ := strings.Cut(text, "(")
	return &model.Hint{Name: name, Original: text}
}

func bools(b bool) *bool { return &b }

// Nested hints in official Go's grammar: every node may carry nullable=,
// ref= and encoding=, and element=, key= and value= nest to any depth.
func TestParseNestedHints(t *testing.T) {
	yes := true
	fixedInt32 := func(nullable *bool, text string) *model.Hint {
		return &model.Hint{Name: "int32", Nullable: nullable, Encoding: "fixed", Original: text}
	}
	tests := []struct {
		in   string
		want *model.Hint
	}{
		{"list(element=int32(encoding=fixed))", &model.Hint{Name: "list", Element: fixedInt32(nil, "int32(encoding=fixed)"), Original: "list(element=int32(encoding=fixed))"}},
		{"list(element=int32(nullable=true,encoding=fixed))", &model.Hint{Name: "list", Element: fixedInt32(&yes, "int32(nullable=true,encoding=fixed)"), Original: "list(element=int32(nullable=true,encoding=fixed))"}},
		{"list(element=list(element=int32(nullable=false,encoding=fixed)))", &model.Hint{Name: "list",
			Element:  &model.Hint{Name: "list", Element: fixedInt32(&no, "int32(nullable=false,encoding=fixed)"), Original: "list(element=int32(nullable=false,encoding=fixed))"},
			Original: "list(element=list(element=int32(nullable=false,encoding=fixed)))"}},
		{"list(element=array(element=int32))", &model.Hint{Name: "list", Element: &model.Hint{Name: "array", Element: leaf("int32"), Original: "array(element=int32)"}, Original: "list(element=array(element=int32))"}},
		{"map(key=_(nullable=false))", &model.Hint{Name: "map", Key: &model.Hint{Name: "_", Nullable: &no, Original: "_(nullable=false)"}, Original: "map(key=_(nullable=false))"}},
		{"map(value=int32(encoding=FIXED))", &model.Hint{Name: "map", Value: fixedInt32(nil, "int32(encoding=FIXED)"), Original: "map(value=int32(encoding=FIXED))"}},
		{"map(key=uint32(encoding=fixed),value=list(element=uint64(encoding=tagged)))", &model.Hint{Name: "map",
			Key:      &model.Hint{Name: "uint32", Encoding: "fixed", Original: "uint32(encoding=fixed)"},
			Value:    &model.Hint{Name: "list", Element: &model.Hint{Name: "uint64", Encoding: "tagged", Original: "uint64(encoding=tagged)"}, Original: "list(element=uint64(encoding=tagged))"},
			Original: "map(key=uint32(encoding=fixed),value=list(element=uint64(encoding=tagged)))"}},
		{"map(value=list(element=int32(encoding=fixed)))", &model.Hint{Name: "map",
			Value:    &model.Hint{Name: "list", Element: fixedInt32(nil, "int32(encoding=fixed)"), Original: "list(element=int32(encoding=fixed))"},
			Original: "map(value=list(element=int32(encoding=fixed)))"}},
		{"map(value=array(element=int32))", &model.Hint{Name: "map", Value: &model.Hint{Name: "array", Element: leaf("int32"), Original: "array(element=int32)"}, Original: "map(value=array(element=int32))"}},
		{"list(element=_(nullable=false))", &model.Hint{Name: "list", Element: &model.Hint{Name: "_", Nullable: &no, Original: "_(nullable=false)"}, Original: "list(element=_(nullable=false))"}},
		{"array(element=int32)", &model.Hint{Name: "array", Element: leaf("int32"), Original: "array(element=int32)"}},
		{"set(element=_(ref=false))", &model.Hint{Name: "set", Element: &model.Hint{Name: "_", Ref: &no, Original: "_(ref=false)"}, Original: "set(element=_(ref=false))"}},
		{"map(key=array(element=int32))", &model.Hint{Name: "map", Key: &model.Hint{Name: "array", Element: leaf("int32"), Original: "array(element=int32)"}, Original: "map(key=array(element=int32))"}},
		{" list ( element = _ ( nullable = Yes , ref = 0 ) ) ", &model.Hint{Name: "list", Element: &model.Hint{Name: "_", Nullable: bools(true), Ref: &no, Original: "_ ( nullable = Yes , ref = 0 )"}, Original: "list ( element = _ ( nullable = Yes , ref = 0 ) )"}},
	}
	for _, tt := range tests {
		got, skip, err := ParseTag("id=3,type=" + tt.in)
		require.NoError(t, err, tt.in)
		require.False(t, skip)
		assert.Equal(t, model.Tag{ID: 3, Hint: tt.want}, got, tt.in)
	}
}

func TestParseDirective(t *testing.T) {
	tests := []struct {
		in   string
		want model.Registration
	}{
		{"id=7", model.Registration{ID: 7}},
		{"name=bench.NumericStruct", model.Registration{ByName: true, Namespace: "bench", Name: "NumericStruct"}},
		{"name=org.apache.fory.Type", model.Registration{ByName: true, Namespace: "org.apache.fory", Name: "Type"}},
		{"name=Plain", model.Registration{ByName: true, Name: "Plain"}},
	}
	for _, tt := range tests {
		got, err := ParseDirective(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	for _, bad := range []string{"", "id=", "id=-3", "id=4294967296", "name=", "name=ns.", "id=1 name=x", "kind=struct"} {
		_, err := ParseDirective(bad)
		assert.Error(t, err, bad)
	}
}
