package humanize_test

import (
	"fmt"

	"github.com/acme/kit/humanize"
)

func ExampleBytes() {
	fmt.Println(humanize.Bytes(512))
	// Output: 512 B
}
