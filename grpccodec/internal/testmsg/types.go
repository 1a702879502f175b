// Package testmsg holds the Fory cross-language benchmark types (NumericStruct,
// Sample, MediaContent with Media, Image, Player and Size) that the codec's
// loopback tests and benchmarks exchange. The declarations and directives are
// those of internal/conformance/benchid (ids 1..7, as Fory's benchmark_test.go
// registers them), so the bytes on the wire are the golden fixtures' bytes.
// The package is test support and lives in its own folder so that grpccodec
// does not depend on the benchmarks module; forygen writes types_fory.go.
package testmsg

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=1
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

//fory:generate id=2
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

//fory:generate id=5
type MediaContent struct {
	Media  Media   `fory:"id=1"`
	Images []Image `fory:"id=2"`
}

//fory:generate id=3
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

//fory:enum id=6
type Player int32

const (
	PlayerJava  Player = 0
	PlayerFlash Player = 1
)

//fory:generate id=4
type Image struct {
	URI    string `fory:"id=1"`
	Title  string `fory:"id=2"`
	Width  int32  `fory:"id=3"`
	Height int32  `fory:"id=4"`
	Size   Size   `fory:"id=5"`
}

//fory:enum id=7
type Size int32

const (
	SizeSmall Size = 0
	SizeLarge Size = 1
)

// Album shares its images between fields and a list: with reference
// tracking (serializer.WithTrackRef) each is written once.
//
//fory:generate id=11
type Album struct {
	Cover  *Image   `fory:"id=1"`
	Thumb  *Image   `fory:"id=2"`
	Images []*Image `fory:"id=3"`
}
