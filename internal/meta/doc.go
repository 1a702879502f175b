// Package meta holds the spec-level codecs of the Fory xlang format that both
// the generator's planner and the runtime decoder need:
//
//   - MurmurHash3 x64 128 (Murmur3x64_128) and the same-schema struct hash
//     (SchemaHash, docs/format.md §10);
//   - Go's snake_case field identifiers (SnakeCase, §6.2);
//   - meta strings: choosing and applying the 5/6-bit encodings
//     (EncodeMetaString, DecodeMetaString, §6.1), the inline form used by
//     same-schema NAMED_* type meta (AppendInlineMetaString, §6.3) and the
//     name form used inside TypeDefs (AppendTypeDefName, §6.4);
//   - TypeDef encode and parse (EncodeTypeDef, ParseTypeDef, §11.1–§11.2),
//     including official Go's long-field-name quirk (§14 item 1).
//
// Everything here is pure: no I/O, no reflection, no global state. The
// planner calls the encoders at generation time to precompute constant bytes;
// the runtime calls ParseTypeDef on TypeDefs received from peers, so the
// parser treats its input as hostile (bounded allocation, bounded recursion,
// no panics, errors that carry the byte offset).
//
// Byte-for-byte compatibility with official Fory Go is the goal of every
// encoder: the golden fixtures in internal/testdata/xlang-fixtures are produced by it,
// and the tests reproduce every TypeDef found in them.
package meta
