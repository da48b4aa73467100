package rank

import "github.com/cairn-dev/cairn/internal/memory"

var memoryTerms = memory.Terms
