package tasks

import (
	"errors"

	"github.com/cairn-dev/cairn/internal/task"
)

func IsNotFound(err error) bool { return errors.Is(err, task.ErrNotFound) }
