package load

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// The directives forygen reads. Like //go: directives they are written
// without a space after the slashes.
var knownDirectives = []string{"generate", "enum", "union", "ext"}

const knownDirectivesText = "//fory:generate, //fory:enum, //fory:union and //fory:ext"

func isKnownDirective(name string) bool {
	for _, k := range knownDirectives {
		if name == k {
			return true
		}
	}
	return false
}

// parseDirectiveLine splits a line comment of the form `//fory:name args`.
// ok is false for any other comment.
func parseDirectiveLine(text string) (name, args string, ok bool) {
	rest, found := strings.CutPrefix(text, "//fory:")
	if !found {
		return "", "", false
	}
	name, args, _ = strings.Cut(strings.Replace(rest, "\t", " ", 1), " ")
	return name, strings.TrimSpace(args), true
}

// spacedDirective reports a comment that would be a known directive if it
// had no space after the slashes (`// fory:generate id=1`).
func spacedDirective(text string) (name string, ok bool) {
	body, found := strings.CutPrefix(text, "//")
	if !found {
		return "", false
	}
	trimmed := strings.TrimLeft(body, " \t")
	if trimmed == body {
		return "", false
	}
	rest, found := strings.CutPrefix(trimmed, "fory:")
	if !found {
		return "", false
	}
	name, _, _ = strings.Cut(strings.Replace(rest, "\t", " ", 1), " ")
	return name, isKnownDirective(name)
}

// directivesOf reads `//fory:generate` and `//fory:enum` lines from doc
// comments.
func directivesOf(docs ...*ast.CommentGroup) (kind, args string, pos token.Pos, n int) {
	for _, d := range docs {
		if d == nil {
			continue
		}
		for _, c := range d.List {
			name, a, ok := parseDirectiveLine(c.Text)
			if ok && isKnownDirective(name) {
				kind, args, pos = name, a, c.Pos()
				n++
			}
		}
	}
	return kind, args, pos, n
}

// typeDocs returns the doc comments a type spec's directives are read from:
// its own, and the declaration's when the declaration holds only this spec.
func typeDocs(gd *ast.GenDecl, ts *ast.TypeSpec) []*ast.CommentGroup {
	docs := []*ast.CommentGroup{ts.Doc}
	if len(gd.Specs) == 1 {
		docs = append(docs, gd.Doc)
	}
	return docs
}

// checkComments reports every comment of a file that looks like a fory
// directive but is not read as one: unknown names, a space after the
// slashes, and known directives that are not in a package-level type's doc
// comment (and would be ignored silently).
func (l *loader) checkComments(f *ast.File) {
	attached := map[*ast.Comment]string{} // directive comment → type name
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			for _, doc := range typeDocs(gd, ts) {
				if doc == nil {
					continue
				}
				for _, c := range doc.List {
					attached[c] = ts.Name.Name
				}
			}
		}
	}
	for _, g := range f.Comments {
		for _, c := range g.List {
			prefix := ""
			typeName, isDoc := attached[c]
			if isDoc {
				prefix = typeName + ": "
			}
			if name, ok := spacedDirective(c.Text); ok {
				l.errorf(c.Pos(), "%s%q is not read as a directive; remove the space after // (//fory:%s), as in //go:generate", prefix, c.Text, name)
				continue
			}
			name, _, ok := parseDirectiveLine(c.Text)
			if !ok {
				continue
			}
			switch {
			case !isKnownDirective(name):
				l.errorf(c.Pos(), "%s//fory:%s is not a forygen directive; %s", prefix, name, suggest(name))
			case !isDoc:
				l.errorf(c.Pos(), "//fory:%s is not attached to a type declaration, so it would be ignored; put it in the doc comment directly above a package-level `type T …` (no blank line between them)", name)
			}
		}
	}
}

// suggest names the known directives, and the one an unknown name looks
// like a misspelling of.
func suggest(name string) string {
	for _, k := range knownDirectives {
		if name != "" && (strings.HasPrefix(k, name) || strings.HasPrefix(name, k) || editDistance(name, k) <= 2) {
			return fmt.Sprintf("did you mean //fory:%s? (the directives are %s)", k, knownDirectivesText)
		}
	}
	return "the directives are " + knownDirectivesText
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
