package service

import (
	"errors"

	"github.com/cairn-dev/cairn/internal/task"
)

func isNotFound(err error) bool { return errors.Is(err, task.ErrNotFound) }
