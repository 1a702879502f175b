package e2e_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/forygen/forygen/e2e"
	"github.com/forygen/forygen/serializer"
)

func TestScratchPath(t *testing.T) {
	data, _ := os.ReadFile("/tmp/slow-1796005448570310232")
	fmt.Printf("% x\n", data[:40])
	f := serializer.New(serializer.WithCompatible(false))
	err := f.Deserialize(data, new(e2e.Composite))
	fmt.Println(err)
	f2 := serializer.New(serializer.WithCompatible(false))
	err = f2.Deserialize(data[:10], new(e2e.Composite))
	fmt.Println(err)
	err = f2.Deserialize(data[:10], new(e2e.Composite))
	fmt.Println(err)
}
