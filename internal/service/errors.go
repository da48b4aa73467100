package service

import "github.com/cairn-dev/cairn/internal/problem"

func isNotFound(err error) bool { return problem.Is(err, problem.NotFound) }
