module github.com/ploy-ai/ploy

go 1.26
