// Package conformance is forygen's cross-language conformance suite: it checks that
// generated code reads and writes the Apache Fory xlang format byte for byte like
// official Fory Go.
//
// The golden fixtures (manifest.json plus one .bin file per case and mode) are
// official Fory Go's files, copied into internal/testdata (see its README).
//
// Each sub-package declares the Go types of some manifest cases, copied verbatim
// from the case's go_types, with fory:generate and fory:enum directives that
// reproduce the case's registrations. Run go generate ./internal/conformance/... to
// produce their code, then go test ./internal/conformance.
//
// Tests:
//
//   - TestXlangSchemaConsistent: every case in same-schema mode (WithCompatible(false)):
//     decode the golden file and compare with the case's value, then serialize the
//     value and compare bytes; evolution cases must be rejected.
//   - TestXlangCompatible: the same in compatible mode, including the evolution
//     cases (decode with the reader type).
//   - TestXlangCaseTable, TestXlangDeclarations: every manifest case has Go types
//     here, declared and registered exactly as the manifest says.
//   - TestOwnVectors, TestOwnVectorsWellFormed (and TestOwnVectorsCompatible): hand-checked
//     NumericStruct and MediaContent vectors embedded in the test; they need no fixtures.
package conformance
