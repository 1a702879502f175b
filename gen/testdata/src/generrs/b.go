package generrs

//fory:generate id=2
type StrPage = Page[string]
