package tasks

import "github.com/cairn-dev/cairn/internal/problem"

func IsNotFound(err error) bool { return problem.Is(err, problem.NotFound) }
