package load

import (
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
		{"id=15,type=array(element=int32)", model.Tag{ID: 15, Hint: &model.Hint{Name: "array", Element: "int32", Original: "array(element=int32)"}}, false},
		{"type=map(key=string,value=int32)", model.Tag{ID: -1, Hint: &model.Hint{Name: "map", Key: "string", Value: "int32", Original: "map(key=string,value=int32)"}}, false},
		{"type=bytes", model.Tag{ID: -1, Hint: &model.Hint{Name: "bytes", Original: "bytes"}}, false},
		{"type=list(element=_(ref=false))", model.Tag{ID: -1, Hint: &model.Hint{Name: "list", ElemRef: new(bool), Original: "list(element=_(ref=false))"}}, false},
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
	for _, bad := range []string{"id=-1", "id=x", "nullable=maybe", "encoding=zigzag", "colour=red", "type=array(element=int32", "type=(x)", "encoding=fixed,type=bytes", "type=list(nullable=true)", "type=list(element=_(nullable=true))", "type=array(element=_(ref=true))", "type=list(element=_(ref=maybe))",
		"id=1,id=2", "nullable,nullable=false", "ref,ref", "ignore,ignore", "type=map(key=string,key=int32)",
		"id=536870912", "id=9223372036854775807", "id=-5", "ignore,colour=red"} {
		_, _, err := ParseTag(bad)
		assert.Error(t, err, bad)
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
