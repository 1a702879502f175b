package serializer_test

import (
	"fmt"

	"github.com/forygen/forygen/serializer"
)

// A non-struct root: the bytes are official Fory Go's for f.Serialize(m).
func ExampleMarshalValue() {
	f := serializer.New()
	data, err := serializer.MarshalValue(f, map[string]int64{"answer": 42})
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", data)

	var m map[string]int64
	if err := serializer.UnmarshalValue(f, data, &m); err != nil {
		panic(err)
	}
	fmt.Println(m)

	ints, _ := serializer.MarshalValue(f, []int32{1, -1})
	fmt.Printf("% x\n", ints)
	// Output:
	// 01 ff 18 01 00 01 15 07 1a 61 6e 73 77 65 72 54
	// map[answer:42]
	// 01 ff 2e 08 01 00 00 00 ff ff ff ff
}
