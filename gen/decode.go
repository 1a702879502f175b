package gen

import (
	"io"

	"github.com/forygen/forygen/gen/internal/dump"
)

// DecodeMain runs `forygen decode` (cmd/forygen's manual): it prints a Fory
// xlang message as a tree and returns the exit status.
func DecodeMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return dump.Main(args, stdin, stdout, stderr, decodeSchemas)
}

// decodeSchemas loads the annotated structs of pattern for `decode -types`.
func decodeSchemas(pattern string, tags []string) (*dump.Schemas, error) {
	return nil, errTypesUnsupported
}

var errTypesUnsupported = errorString("-types is not implemented yet")

type errorString string

func (e errorString) Error() string { return string(e) }
