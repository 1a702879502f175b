// Package benchname holds the Fory cross-language benchmark types registered by name in
// namespace "bench" (type name = Go type name).
//
// Conformance cases (xlang-fixtures/manifest.json): numeric_struct_name, sample_name,
// media_content_name, numeric_struct_list_name, sample_list_name, media_content_list_name.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package benchname

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate name=bench.NumericStruct
type NumericStruct struct {
	F1  int32 `fory:"id=1"`
	F2  int32 `fory:"id=2"`
	F3  int32 `fory:"id=3"`
	F4  int32 `fory:"id=4"`
	F5  int32 `fory:"id=5"`
	F6  int32 `fory:"id=6"`
	F7  int32 `fory:"id=7"`
	F8  int32 `fory:"id=8"`
	F9  int32 `fory:"id=9"`
	F10 int32 `fory:"id=10"`
	F11 int32 `fory:"id=11"`
	F12 int32 `fory:"id=12"`
}

//fory:generate name=bench.Sample
type Sample struct {
	IntValue          int32     `fory:"id=1"`
	LongValue         int64     `fory:"id=2"`
	FloatValue        float32   `fory:"id=3"`
	DoubleValue       float64   `fory:"id=4"`
	ShortValue        int32     `fory:"id=5"`
	CharValue         int32     `fory:"id=6"`
	BooleanValue      bool      `fory:"id=7"`
	IntValueBoxed     int32     `fory:"id=8"`
	LongValueBoxed    int64     `fory:"id=9"`
	FloatValueBoxed   float32   `fory:"id=10"`
	DoubleValueBoxed  float64   `fory:"id=11"`
	ShortValueBoxed   int32     `fory:"id=12"`
	CharValueBoxed    int32     `fory:"id=13"`
	BooleanValueBoxed bool      `fory:"id=14"`
	IntArray          []int32   `fory:"id=15,type=array(element=int32)"`
	LongArray         []int64   `fory:"id=16,type=array(element=int64)"`
	FloatArray        []float32 `fory:"id=17,type=array(element=float32)"`
	DoubleArray       []float64 `fory:"id=18,type=array(element=float64)"`
	ShortArray        []int32   `fory:"id=19,type=array(element=int32)"`
	CharArray         []int32   `fory:"id=20,type=array(element=int32)"`
	BooleanArray      []bool    `fory:"id=21,type=array(element=bool)"`
	String            string    `fory:"id=22"`
}

//fory:generate name=bench.MediaContent
type MediaContent struct {
	Media  Media   `fory:"id=1"`
	Images []Image `fory:"id=2"`
}

//fory:generate name=bench.Media
type Media struct {
	URI        string   `fory:"id=1"`
	Title      string   `fory:"id=2"`
	Width      int32    `fory:"id=3"`
	Height     int32    `fory:"id=4"`
	Format     string   `fory:"id=5"`
	Duration   int64    `fory:"id=6"`
	Size       int64    `fory:"id=7"`
	Bitrate    int32    `fory:"id=8"`
	HasBitrate bool     `fory:"id=9"`
	Persons    []string `fory:"id=10"`
	Player     Player   `fory:"id=11"`
	Copyright  string   `fory:"id=12"`
}

//fory:enum name=bench.Player
type Player int32

const (
	PlayerJava  Player = 0
	PlayerFlash Player = 1
)

//fory:generate name=bench.Image
type Image struct {
	URI    string `fory:"id=1"`
	Title  string `fory:"id=2"`
	Width  int32  `fory:"id=3"`
	Height int32  `fory:"id=4"`
	Size   Size   `fory:"id=5"`
}

//fory:enum name=bench.Size
type Size int32

const (
	SizeSmall Size = 0
	SizeLarge Size = 1
)

//fory:generate name=bench.NumericStructList
type NumericStructList struct {
	NumericStructs []NumericStruct `fory:"id=1"`
}

//fory:generate name=bench.SampleList
type SampleList struct {
	SampleList []Sample `fory:"id=1"`
}

//fory:generate name=bench.MediaContentList
type MediaContentList struct {
	MediaContentList []MediaContent `fory:"id=1"`
}
