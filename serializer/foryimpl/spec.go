package foryimpl

import "github.com/forygen/forygen/internal/meta"

// The numbers of the format that generated code names (docs/format.md §2,
// §7, §8.1). Their one declaration is internal/meta's, which code in users'
// modules cannot import; these re-export them, at no cost at run time.
const (
	// FlagNull marks a null value.
	FlagNull = meta.FlagNull
	// FlagNotNull marks a present value with reference tracking off.
	FlagNotNull = meta.FlagNotNull
	// FlagRef marks a reference to an object already written; its ref id
	// follows.
	FlagRef = meta.FlagRef
	// FlagRefValue marks the first occurrence of a tracked object.
	FlagRefValue = meta.FlagRefValue
)

// Elements header bits of a list (docs/format.md §8.1) and the string
// header (§7), as generated writers put them.
const (
	ListTrackRef         = meta.ListTrackRef
	ListHasNull          = meta.ListHasNull
	ListSameType         = meta.ListSameType
	ListDeclaredSameType = meta.ListDeclaredSameType
	StringUTF8           = meta.StringUTF8
	StringLenShift       = meta.StringLenShift
)
