package serializer_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/forygen/forygen/internal/example"
	"github.com/forygen/forygen/serializer"
)

// A User as declared in internal/example:
//
//	//fory:generate id=100
//	type User struct {
//		ID     int64    `fory:"id=0"`
//		Name   string   `fory:"id=1"`
//		Tags   []string `fory:"id=2"`
//		Status Status   `fory:"id=3"`
//		Pwd    string   `fory:"-"` // never serialized
//	}
//
//	//fory:enum id=101
//	type Status int32
//
// Serialize and Deserialize use official Fory Go's defaults: compatible
// mode, so the message carries the struct's TypeDef and a peer with another
// version of User can read it.
func Example() {
	in := example.User{ID: 42, Name: "Ada", Tags: []string{"admin"}, Status: example.StatusActive, Pwd: "secret"}
	data, err := serializer.Serialize(&in)
	if err != nil {
		log.Fatal(err)
	}
	var out example.User
	if err := serializer.Deserialize(data, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d bytes: % x\n", len(data), data)
	fmt.Printf("%+v\n", out)
	// Output:
	// 37 bytes: 01 ff 1c 00 0b 70 89 e9 07 7c 53 0d c4 64 c0 07 c4 15 c8 16 56 cc 19 54 0e 41 64 61 01 0c 16 61 64 6d 69 6e 01
	// {ID:42 Name:Ada Tags:[admin] Status:1 Pwd:}
}

// A Fory with options: same-schema mode writes a 4-byte schema hash instead
// of the TypeDef, and both sides must have the same types. MarshalAppend
// appends to a slice, so a loop that passes the last result's buf[:0]
// again does not allocate; Unmarshal is typed, so passing anything but a
// pointer to a generated type does not compile.
func ExampleMarshalAppend() {
	f := serializer.New(serializer.WithCompatible(false))
	buf := make([]byte, 0, 256)
	in := example.User{ID: 7, Name: "Grace"}
	buf, err := serializer.MarshalAppend(f, buf[:0], &in)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", buf)
	var out example.User
	if err := serializer.Unmarshal(f, buf, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", out)
	// Output:
	// 01 ff 1b 64 d9 cf a1 76 0e 16 47 72 61 63 65 00 00
	// {ID:7 Name:Grace Tags:[] Status:0 Pwd:}
}

// Decoding errors say what went wrong and where, and wrap one sentinel.
func ExampleDecodeError() {
	data, _ := serializer.Serialize(&example.User{ID: 1, Name: "Ada"})
	var u example.User
	err := serializer.Deserialize(data[:len(data)-3], &u)
	var de *serializer.DecodeError
	if errors.As(err, &de) {
		fmt.Println("type:", de.Type, "field:", de.Path, "offset:", de.Offset)
	}
	fmt.Println(errors.Is(err, serializer.ErrMalformed))
	fmt.Println(err)
	// Output:
	// type: example.User field: Name offset: 25
	// true
	// serializer: decoding example.User.Name at offset 25: string of 3 bytes exceeds the 2 remaining bytes (malformed input)
}

// The wire holds an instant, not a time zone. By default decoded times are in
// time.Local, as official Fory Go; WithTimeLocation(time.UTC) decodes them
// in UTC.
func ExampleWithTimeLocation() {
	f := serializer.New(serializer.WithTimeLocation(time.UTC))
	in := example.Event{At: time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)}
	data, err := f.Serialize(&in)
	if err != nil {
		log.Fatal(err)
	}
	var out example.Event
	if err := f.Deserialize(data, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.At, out.At.Equal(in.At))
	// Output:
	// 2026-12-01 09:30:00 +0000 UTC true
}

// An Encoder writes messages back to back; a Decoder reads them one at a
// time, as official Fory Go's InputStream does, and returns io.EOF at the
// end.
func ExampleDecoder() {
	f := serializer.New()
	var stream bytes.Buffer
	enc := serializer.NewEncoder(f, &stream)
	for _, u := range []example.User{{ID: 1, Name: "Ada"}, {ID: 2, Name: "Grace"}} {
		if err := enc.Encode(&u); err != nil {
			log.Fatal(err)
		}
	}
	dec := serializer.NewDecoder(f, &stream)
	for {
		var u example.User
		err := dec.Decode(&u)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u.ID, u.Name)
	}
	// Output:
	// 1 Ada
	// 2 Grace
}
