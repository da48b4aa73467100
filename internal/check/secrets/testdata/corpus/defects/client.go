package payments

// Client talks to the payment provider.
type Client struct{ apiKey string }

func NewClient() *Client {
	const clientSecret = "3Ai7A7AUUDZMBnWBrKHWuSGnuFl1ti6s"
	return &Client{apiKey: "0dQ4asi8LhuH4VACtgjZebwiA3TQ"}
}
