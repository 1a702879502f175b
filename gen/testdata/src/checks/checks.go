// Package checks holds declarations the generator's checks reject (issue 12):
// repeated registrations, json:"-" without a fory tag, directives on
// aliases, unknown or misspelt directives, repeated tag keys, type=bytes on
// a field that is not []byte, and field ids out of range.
package checks

//fory:generate id=1
type A struct {
	Private string  `json:"-"`
	Hidden  string  `json:"-" fory:"-"`
	Kept    string  `json:"-" fory:"id=3"`
	Named   string  `json:"-,"`
	Twice   int32   `fory:"id=1,id=2"`
	Null2   *int32  `fory:"nullable,nullable"`
	Str     string  `fory:"type=bytes"`
	PStr    *string `fory:"type=bytes"`
	Ints    []int32 `fory:"type=bytes"`
	Raw     []byte  `fory:"type=bytes"`
	Arr     string  `fory:"type=array(element=int32)"`
	Big     int32   `fory:"id=536870912"`
	Neg     int32   `fory:"id=-1"`
	Max     int32   `fory:"id=536870911"`
}

//fory:generate id=1
type B struct{}

//fory:enum id=1
type E int32

//fory:generate name=ns.N
type N1 struct{}

//fory:enum name=ns.N
type N2 int32

//fory:generate id=5
type Alias = A

//fory:enum id=6
type EnumAlias = E

//fory:generat id=7
type Typo struct{}

//fory:foo
type Foo struct{}

// fory:generate id=8
type Spaced struct{}

//fory:generate id=9

type Detached struct{}
