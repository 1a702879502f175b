module github.com/forygen/forygen

go 1.23.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/stretchr/testify v1.12.1
	golang.org/x/mod v0.27.0
	golang.org/x/tools v0.36.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.16.0 // indirect
)
